// File: opaque identifiers the core uses in place of Netty's Channel. The core never opens or
// closes a connection; it names one and returns what should happen to it.
#pragma once

#include <cstdint>

namespace nssim::core {

// A transport connection as the NameServer sees it (Java: io.netty.channel.Channel). Identity is
// all the core needs: RouteInfoManager#onChannelDestroy matches channels with ==.
struct ConnectionId {
  std::uint64_t value = 0;

  friend bool operator==(ConnectionId a, ConnectionId b) { return a.value == b.value; }
  friend bool operator!=(ConnectionId a, ConnectionId b) { return a.value != b.value; }
  friend bool operator<(ConnectionId a, ConnectionId b) { return a.value < b.value; }
};

// Java: MixAll.MASTER_ID.
inline constexpr std::int64_t kMasterId = 0;

}  // namespace nssim::core

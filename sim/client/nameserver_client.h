// File: what a client's NettyRemotingClient holds of its NameServers: the sticky choice
// (namesrvAddrChoosed with namesrvIndex) and which NameServer channels are open. The producer model
// owns it: every route query of the client, the scheduled poll's and its sends', reads and changes
// it, one at a time under lockNamesrv. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "sim/client/nameserver_selector.h"
#include "sim/network/network_history.h"

namespace nssim::sim {

struct NameServerClient {
  // A channel from since_ms on: open to incarnation `epoch` of the NameServer, or closed (nullopt).
  struct Channel {
    std::int64_t since_ms = 0;
    std::optional<std::uint32_t> epoch;
  };
  NameServerSelector selector;
  std::map<NodeId, Channel> channels;
};

}  // namespace nssim::sim

// File: what a client's NettyRemotingClient knew of its NameServers over time: the sticky choice
// (namesrvAddrChoosed with namesrvIndex) and which NameServer channels were open. The producer
// actor records both as its route polls run; its model, which runs behind the simulated present,
// reads them to find what a send's route query at a past instant would have used. Pure.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "sim/client/nameserver_selector.h"
#include "sim/network/network_history.h"

namespace nssim::sim {

class NameServerClientHistory {
 public:
  struct Choice {
    std::int64_t since_ms = std::numeric_limits<std::int64_t>::min();
    NameServerSelector selector;
  };
  // A channel's state from since_ms on: open to incarnation `epoch` of the NameServer, or closed
  // (nullopt).
  struct ChannelState {
    std::int64_t since_ms = 0;
    std::optional<std::uint32_t> epoch;
  };

  // The selector as the client starts with it, before its first request.
  explicit NameServerClientHistory(NameServerSelector initial);

  // Changes, in non-decreasing time order.
  void record_choice(std::int64_t t_ms, const NameServerSelector& selector);
  void record_channel(std::int64_t t_ms, NodeId nameserver, std::optional<std::uint32_t> epoch);

  // The choice in force at t_ms (the last recorded at or before it).
  const Choice& choice_at(std::int64_t t_ms) const;
  // The state of the channel to `nameserver` at t_ms; nullopt before its first connect.
  std::optional<ChannelState> channel_at(NodeId nameserver, std::int64_t t_ms) const;

 private:
  std::vector<Choice> choices_;
  std::map<NodeId, std::vector<ChannelState>> channels_;
};

}  // namespace nssim::sim

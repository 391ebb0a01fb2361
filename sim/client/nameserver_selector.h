// File: which NameServer a client talks to (Java:
// NettyRemotingClient#getAndCreateNameserverChannel). The address list is shuffled once, the index
// starts at a random value, and the choice is sticky: it moves on only when the chosen NameServer's
// channel is not usable.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "sim/network/network_history.h"
#include "sim/scenario/rng.h"

namespace nssim::sim {

class NameServerSelector {
 public:
  // Java: updateNameServerAddressList shuffles; namesrvIndex starts at nextInt(999).
  NameServerSelector(std::vector<NodeId> nameservers, Rng& rng);

  // The chosen NameServer while `channel_ok` says its channel is usable, otherwise the next one
  // in index order, which becomes the chosen one.
  NodeId choose(const std::function<bool(NodeId)>& channel_ok);
  std::size_t size() const { return nameservers_.size(); }
  std::optional<NodeId> chosen() const { return chosen_; }

 private:
  NodeId next();

  std::vector<NodeId> nameservers_;
  std::int64_t index_;
  std::optional<NodeId> chosen_;
};

}  // namespace nssim::sim

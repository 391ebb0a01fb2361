// File: the sticky NameServer choice (see nameserver_selector.h).
#include "sim/client/nameserver_selector.h"

#include <cstdlib>

namespace nssim::sim {

NameServerSelector::NameServerSelector(std::vector<NodeId> nameservers, Rng& rng)
    : nameservers_(std::move(nameservers)), index_(rng.uniform_int(0, 998)) {
  rng.shuffle(nameservers_);
}

NodeId NameServerSelector::choose(const std::function<bool(NodeId)>& channel_ok) {
  if (chosen_ && channel_ok(*chosen_)) return *chosen_;
  return next();
}

// Java: index = Math.abs(namesrvIndex.incrementAndGet()) % size.
NodeId NameServerSelector::next() {
  ++index_;
  const auto size = static_cast<std::int64_t>(nameservers_.size());
  chosen_ = nameservers_[static_cast<std::size_t>(std::llabs(index_) % size)];
  return *chosen_;
}

}  // namespace nssim::sim

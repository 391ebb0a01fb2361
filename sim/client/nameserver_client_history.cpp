// File: NameServerClientHistory (see nameserver_client_history.h).
#include "sim/client/nameserver_client_history.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace nssim::sim {

namespace {

void require_in_order(bool ok) {
  if (ok) return;
  std::fprintf(stderr, "NameServerClientHistory: changes must be recorded in time order\n");
  std::abort();
}

// The last entry whose since_ms is <= t_ms, or end() if none.
template <typename Entry>
typename std::vector<Entry>::const_iterator in_force(const std::vector<Entry>& entries,
                                                     std::int64_t t_ms) {
  const auto after =
      std::upper_bound(entries.begin(), entries.end(), t_ms,
                       [](std::int64_t t, const Entry& e) { return t < e.since_ms; });
  return after == entries.begin() ? entries.end() : after - 1;
}

}  // namespace

NameServerClientHistory::NameServerClientHistory(NameServerSelector initial) {
  choices_.push_back(Choice{std::numeric_limits<std::int64_t>::min(), std::move(initial)});
}

void NameServerClientHistory::record_choice(std::int64_t t_ms, const NameServerSelector& selector) {
  require_in_order(t_ms >= choices_.back().since_ms);
  choices_.push_back(Choice{t_ms, selector});
}

void NameServerClientHistory::record_channel(std::int64_t t_ms, NodeId nameserver,
                                             std::optional<std::uint32_t> epoch) {
  auto& states = channels_[nameserver];
  require_in_order(states.empty() || t_ms >= states.back().since_ms);
  states.push_back(ChannelState{t_ms, epoch});
}

const NameServerClientHistory::Choice& NameServerClientHistory::choice_at(std::int64_t t_ms) const {
  return *in_force(choices_, t_ms);  // the initial choice is in force from the beginning
}

std::optional<NameServerClientHistory::ChannelState> NameServerClientHistory::channel_at(
    NodeId nameserver, std::int64_t t_ms) const {
  const auto found = channels_.find(nameserver);
  if (found == channels_.end()) return std::nullopt;
  const auto state = in_force(found->second, t_ms);
  if (state == found->second.end()) return std::nullopt;
  return *state;
}

}  // namespace nssim::sim

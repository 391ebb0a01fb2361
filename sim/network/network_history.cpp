// File: NetworkHistory: piecewise-constant timelines of nodes and directed cuts, and the TCP rules
// (connect, FIN, RST, retransmission) evaluated on them at given instants.
#include "sim/network/network_history.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/invariant.h"

namespace nssim::sim {

namespace {

constexpr std::int64_t kBeginning = std::numeric_limits<std::int64_t>::min();

template <typename Entry>
std::size_t entry_at(const std::vector<Entry>& entries, std::int64_t t_ms) {
  // The last entry whose `since` is <= t_ms; entries[0] is always at kBeginning. Most queries
  // are about instants after the latest change.
  if (entries.back().first <= t_ms) return entries.size() - 1;
  auto it = std::upper_bound(entries.begin(), entries.end(), t_ms,
                             [](std::int64_t t, const Entry& e) { return t < e.first; });
  return static_cast<std::size_t>(it - entries.begin()) - 1;
}

// The first entry whose `since` is > after_ms (end() if none).
template <typename Entry>
typename std::vector<Entry>::const_iterator first_after(const std::vector<Entry>& entries,
                                                        std::int64_t after_ms) {
  return std::upper_bound(entries.begin(), entries.end(), after_ms,
                          [](std::int64_t t, const Entry& e) { return t < e.first; });
}

// The entry in force at from_ms if it stays in force through until_ms (no entry starts in
// (from_ms, until_ms]), else nullptr.
template <typename Entry>
const Entry* steady_entry(const std::vector<Entry>& entries, std::int64_t from_ms,
                          std::int64_t until_ms) {
  // The common case first: nothing recorded after from_ms, the latest entry holds.
  if (entries.back().first <= from_ms) return &entries.back();
  const auto next = first_after(entries, from_ms);
  if (next != entries.end() && next->first <= until_ms) return nullptr;
  return &*(next - 1);
}

// Lowers `earliest` to the first change in `entries` after after_ms, if there is one.
template <typename Entry>
void lower_to_next(const std::vector<Entry>& entries, std::int64_t after_ms,
                   std::optional<std::int64_t>& earliest) {
  const auto next = first_after(entries, after_ms);
  if (next != entries.end() && (!earliest || next->first < *earliest)) earliest = next->first;
}

// A hop between two node states: both access-link latencies plus the payload over the slower
// bandwidth, rounded up. Mbit/s = 1000 bits per millisecond.
std::int64_t transit_between(const NodeState& from, const NodeState& to, std::int64_t bytes) {
  const double transfer_ms = static_cast<double>(bytes) * 8.0 /
                             (std::min(from.bandwidth_mbps, to.bandwidth_mbps) * 1000.0);
  return static_cast<std::int64_t>(std::ceil(from.latency_ms + to.latency_ms + transfer_ms));
}

}  // namespace

NodeId NetworkHistory::add_node(const std::string& name, double latency_ms, double bandwidth_mbps) {
  NSSIM_CHECK(!by_name_.contains(name), "duplicate node name");
  NSSIM_CHECK(latency_ms >= 0.0 && bandwidth_mbps > 0.0, "latency must be >= 0, bandwidth > 0");
  NodeState initial;
  initial.latency_ms = latency_ms;
  initial.bandwidth_mbps = bandwidth_mbps;
  const auto id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back(NodeTimeline{name, {{kBeginning, initial}}});
  by_name_.emplace(name, id);
  return id;
}

const std::string& NetworkHistory::name(NodeId node) const { return timeline(node).name; }

std::optional<NodeId> NetworkHistory::find(const std::string& name) const {
  auto it = by_name_.find(name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

std::size_t NetworkHistory::node_count() const { return nodes_.size(); }

const NetworkHistory::NodeTimeline& NetworkHistory::timeline(NodeId node) const {
  NSSIM_CHECK(node >= 0 && static_cast<std::size_t>(node) < nodes_.size(), "unknown node id");
  return nodes_[static_cast<std::size_t>(node)];
}

// Every change appends an entry, even at an instant that already has one, so that an incarnation
// that ends and restarts within one millisecond still shows how it ended.
NodeState& NetworkHistory::begin_change(NodeId node, std::int64_t t_ms) {
  timeline(node);  // validates the id
  auto& states = nodes_[static_cast<std::size_t>(node)].states;
  NSSIM_CHECK(t_ms >= states.back().first, "node changes must be recorded in time order");
  ++change_count_;
  states.emplace_back(t_ms, states.back().second);
  return states.back().second;
}

// A change that does not apply in the current state (a start on a down host or of a running
// process, a stop of a stopped process, a resume of a running one...) is ignored: faults overlap.
void NetworkHistory::start_process(NodeId node, std::int64_t t_ms) {
  const NodeState now = state_at(node, t_ms);
  if (!now.host_up || now.process != ProcessState::kDown) return;
  NodeState& next = begin_change(node, t_ms);
  next.process = ProcessState::kUp;
  next.epoch += 1;
  next.down_kind = DownKind::kNone;
}

void NetworkHistory::stop_process(NodeId node, DownKind kind, std::int64_t t_ms) {
  NSSIM_CHECK(kind == DownKind::kCrash || kind == DownKind::kShutdown,
              "stop_process takes kCrash or kShutdown");
  if (state_at(node, t_ms).process == ProcessState::kDown) return;
  NodeState& next = begin_change(node, t_ms);
  next.process = ProcessState::kDown;
  next.down_kind = kind;
}

void NetworkHistory::power_off(NodeId node, std::int64_t t_ms) {
  const NodeState now = state_at(node, t_ms);
  if (!now.host_up) return;
  NodeState& next = begin_change(node, t_ms);
  next.host_up = false;
  if (next.process != ProcessState::kDown) {
    next.process = ProcessState::kDown;
    next.down_kind = DownKind::kPoweroff;
  }
}

void NetworkHistory::power_on(NodeId node, std::int64_t t_ms) {
  if (state_at(node, t_ms).host_up) return;
  begin_change(node, t_ms).host_up = true;
}

void NetworkHistory::pause(NodeId node, std::int64_t t_ms) {
  if (state_at(node, t_ms).process != ProcessState::kUp) return;
  begin_change(node, t_ms).process = ProcessState::kPaused;
}

void NetworkHistory::resume(NodeId node, std::int64_t t_ms) {
  if (state_at(node, t_ms).process != ProcessState::kPaused) return;
  begin_change(node, t_ms).process = ProcessState::kUp;
}

void NetworkHistory::set_latency(NodeId node, double latency_ms, std::int64_t t_ms) {
  NSSIM_CHECK(latency_ms >= 0.0, "latency must be >= 0");
  begin_change(node, t_ms).latency_ms = latency_ms;
}

void NetworkHistory::cut(NodeId from, NodeId to, std::int64_t t_ms) {
  change_cut(from, to, +1, t_ms);
}

void NetworkHistory::heal(NodeId from, NodeId to, std::int64_t t_ms) {
  change_cut(from, to, -1, t_ms);
}

void NetworkHistory::change_cut(NodeId from, NodeId to, int delta, std::int64_t t_ms) {
  timeline(from);
  timeline(to);
  auto& entries = cuts_[{from, to}];
  if (entries.empty()) entries.emplace_back(kBeginning, 0);
  nodes_[static_cast<std::size_t>(from)].in_cuts = true;
  nodes_[static_cast<std::size_t>(to)].in_cuts = true;
  NSSIM_CHECK(t_ms >= entries.back().first, "cuts must be recorded in time order");
  const int count = entries.back().second + delta;
  NSSIM_CHECK(count >= 0, "heal without a matching cut");
  ++change_count_;
  entries.emplace_back(t_ms, count);
}

const NetworkHistory::CutTimeline* NetworkHistory::cut_timeline(NodeId from, NodeId to) const {
  // Most pairs never had a cut: two flags answer for them without searching the map.
  if (!timeline(from).in_cuts || !timeline(to).in_cuts) return nullptr;
  auto it = cuts_.find({from, to});
  return it == cuts_.end() ? nullptr : &it->second;
}

NodeState NetworkHistory::state_at(NodeId node, std::int64_t t_ms) const {
  const auto& states = timeline(node).states;
  return states[entry_at(states, t_ms)].second;
}

bool NetworkHistory::path_open(NodeId from, NodeId to, std::int64_t t_ms) const {
  const CutTimeline* entries = cut_timeline(from, to);
  return entries == nullptr || (*entries)[entry_at(*entries, t_ms)].second == 0;
}

bool NetworkHistory::reachable(NodeId a, NodeId b, std::int64_t t_ms) const {
  return state_at(a, t_ms).host_up && state_at(b, t_ms).host_up && path_open(a, b, t_ms) &&
         path_open(b, a, t_ms);
}

double NetworkHistory::one_way_latency_ms(NodeId a, NodeId b, std::int64_t t_ms) const {
  return state_at(a, t_ms).latency_ms + state_at(b, t_ms).latency_ms;
}

std::int64_t NetworkHistory::transit_ms(NodeId from, NodeId to, std::int64_t t_ms,
                                        std::int64_t bytes) const {
  return transit_between(state_at(from, t_ms), state_at(to, t_ms), bytes);
}

bool NetworkHistory::incarnation_alive(NodeId node, std::uint32_t epoch, std::int64_t t_ms) const {
  const NodeState s = state_at(node, t_ms);
  return s.host_up && s.epoch == epoch && s.process != ProcessState::kDown;
}

std::optional<std::pair<std::int64_t, DownKind>> NetworkHistory::incarnation_end(
    NodeId node, std::uint32_t epoch) const {
  const auto& states = timeline(node).states;
  // An epoch that is alive in the latest state has not ended: once its process goes down the
  // epoch never runs again (a start takes the next one). Sends ask this all the time.
  const NodeState& latest = states.back().second;
  if (latest.epoch == epoch && latest.process != ProcessState::kDown) return std::nullopt;
  bool started = false;
  for (const auto& [since, s] : states) {
    const bool alive = s.epoch == epoch && s.process != ProcessState::kDown;
    if (alive) {
      started = true;
    } else if (started) {
      return std::make_pair(since, s.epoch == epoch ? s.down_kind : DownKind::kNone);
    }
  }
  return std::nullopt;
}

bool NetworkHistory::can_cross(NodeId from, NodeId to, std::int64_t t_ms) const {
  return state_at(from, t_ms).host_up && state_at(to, t_ms).host_up && path_open(from, to, t_ms);
}

std::optional<std::int64_t> NetworkHistory::next_instant(NodeId from, NodeId to,
                                                         std::int64_t after_ms) const {
  std::optional<std::int64_t> earliest;
  lower_to_next(timeline(from).states, after_ms, earliest);
  lower_to_next(timeline(to).states, after_ms, earliest);
  if (const CutTimeline* entries = cut_timeline(from, to)) {
    lower_to_next(*entries, after_ms, earliest);
  }
  return earliest;
}

Delivery NetworkHistory::deliver(NodeId from, NodeId to, std::uint32_t to_epoch,
                                 std::int64_t t_ms) const {
  if (!can_cross(from, to, t_ms)) return Delivery::kDropped;
  if (incarnation_alive(to, to_epoch, t_ms)) return Delivery::kDelivered;
  return path_open(to, from, t_ms) ? Delivery::kRefused : Delivery::kDropped;
}

Delivery NetworkHistory::connect(NodeId from, NodeId to, std::int64_t t_ms) const {
  if (!can_cross(from, to, t_ms)) return Delivery::kDropped;
  const std::int64_t syn_at = t_ms + transit_ms(from, to, t_ms);
  // The answer (SYN-ACK or RST) leaves `to` when the SYN arrives and needs the way back.
  if (!can_cross(to, from, syn_at)) return Delivery::kDropped;
  return state_at(to, syn_at).process == ProcessState::kDown ? Delivery::kRefused
                                                             : Delivery::kDelivered;
}

ConnectResult NetworkHistory::connect_within(NodeId from, NodeId to, std::int64_t t_ms,
                                             std::int64_t timeout_ms) const {
  const std::int64_t deadline = t_ms + timeout_ms;
  for (std::int64_t offset : kSynRetransmitOffsetsMs) {
    const std::int64_t sent = t_ms + offset;
    if (sent >= deadline) break;
    const Delivery answer = connect(from, to, sent);
    if (answer == Delivery::kDropped) continue;
    const std::int64_t syn_at = sent + transit_ms(from, to, sent);
    const std::int64_t back = syn_at + transit_ms(to, from, syn_at);
    if (back > deadline) break;  // the answer comes after the caller gave up
    return ConnectResult{answer, back, state_at(to, syn_at).epoch};
  }
  return ConnectResult{Delivery::kDropped, deadline, 0};
}

std::optional<std::int64_t> NetworkHistory::client_sees_close(NodeId client, NodeId server,
                                                              std::uint32_t epoch,
                                                              std::int64_t after_ms,
                                                              std::int64_t until_ms) const {
  const auto end = incarnation_end(server, epoch);
  if (!end) return std::nullopt;
  const auto [ended_at, kind] = *end;
  if (kind != DownKind::kCrash && kind != DownKind::kShutdown) return std::nullopt;
  if (!can_cross(server, client, ended_at)) return std::nullopt;
  const std::int64_t arrives = ended_at + transit_ms(server, client, ended_at);
  if (arrives <= after_ms || arrives > until_ms) return std::nullopt;
  return arrives;
}

std::optional<std::int64_t> NetworkHistory::crossing(NodeId from, NodeId to, std::int64_t from_ms,
                                                     std::int64_t until_ms,
                                                     std::int64_t bytes) const {
  // Candidates: from_ms, then every change instant up to until_ms, in order.
  std::optional<std::int64_t> t = from_ms;
  while (t && *t <= until_ms) {
    if (can_cross(from, to, *t)) {
      const std::int64_t arrives = *t + transit_ms(from, to, *t, bytes);
      if (arrives > until_ms) return std::nullopt;
      return arrives;
    }
    t = next_instant(from, to, *t);
  }
  return std::nullopt;
}

std::optional<std::int64_t> NetworkHistory::request_arrival(NodeId client, NodeId server,
                                                            std::uint32_t epoch,
                                                            std::int64_t from_ms,
                                                            std::int64_t until_ms,
                                                            std::int64_t bytes) const {
  const auto reached = crossing(client, server, from_ms, until_ms, bytes);
  if (!reached || !incarnation_alive(server, epoch, *reached)) return std::nullopt;
  return processed_at(server, epoch, *reached, until_ms);
}

std::optional<std::int64_t> NetworkHistory::processed_at(NodeId server, std::uint32_t epoch,
                                                         std::int64_t reached_ms,
                                                         std::int64_t until_ms) const {
  // Wait in the socket buffer until the incarnation runs; give up if it ends first. Candidates:
  // reached_ms, then the server's change instants up to until_ms.
  const auto& states = timeline(server).states;
  auto next = first_after(states, reached_ms);
  for (std::int64_t t = reached_ms;; t = (next++)->first) {
    if (!incarnation_alive(server, epoch, t)) return std::nullopt;
    if (state_at(server, t).process == ProcessState::kUp) return t;
    if (next == states.end() || next->first > until_ms) return std::nullopt;
  }
}

std::optional<Exchange> NetworkHistory::steady_exchange(NodeId client, NodeId server,
                                                        std::uint32_t epoch, std::int64_t sent_ms,
                                                        std::int64_t deadline_ms,
                                                        std::int64_t bytes) const {
  const auto* c = steady_entry(timeline(client).states, sent_ms, deadline_ms);
  const auto* s = steady_entry(timeline(server).states, sent_ms, deadline_ms);
  if (c == nullptr || s == nullptr) return std::nullopt;
  const NodeState& cs = c->second;
  const NodeState& ss = s->second;
  if (!cs.host_up || !ss.host_up || ss.epoch != epoch || ss.process == ProcessState::kDown) {
    return std::nullopt;
  }
  for (const CutTimeline* cut : {cut_timeline(client, server), cut_timeline(server, client)}) {
    if (cut == nullptr) continue;
    const auto* entry = steady_entry(*cut, sent_ms, deadline_ms);
    if (entry == nullptr || entry->second != 0) return std::nullopt;
  }
  // What the general rules give when nothing changes: no FIN (the incarnation outlives the
  // deadline), the request crosses at once, waits forever on a paused process, and the response
  // crosses back at once.
  const std::int64_t reached = sent_ms + transit_between(cs, ss, bytes);
  if (reached > deadline_ms || ss.process == ProcessState::kPaused) {
    return Exchange{ExchangeOutcome::kSilent, deadline_ms};
  }
  const std::int64_t answered = reached + transit_between(ss, cs, 0);
  if (answered > deadline_ms) return Exchange{ExchangeOutcome::kSilent, deadline_ms, reached};
  return Exchange{ExchangeOutcome::kAnswered, answered, reached};
}

std::optional<SteadyRoundTrip> NetworkHistory::steady_round_trip(NodeId client, NodeId server,
                                                                 std::uint32_t epoch,
                                                                 std::int64_t t_ms,
                                                                 std::int64_t bytes) const {
  const auto& c = timeline(client).states.back();
  const auto& s = timeline(server).states.back();
  if (c.first > t_ms || s.first > t_ms) return std::nullopt;
  const NodeState& cs = c.second;
  const NodeState& ss = s.second;
  if (!cs.host_up || !ss.host_up || ss.epoch != epoch || ss.process != ProcessState::kUp) {
    return std::nullopt;
  }
  for (const CutTimeline* cut : {cut_timeline(client, server), cut_timeline(server, client)}) {
    if (cut != nullptr && (cut->back().first > t_ms || cut->back().second != 0)) {
      return std::nullopt;
    }
  }
  // steady_exchange's hops, from the same states.
  return SteadyRoundTrip{change_count_, epoch, bytes, transit_between(cs, ss, bytes),
                         transit_between(ss, cs, 0)};
}

Exchange NetworkHistory::exchange(NodeId client, NodeId server, std::uint32_t epoch,
                                  std::int64_t sent_ms, std::int64_t deadline_ms,
                                  std::int64_t bytes) const {
  if (const auto steady = steady_exchange(client, server, epoch, sent_ms, deadline_ms, bytes)) {
    return *steady;
  }
  const auto fin = client_sees_close(client, server, epoch, sent_ms, deadline_ms);
  const auto reached = crossing(client, server, sent_ms, deadline_ms, bytes);
  if (reached && incarnation_alive(server, epoch, *reached)) {
    if (const auto processed = processed_at(server, epoch, *reached, deadline_ms)) {
      // TCP keeps order: the response, sent before any FIN, arrives first or not at all.
      if (const auto answered = crossing(server, client, *processed, deadline_ms)) {
        return {ExchangeOutcome::kAnswered, *answered, *processed};
      }
      return {ExchangeOutcome::kSilent, deadline_ms, *processed};
    }
    // Died with the request unread in its socket (it was paused): Linux resets such a connection
    // instead of closing it with a FIN; the RST travels as the FIN would.
    if (fin) return {ExchangeOutcome::kReset, *fin};
  } else if (reached) {
    // Host up, incarnation gone: the kernel answers the data with an RST, unless the FIN of the
    // crash (sent earlier) reaches the client first.
    const auto reset = crossing(server, client, *reached, deadline_ms);
    if (fin && (!reset || *fin <= *reset)) return {ExchangeOutcome::kClosed, *fin};
    if (reset) return {ExchangeOutcome::kReset, *reset};
  }
  if (fin) return {ExchangeOutcome::kClosed, *fin};
  return {ExchangeOutcome::kSilent, deadline_ms};
}

namespace {

template <typename Entry>
void append_instants(const std::vector<Entry>& entries, std::vector<std::int64_t>& out) {
  for (const auto& entry : entries) {
    if (entry.first != kBeginning) out.push_back(entry.first);
  }
}

std::vector<std::int64_t> sorted_unique(std::vector<std::int64_t> instants) {
  std::sort(instants.begin(), instants.end());
  instants.erase(std::unique(instants.begin(), instants.end()), instants.end());
  return instants;
}

}  // namespace

std::vector<std::int64_t> NetworkHistory::change_times() const {
  std::vector<std::int64_t> out;
  for (const auto& node : nodes_) append_instants(node.states, out);
  for (const auto& [pair, entries] : cuts_) append_instants(entries, out);
  return sorted_unique(std::move(out));
}

std::vector<std::int64_t> NetworkHistory::change_times_between(NodeId a, NodeId b) const {
  std::vector<std::int64_t> out;
  append_instants(timeline(a).states, out);
  append_instants(timeline(b).states, out);
  if (const CutTimeline* entries = cut_timeline(a, b)) append_instants(*entries, out);
  if (const CutTimeline* entries = cut_timeline(b, a)) append_instants(*entries, out);
  return sorted_unique(std::move(out));
}

}  // namespace nssim::sim

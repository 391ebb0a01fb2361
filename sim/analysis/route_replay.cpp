// File: RouteReplay (see route_replay.h).
#include "sim/analysis/route_replay.h"

#include <algorithm>

#include "sim/analysis/process_spans.h"
#include "sim/analysis/route_views.h"

namespace nssim::sim {

namespace {

using ReplayIntervals = std::vector<ReplayInterval>;

// Records one address's listing as its table reports it (transitions only). An interval cut to
// nothing within one millisecond is dropped; one that ends and begins again at one instant is
// kept as two, as two route views logged it.
void set_held(ReplayIntervals& intervals, std::int64_t t_ms, bool listed) {
  if (listed) {
    intervals.push_back({t_ms, std::nullopt});
  } else if (intervals.back().start_ms == t_ms) {
    intervals.pop_back();
  } else {
    intervals.back().end_ms = t_ms;
  }
}

// The spans in which the process is in one of `states`, consecutive ones joined; the last span
// lasts beyond the run's end, as its state does.
ReplayIntervals spans_in(const std::vector<ProcessSpan>& spans,
                         std::initializer_list<SpanState> states) {
  ReplayIntervals out;
  for (std::size_t k = 0; k < spans.size(); ++k) {
    const ProcessSpan& span = spans[k];
    if (std::none_of(states.begin(), states.end(),
                     [&span](SpanState state) { return span.state == state; }))
      continue;
    const std::optional<std::int64_t> end =
        k + 1 == spans.size() ? std::nullopt : std::optional<std::int64_t>(span.end_ms);
    if (!out.empty() && out.back().end_ms == span.start_ms) {
      out.back().end_ms = end;
    } else {
      out.push_back({span.start_ms, end});
    }
  }
  return out;
}

// The parts of `a` inside `b` (each sorted and non-overlapping), empty ones left out.
ReplayIntervals intersect_intervals(const ReplayIntervals& a, const ReplayIntervals& b) {
  ReplayIntervals out;
  auto ends_before = [](const std::optional<std::int64_t>& x,
                        const std::optional<std::int64_t>& y) { return x && (!y || *x < *y); };
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const std::int64_t start = std::max(a[i].start_ms, b[j].start_ms);
    const std::optional<std::int64_t> end =
        ends_before(a[i].end_ms, b[j].end_ms) ? a[i].end_ms : b[j].end_ms;
    if (!end || start < *end) out.push_back({start, end});
    if (ends_before(a[i].end_ms, b[j].end_ms)) {
      ++i;
    } else {
      ++j;
    }
  }
  return out;
}

// Whether one of `intervals` (sorted, non-overlapping) holds t_ms.
bool interval_covers(const ReplayIntervals& intervals, std::int64_t t_ms) {
  const auto after = std::upper_bound(
      intervals.begin(), intervals.end(), t_ms,
      [](std::int64_t t, const ReplayInterval& interval) { return t < interval.start_ms; });
  return after != intervals.begin() && std::prev(after)->contains(t_ms);
}

}  // namespace

std::optional<std::int64_t> NameServerReplay::last_start_at_or_before(std::int64_t t_ms) const {
  const auto after = std::upper_bound(incarnations_.begin(), incarnations_.end(), t_ms,
                                      [](std::int64_t t, const NameServerIncarnation& incarnation) {
                                        return t < incarnation.start_ms;
                                      });
  if (after == incarnations_.begin()) return std::nullopt;
  return std::prev(after)->start_ms;
}

const std::vector<ReplayInterval>& NameServerReplay::listed(const std::string& addr) const {
  static const ReplayIntervals kNever;
  const auto found = listed_.find(addr);
  return found == listed_.end() ? kNever : found->second;
}

bool NameServerReplay::lists(const std::string& addr, std::int64_t t_ms) const {
  return interval_covers(listed(addr), t_ms);
}

std::vector<std::int64_t> NameServerReplay::listing_changes(const std::string& addr) const {
  std::vector<std::int64_t> times;
  for (const ReplayInterval& interval : listed(addr)) {
    times.push_back(interval.start_ms);
    if (interval.end_ms) times.push_back(*interval.end_ms);
  }
  return times;
}

bool NameServerReplay::answers(std::int64_t t_ms) const {
  return interval_covers(answering_, t_ms);
}

RouteReplay::RouteReplay(const Scenario& scenario, const std::vector<Event>& events)
    : names_(nameserver_names(scenario)) {
  // What each NameServer's tables held, per address: the route views rebuild them, and every
  // process_start empties them (a new RouteInfoManager).
  std::map<std::string, RouteViewTable> tables;
  std::map<std::string, std::map<std::string, ReplayIntervals>> held;
  for (const std::string& name : names_) nameservers_[name];
  for (std::size_t e = 0; e < events.size(); ++e) {
    const Event& event = events[e];
    const auto found = nameservers_.find(event.node);
    if (found == nameservers_.end()) continue;
    NameServerReplay& replay = found->second;
    RouteViewTable& table = tables[event.node];
    std::map<std::string, ReplayIntervals>& held_by = held[event.node];
    const RouteViewTable::OnAddress on_address = [&](const std::string& addr, bool listed) {
      set_held(held_by[addr], event.t_ms, listed);
    };
    if (event.kind == EventKind::kProcessStart) {
      table.clear(on_address);
      replay.incarnations_.push_back({event.t_ms, e, std::nullopt});
      replay.views_.emplace_back(event.t_ms, table.fingerprint());
    } else if (event.kind == EventKind::kRouteView) {
      table.apply(event.fields, on_address);
      replay.views_.emplace_back(event.t_ms, table.fingerprint());
      if (!table.empty() && !replay.incarnations_.empty() &&
          !replay.incarnations_.back().first_listing_ms) {
        replay.incarnations_.back().first_listing_ms = event.t_ms;
      }
    }
  }
  // A NameServer lists what its tables hold while its process exists (up or paused), and
  // answers while it is up.
  const auto spans = process_spans_of(events, names_, scenario.duration_ms);
  for (auto& [name, replay] : nameservers_) {
    const std::vector<ProcessSpan>& life = spans.at(name);
    const ReplayIntervals running = spans_in(life, {SpanState::kUp, SpanState::kPaused});
    replay.answering_ = spans_in(life, {SpanState::kUp});
    for (const auto& [addr, intervals] : held[name]) {
      ReplayIntervals listed = intersect_intervals(intervals, running);
      if (!listed.empty()) replay.listed_.emplace(addr, std::move(listed));
    }
  }
}

}  // namespace nssim::sim

// File: the shrink passes over the faults (explore_shrink_passes.h): ddmin, merging overlaps,
// pulling overlapping faults apart, lowering durations and starts.
#include "sim/scenario/explore_shrink_passes.h"

#include <algorithm>
#include <limits>

namespace nssim::sim::shrink {

namespace {

std::string range_text(std::size_t begin, std::size_t end) {
  std::string out = end - begin == 1 ? "fault " : "faults ";
  for (std::size_t i = begin; i < end; ++i) {
    out += (i == begin ? "" : ", ") + std::to_string(i);
  }
  return out;
}

Json with_faults(const Json& document, Json faults) {
  Json out = document;
  out["faults"] = std::move(faults);
  return out;
}

// Where a fault's window ends: at_ms + duration_ms, or never (it lasts to the end of the run).
std::int64_t window_end_ms(const Json& fault) {
  if (!fault.contains("duration_ms")) return std::numeric_limits<std::int64_t>::max();
  return fault["at_ms"].get<std::int64_t>() + fault["duration_ms"].get<std::int64_t>();
}

bool overlap(const Json& a, const Json& b) {
  return b["at_ms"].get<std::int64_t>() < window_end_ms(a) &&
         a["at_ms"].get<std::int64_t>() < window_end_ms(b);
}

// The fault without its window: two faults with equal ones have one kind and one target.
Json without_window(Json fault) {
  fault.erase("at_ms");
  fault.erase("duration_ms");
  return fault;
}

// One fault over the windows of `a` and `b` (which overlap), with `a`'s other fields.
Json merged(const Json& a, const Json& b) {
  Json out = a;
  const std::int64_t at = std::min(a["at_ms"].get<std::int64_t>(), b["at_ms"].get<std::int64_t>());
  const std::int64_t end = std::max(window_end_ms(a), window_end_ms(b));
  out["at_ms"] = at;
  if (end == std::numeric_limits<std::int64_t>::max()) {
    out.erase("duration_ms");
  } else {
    out["duration_ms"] = end - at;
  }
  return out;
}

// Tries merging each pair of faults (i, j) that may merge, the first kept ends the scan.
bool merge_one_pair(ShrinkSession& session) {
  const Json& faults = session.faults();
  for (std::size_t i = 0; i < faults.size(); ++i) {
    for (std::size_t j = i + 1; j < faults.size(); ++j) {
      if (session.budget_spent()) return false;
      const Json& a = faults[i];
      const Json& b = faults[j];
      if (!overlap(a, b) || without_window(a) != without_window(b)) continue;
      Json candidate = faults;
      candidate[i] = merged(a, b);
      candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(j));
      if (session.try_candidate(
              with_faults(session.document(), std::move(candidate)),
              "merge faults " + std::to_string(i) + " and " + std::to_string(j))) {
        return true;
      }
    }
  }
  return false;
}

// Tries, for each overlapping pair, starting the later fault (by at_ms, then position) where the
// earlier ends; the first kept ends the scan. An earlier fault that never ends cannot be left.
bool pull_one_pair_apart(ShrinkSession& session) {
  const Json& faults = session.faults();
  for (std::size_t i = 0; i < faults.size(); ++i) {
    for (std::size_t j = 0; j < faults.size(); ++j) {
      if (session.budget_spent()) return false;
      const std::int64_t at_i = faults[i]["at_ms"].get<std::int64_t>();
      const std::int64_t at_j = faults[j]["at_ms"].get<std::int64_t>();
      const bool i_first = at_i < at_j || (at_i == at_j && i < j);
      const std::int64_t end = window_end_ms(faults[i]);
      if (!i_first || !overlap(faults[i], faults[j]) ||
          end == std::numeric_limits<std::int64_t>::max()) {
        continue;
      }
      Json candidate = session.document();
      candidate["faults"][j]["at_ms"] = end;
      if (session.try_candidate(candidate, "faults[" + std::to_string(j) + "].at_ms " +
                                               std::to_string(at_j) + " -> " + std::to_string(end) +
                                               " (apart from faults[" + std::to_string(i) + "])")) {
        return true;
      }
    }
  }
  return false;
}

// The lowest `key` (at_ms or duration_ms) fault i may take with the faults it overlaps the same:
// a start no earlier than the end of a fault it comes after apart, nor than lets it end before a
// fault it overlaps starts; a duration no shorter than reaches the faults it overlaps that start
// later. The pulls keep the schedule's overlaps: pull_apart alone changes them.
std::int64_t floor_keeping_overlaps(const Json& faults, std::size_t i, const std::string& key) {
  const Json& fault = faults[i];
  const std::int64_t at = fault["at_ms"].get<std::int64_t>();
  const bool ends = fault.contains("duration_ms");
  std::int64_t floor = 0;
  for (std::size_t k = 0; k < faults.size(); ++k) {
    if (k == i) continue;
    const std::int64_t at_k = faults[k]["at_ms"].get<std::int64_t>();
    if (key == "duration_ms") {
      if (overlap(fault, faults[k]) && at_k > at) floor = std::max(floor, at_k - at + 1);
    } else if (overlap(fault, faults[k])) {
      if (ends) floor = std::max(floor, at_k - fault["duration_ms"].get<std::int64_t>() + 1);
    } else if (window_end_ms(faults[k]) <= at) {
      floor = std::max(floor, window_end_ms(faults[k]));
    }
  }
  return floor;
}

// Lowers a value from `fails` (the current scenario's, which fails) toward `holds` (assumed to
// hold): `propose(from, to)` the middle, each at least kShortestStepMs below the last value that
// failed, the interval halved whichever way it answers. True when a candidate was kept.
template <typename Propose>
bool bisect_down(ShrinkSession& session, std::int64_t fails, std::int64_t holds,
                 const Propose& propose) {
  bool changed = false;
  while (!session.budget_spent()) {
    const std::int64_t middle = holds + (fails - holds) / 2;
    if (fails - middle < kShortestStepMs) break;
    if (propose(fails, middle)) {
      fails = middle;
      changed = true;
    } else {
      holds = middle;
    }
  }
  return changed;
}

}  // namespace

bool drop_faults(ShrinkSession& session) {
  bool changed = false;
  std::size_t n = 2;
  while (!session.faults().empty() && !session.budget_spent()) {
    const Json& faults = session.faults();
    const std::size_t size = faults.size();
    n = std::min(n, size);
    bool reduced = false;
    for (std::size_t chunk = 0; chunk < n && !reduced; ++chunk) {
      const std::size_t begin = size * chunk / n;
      const std::size_t end = size * (chunk + 1) / n;
      Json complement = Json::array();
      for (std::size_t i = 0; i < size; ++i) {
        if (i < begin || i >= end) complement.push_back(faults[i]);
      }
      reduced = session.try_candidate(
          with_faults(session.document(), std::move(complement)),
          "drop " + range_text(begin, end) + " of " + std::to_string(size) + " faults");
    }
    changed = changed || reduced;
    if (reduced) {
      n = std::max<std::size_t>(n - 1, 2);
    } else if (n >= size) {
      break;
    } else {
      n = std::min(2 * n, size);
    }
  }
  return changed;
}

bool merge_overlapping_faults(ShrinkSession& session) {
  bool changed = false;
  while (merge_one_pair(session)) changed = true;
  return changed;
}

bool pull_apart(ShrinkSession& session) {
  bool changed = false;
  while (pull_one_pair_apart(session)) changed = true;
  return changed;
}

bool shift_schedule_earlier(ShrinkSession& session, std::int64_t earliest_start_ms) {
  if (session.faults().size() < 2) return false;  // one fault: lower_each pulls its start
  std::int64_t first = std::numeric_limits<std::int64_t>::max();
  for (const auto& fault : session.faults()) {
    first = std::min(first, fault["at_ms"].get<std::int64_t>());
  }
  const std::int64_t lowest = std::min(first, earliest_start_ms);
  return bisect_down(session, first, lowest, [&session](std::int64_t from, std::int64_t to) {
    Json candidate = session.document();
    for (auto& fault : candidate["faults"]) {
      fault["at_ms"] = fault["at_ms"].get<std::int64_t>() - (from - to);
    }
    return session.try_candidate(candidate, "every fault's at_ms " + std::to_string(to - from) +
                                                " (the first " + std::to_string(from) + " -> " +
                                                std::to_string(to) + ")");
  });
}

bool lower_each(ShrinkSession& session, const char* key, std::int64_t lowest) {
  bool changed = false;
  for (std::size_t i = 0; i < session.faults().size(); ++i) {
    if (!session.faults()[i].contains(key)) continue;
    const std::int64_t value = session.faults()[i][key].get<std::int64_t>();
    const std::int64_t floor =
        std::min(value, std::max(lowest, floor_keeping_overlaps(session.faults(), i, key)));
    changed = bisect_down(session, value, floor,
                          [&session, i, key](std::int64_t from, std::int64_t to) {
                            Json candidate = session.document();
                            candidate["faults"][i][key] = to;
                            return session.try_candidate(
                                candidate, "faults[" + std::to_string(i) + "]." + key + " " +
                                               std::to_string(from) + " -> " + std::to_string(to));
                          }) ||
              changed;
  }
  return changed;
}

}  // namespace nssim::sim::shrink

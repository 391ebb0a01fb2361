// File: the shrink passes over the faults (explore_shrink_passes.h): ddmin, merging overlaps,
// halving durations and starts.
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
      const bool overlap = b["at_ms"].get<std::int64_t>() < window_end_ms(a) &&
                           a["at_ms"].get<std::int64_t>() < window_end_ms(b);
      if (!overlap || without_window(a) != without_window(b)) continue;
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

bool halve_each(ShrinkSession& session, const char* key) {
  bool changed = false;
  for (std::size_t i = 0; i < session.faults().size(); ++i) {
    while (!session.budget_spent() && session.faults()[i].contains(key)) {
      const std::int64_t value = session.faults()[i][key].get<std::int64_t>();
      const std::int64_t half = value / 2;
      if (value - half < kShortestStepMs) break;
      Json candidate = session.document();
      candidate["faults"][i][key] = half;
      if (!session.try_candidate(candidate, "faults[" + std::to_string(i) + "]." + key + " " +
                                                std::to_string(value) + " -> " +
                                                std::to_string(half))) {
        break;
      }
      changed = true;
    }
  }
  return changed;
}

}  // namespace nssim::sim::shrink

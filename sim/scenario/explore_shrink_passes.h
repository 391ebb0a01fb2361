// File: the shrink passes of explore_shrink.h, each over one ShrinkSession: the faults' passes
// (explore_shrink.cpp) and the cluster's, counts and the run's length (explore_shrink_cluster.cpp).
// Every pass is deterministic and returns whether it kept a candidate.
#pragma once

#include "sim/scenario/explore_shrink.h"

namespace nssim::sim::shrink {

using Json = nlohmann::ordered_json;

// Durations, starts and the run's length are shortened down to steps of this, not finer: below a
// second the shrink would spend runs on differences a scenario author does not read.
inline constexpr std::int64_t kShortestStepMs = 1000;

// The current scenario and the budget: every pass proposes candidates through try_candidate.
class ShrinkSession {
 public:
  ShrinkSession(const Json& document, std::size_t max_runs, const StillFails& still_fails);

  // True when `candidate` was judged and still fails (it is then the current scenario).
  bool try_candidate(const Json& candidate, std::string change);

  const Json& document() const { return result_.document; }
  const Json& faults() const { return result_.document["faults"]; }
  bool budget_spent() const { return result_.budget_spent; }
  ShrinkResult take() { return std::move(result_); }

 private:
  std::size_t max_runs_;
  const StillFails& still_fails_;
  ShrinkResult result_;
};

// ddmin by complements over the faults: 1-minimal when it returns with budget left.
bool drop_faults(ShrinkSession& session);

// Two faults of one kind and target (equal but for at_ms and duration_ms) whose windows overlap
// become one over both windows.
bool merge_overlapping_faults(ShrinkSession& session);

// Halves `key` of each fault (durations, or starts toward 0) while the failure stays.
bool halve_each(ShrinkSession& session, const char* key);

// Fewer producer sets, producers, sends per second, broker groups, NameServers and topics, each
// only where no fault names what would go (the loader refuses the rest, at no run).
bool reduce_cluster(ShrinkSession& session);

// The run's duration_ms cut to the last heal plus `settle_ms` (rounded up to a second), or when
// that is too short to fail, the shortest found between it and the current length by bisection.
bool shorten_run(ShrinkSession& session, std::int64_t settle_ms);

}  // namespace nssim::sim::shrink

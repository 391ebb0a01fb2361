// File: the shrink passes of explore_shrink.h, each over one ShrinkSession: the faults' passes
// (explore_shrink_passes.cpp) and the cluster's, counts and the run's length
// (explore_shrink_cluster.cpp).
// Every pass is deterministic and returns whether it kept a candidate.
#pragma once

#include "sim/scenario/explore_shrink_session.h"

namespace nssim::sim::shrink {

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

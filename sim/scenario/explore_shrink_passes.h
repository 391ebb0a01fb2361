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

// For each pair of overlapping faults, the later started where the earlier ends (its duration
// kept), kept when the failure stays: whether the overlap matters shows in the steps.
bool pull_apart(ShrinkSession& session);

// Every fault's start moved earlier by one amount, so the schedule keeps its shape (which faults
// overlap, and by how much), bisected as lower_each does, the first start toward
// `earliest_start_ms` (a schedule that starts earlier stays). Two faults or more: one fault's
// start is lower_each's.
bool shift_schedule_earlier(ShrinkSession& session, std::int64_t earliest_start_ms);

// Lowers `key` of each fault (durations shorter, or starts earlier) to the lowest value that
// still fails, to kShortestStepMs: halved toward the lowest it may take (`lowest`, or higher
// where that keeps the faults it overlaps the same; a value already below it stays), then
// bisected between the last value that held and the last that failed. The failure is not assumed
// monotone in the value: bisection finds one such value, not necessarily the lowest of all.
bool lower_each(ShrinkSession& session, const char* key, std::int64_t lowest);

// Fewer producer sets, producers, sends per second, broker groups, NameServers and topics, each
// only where no fault names what would go (the loader refuses the rest, at no run).
bool reduce_cluster(ShrinkSession& session);

// The run's duration_ms cut to the last heal plus `settle_ms` (rounded up to a second), or when
// that is too short to fail, the shortest found between it and the current length by bisection.
bool shorten_run(ShrinkSession& session, std::int64_t settle_ms);

}  // namespace nssim::sim::shrink

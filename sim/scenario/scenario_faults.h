// File: the scenario sections that refer to nodes by name (internal to the loader): the fault
// timeline, whose targets resolve against the topology already read, and the expectations.
#pragma once

#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_json.h"

namespace nssim::sim::detail {

// Longest run, and longest single time span anywhere in a file: 7 days.
inline constexpr std::int64_t kMaxRunMs = 7LL * 24 * 3600 * 1000;
// Queue counts a topic may have; a simulator limit, Java has none.
inline constexpr std::int64_t kMaxQueueNums = 1024;
// Most seeds a sweep block may ask for by default; the command line may ask for more.
inline constexpr std::int64_t kMaxSweepSeeds = 1000000;

// Reads root "faults" into scenario.faults, resolved and sorted by at_ms (stable). Needs the
// name, duration and topology of `scenario` already read.
void read_faults(const Obj& root, Scenario& scenario);
// Reads root "expect" into scenario.expect, and root "sweep" (seeds, expectations over seeds)
// into scenario.sweep.
void read_expectations(const Obj& root, Scenario& scenario);

}  // namespace nssim::sim::detail

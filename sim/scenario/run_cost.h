// File: what a run will cost, estimated from the scenario before the world starts, so that a
// scenario the loader accepts but no machine can run (100,000 topics at 100,000 sends/s, 10,000
// broker groups' registration storm) is refused in one line instead of taking the machine down.
//
// The model is fitted to runs measured on the 2-core reference machine (docs/performance.md, "The
// cost estimate"): the figures it prints are within a factor of 3 of those runs, mostly high
// (memory up to 6 % low). What it counts:
// - sends: per producer set, count x rate x the seconds from its earliest start to the end;
// - route polls: per producer, its topics x one per pollNameServerInterval;
// - registrations: every broker, to each of its NameServers, once per registerNameServerPeriod;
// - per broker: memory, and CPU per registration (10,000 groups of master and slave with 3
//   NameServers for 10 minutes under 4.9: 0.8 GB, 88 s);
// - 5.x refreshMetadata: every broker asks a NameServer for the whole cluster info every 5 s,
//   an answer that lists every group, so CPU grows with brokers x groups; and its bytes per
//   second, as a share of a NameServer's link (refresh_link_load). Above 1 the links cannot
//   carry the answers: transfers pile up without bound, and so does the run's cost (4,000 groups
//   with 1 Gbps NameServers: more than 10 minutes of CPU for one simulated minute);
// - topics: per group serving each (tables, recorded routes) and per producer using each;
// - the time series: a row per second with a count per broker group that takes sends.
#pragma once

#include <cstdint>
#include <string>

#include "sim/scenario/scenario.h"

namespace nssim::sim {

struct RunCost {
  double sends = 0;
  double route_polls = 0;
  double registrations = 0;
  double memory_bytes = 0;  // peak resident memory
  double cpu_seconds = 0;   // on the reference machine
  // 5.x refreshMetadata's answer bytes per second asked of each NameServer, over its link's
  // bandwidth (0 under 4.9).
  double refresh_link_load = 0;
};

RunCost estimate_run_cost(const Scenario& scenario);

// Defaults of --memory-limit and --cpu-limit: a run estimated above either is refused. 8 GiB
// leaves room for `check -j 2` on a 24 GiB machine; an hour is longer than any shipped scenario
// by 100 times.
inline constexpr std::uint64_t kDefaultMemoryLimitBytes = std::uint64_t{8} << 30;
inline constexpr std::uint64_t kDefaultCpuLimitSeconds = 3600;

// "1.2 M sends, 3.4 k route polls, 120 k registrations, 640 MiB, 12 s": the start line's estimate.
std::string run_cost_text(const RunCost& cost);

}  // namespace nssim::sim

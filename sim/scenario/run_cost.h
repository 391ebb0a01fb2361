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
// - the time series: a row per second with a count per broker group that takes sends;
// - consumers (sim/consumer): per consumer its instance's memory and its scheduler's and long
//   polls' events over its seconds; per group the NOTIFY_CONSUMER_IDS_CHANGED storm of its
//   joins (every broker address of its topics tells every member of every new member: members
//   squared x addresses); per message of a subscribed topic its store time and its deliveries.
#pragma once

#include <cstddef>
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

// A sweep's (or a suite's) whole cost: its runs' estimates added up, as `nssim sweep`,
// `compare --seeds` and `check` print it before the first run.
struct TotalCost {
  std::uint64_t runs = 0;
  double cpu_seconds = 0;       // every run's together
  double run_cpu_seconds = 0;   // the longest run's
  double run_memory_bytes = 0;  // the largest run's peak
  bool uniform = true;          // every run has the same estimate
};

void add_runs(TotalCost& total, const RunCost& cost, std::uint64_t count);

// Default of --total-cpu-limit: one CPU-day. A sweep that needs more than a day of a core is one
// to spread over a cluster on purpose (--slurm), not to start by a typo in --seeds; the shipped
// suite (`nssim check scenarios`) needs a few minutes.
inline constexpr std::uint64_t kDefaultTotalCpuLimitSeconds = 24 * 3600;

// "200 runs x (0.1 s, 67 MiB) = 20 s CPU, 10 s wall at -j 2"; "up to" before the per-run
// figures when the runs differ (a grid, or check's scenarios). The wall time assumes the runs
// spread evenly over the jobs and is never below the longest run.
std::string total_cost_text(const TotalCost& total, std::size_t jobs);

}  // namespace nssim::sim

// File: what `nssim sweep` is asked to run, checked before anything runs: the seeds, the grid of
// settings (every point's scenario loaded and validated once), the shard, and the plan that
// sweep.json and shard files describe. Every problem is a Refusal (refusal.h): one line, exit 2.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cli/refusal.h"
#include "cli/shard_files.h"
#include "reports/sweep/sweep_document.h"
#include "sim/scenario/scenario.h"

namespace nssim::cli {

// The flags of `nssim sweep` that shape the runs (not the Slurm ones).
struct SweepOptions {
  std::string scenario;
  std::string seeds;              // "N" (1..N) or "A..B"; empty: the scenario's sweep.seeds, or 100
  std::vector<std::string> grid;  // "PATH=V1,V2,..."; PATH may be "profile"
  std::vector<std::string> set;
  std::string profile;
  std::string shard;  // "I/K", or empty
};

// Seeds a sweep runs when neither the command line nor the scenario says.
inline constexpr std::uint64_t kDefaultSweepSeeds = 100;

// Runs one sweep may hold: its records stay in memory until the documents are written.
inline constexpr std::uint64_t kMaxSweepRuns = 10000000;
struct LoadedSweep {
  reports::SweepPlan plan;
  std::vector<sim::Scenario> scenarios;  // one per point, seed still the file's
  std::optional<ShardRange> shard;
  std::uint64_t scenario_fnv1a64 = 0;  // of the scenario file's bytes, for merges
};

LoadedSweep load_sweep(const SweepOptions& options, const std::string& nssim_version);

// True when the plan holds 1..kMaxSweepRuns runs (its seed count, last - first + 1, wraps to 0
// for seeds 0..2^64-1).
inline bool plan_fits(const reports::SweepPlan& plan) {
  return !plan.points.empty() && plan.seed_count() != 0 &&
         plan.seed_count() <= kMaxSweepRuns / plan.points.size();
}

// The run's point and seed.
inline std::size_t point_of_run(const reports::SweepPlan& plan, std::size_t run) {
  return run / static_cast<std::size_t>(plan.seed_count());
}
inline std::uint64_t seed_of_run(const reports::SweepPlan& plan, std::size_t run) {
  return plan.first_seed + run % plan.seed_count();
}

// The arguments after "nssim sweep" that make the same plan (scenario, --seeds A..B, --profile,
// --set, --grid), for shard tasks and messages.
std::vector<std::string> plan_arguments(const SweepOptions& options,
                                        const reports::SweepPlan& plan);

}  // namespace nssim::cli

// File: the pieces of `nssim explore` shared by its files: the command's options, the explore as
// loaded, one drawn run's record, the output folder and the finish every path ends in (shrink,
// explore.json, the counterexamples: explore_results.cpp), and the shards' paths back to it
// (`explore merge` and `--slurm`: explore_merge.cpp).
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/cost_limits.h"
#include "cli/explore/explore_candidates.h"
#include "cli/explore/explore_shards.h"
#include "cli/posix/staged_folder.h"
#include "cli/slurm_jobs.h"
#include "sim/scenario/explore_draw.h"
#include "sim/scenario/explore_shrink.h"
#include "sim/scenario/scenario.h"

namespace nssim::cli {

// Runs one explore may draw: its records stay in memory until explore.json is written.
inline constexpr std::uint64_t kMaxExploreRuns = 10000000;

struct ExploreOptions {
  std::string scenario;
  std::size_t runs = 100;
  bool runs_given = false;  // --runs on the command line (with --for: the most runs)
  std::string for_text;     // --for: a time budget, "10m"
  std::string shard;        // --shard I/K
  std::size_t jobs = 0;
  std::size_t shrink_runs = sim::kDefaultShrinkRuns;
  std::string out;
  std::string profile;
  CostLimits limits;
  std::optional<std::uint64_t> total_cpu_limit;
  SlurmOptions slurm;
};

struct LoadedExplore {
  sim::Scenario scenario;           // validated, with its explore block
  nlohmann::ordered_json document;  // the file's JSON (with --profile), for the candidates
};

// The scenario of --profile and the SCENARIO file, which must hold an explore block.
LoadedExplore load_explore(const ExploreOptions& options);

// One drawn run: its seed, the kinds its swarm draw enabled, its schedule and what it broke.
struct RunRecord {
  std::uint64_t seed = 0;
  sim::ExploreDraw draw;
  CandidateVerdict verdict;
};

// What the explore's shards must agree on (explore_shards.h), from its options.
ExploreIdentity identity_of(const ExploreOptions& options);

// explore.json and counterexamples/ as one group of `dir`; shards/, slurm/ and explore.sbatch
// (of --shard and --slurm runs) and a parent's stdout.txt and stderr.txt kept across the swap.
StagedFolder prepare_explore_folder(const std::string& dir);

// Shrinks the first run that broke each property, writes explore.json and the counterexamples
// into `staged` and names them on stdout. Returns the exit code.
int finish_explore(const LoadedExplore& loaded, const std::vector<RunRecord>& records,
                   const std::string& for_text, std::size_t shrink_runs, StagedFolder& staged,
                   const std::string& dir);

// explore_merge.cpp: `nssim explore merge DIR... [--out DIR]`.
void add_explore_merge_command(CLI::App& explore, int& exit_code);

// explore_merge.cpp: the explore's runs as a Slurm job array of --shard runs, merged and finished
// into `dir` as `nssim explore` without Slurm would.
int run_explore_on_slurm(const ExploreOptions& options, const LoadedExplore& loaded,
                         const std::string& dir);

}  // namespace nssim::cli

// File: the pieces of `nssim sweep` shared by its files: the command's options, running a range
// of the plan's runs in forked children, and writing the sweep's documents as one group.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/cost_limits.h"
#include "cli/posix/staged_folder.h"
#include "cli/slurm_jobs.h"
#include "cli/sweep/sweep_plan.h"

namespace nssim::cli {

struct SweepCommandOptions {
  SweepOptions sweep;
  CostLimits limits;  // each run's, with -j runs at once sharing the memory limit
  std::optional<std::uint64_t> total_cpu_limit;  // all the runs'
  std::size_t jobs = 0;                          // 0: one per core
  std::string out;
  SlurmOptions slurm;
};

// Runs [range.first_run, range.end_run) of the plan, `jobs` at a time, each a fork that runs
// one seed. Returns the records in run order; a Refusal names the first run that failed and its
// command.
std::vector<reports::SeedRecord> run_sweep_range(const LoadedSweep& sweep, const ShardRange& range,
                                                 std::size_t jobs);

// Adds the estimated cost of runs [range.first_run, range.end_run) of the plan to `total`, each
// point's runs at its scenario's estimate.
void add_sweep_cost(sim::TotalCost& total, const LoadedSweep& sweep, const ShardRange& range);

// Writes a shard's file (`content`) into DIR/shards and names it on stdout with its runs of
// `runs`: sweep's and explore's --shard. Returns the exit code, 0.
int write_shard(const std::string& dir, const ShardRange& range, std::size_t runs,
                const std::string& content);

// Runs at a time when -j is not given: one per core.
std::size_t default_jobs();

// The folder `dir` staged for a sweep's documents, checked before any run (StagedFolder::prepare,
// its refusal naming `command`). Kept across the swap: shards/, slurm/ and sweep.sbatch (of
// --shard and --slurm runs), a parent's stdout.txt and stderr.txt (check's sweep child), and
// `more_kept`.
StagedFolder prepare_sweep_folder(const std::string& command, const std::string& dir,
                                  const std::set<std::string>& more_kept = {});

// Builds sweep.json from the plan and every run's record and commits it with its renderings as
// the group of `folder` (a Refusal when it cannot). Returns the document.
nlohmann::json write_sweep_documents(StagedFolder& folder, const reports::SweepPlan& plan,
                                     const std::vector<reports::SeedRecord>& records);

// write_sweep_documents, then the summary on stdout naming the files in `dir`. Returns the exit
// code: 0 pass (or no sweep expectations), 1 a sweep expectation failed.
int write_sweep(StagedFolder& folder, const std::string& dir, const reports::SweepPlan& plan,
                const std::vector<reports::SeedRecord>& records);

// sweep_slurm.cpp: the --slurm path (write the job-array script, submit, wait, merge).
int run_sweep_on_slurm(const SweepCommandOptions& options, const LoadedSweep& sweep,
                       const std::string& dir);

}  // namespace nssim::cli

// File: a batch of shard runs as a Slurm job array, whatever the runs are (`nssim sweep`'s
// seeds, `nssim explore`'s drawn schedules): the --slurm flags, the job script (one array task
// per shard, each the command's own `--shard I/K` run), its submission with sbatch, the wait with
// squeue while the shard files arrive, and the refusal naming each shard that did not finish.
// Each command describes its work (SlurmWork) and merges the shards itself
// (docs/sweep-clusters.md#slurm).
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace nssim::cli {

struct SlurmOptions {
  bool enabled = false;
  std::size_t tasks = 0;  // 0: one task per 25 runs, from 1 to 16
  std::string partition;
  std::vector<std::string> args;  // extra #SBATCH lines
  bool dry_run = false;
};

// --slurm, --slurm-tasks, --slurm-partition, --slurm-arg and --slurm-dry-run.
void add_slurm_options(CLI::App& command, SlurmOptions& slurm);

// A Refusal when a --slurm-* flag is given without --slurm.
void check_slurm_flags(const SlurmOptions& slurm);

// A Refusal when the work cannot go to Slurm at all: `sharded` (--shard was given: a task's
// flag), or sbatch or squeue missing from PATH (unless --slurm-dry-run).
void check_slurm_usable(const SlurmOptions& slurm, bool sharded);

// The array's tasks, one shard each: --slurm-tasks, else one per 25 of `runs`, from 1 to 16.
std::size_t slurm_task_count(const SlurmOptions& slurm, std::size_t runs);

// What the array runs: `nssim <command> <arguments...> -j J --shard I/<shards> --out DIR` per
// task, into DIR/shards/shard-I-of-<shards>.json.
struct SlurmWork {
  std::string command;  // "sweep", "explore": also the script's name, DIR/<command>.sbatch
  std::string name;     // the scenario's name, in the job's
  std::vector<std::string> arguments;  // the command's own, but -j, --shard and --out
  std::size_t jobs = 0;                // -j of each task (its --cpus-per-task); 0: 1
  std::size_t shards = 1;
  // Whether the file at `path` is a finished shard of this work (a torn or foreign one is not).
  std::function<bool(const std::string& path)> finished;
  // What shard I covers, for the refusal naming it: "runs 0..25 (seeds 1..25)".
  std::function<std::string(std::size_t shard)> covers;
};

// --out as the tasks on other nodes see it: absolute, normalised.
std::string slurm_folder(const std::string& out);

// Writes DIR/<command>.sbatch for the shards not finished yet (so a rerun resubmits only what
// failed), submits it and waits for the job; then every shard is finished (true), or a Refusal
// names those that are not with their logs. With --slurm-dry-run, only the script is written
// (false). `dir` is a slurm_folder.
bool run_slurm_job(const SlurmOptions& slurm, const SlurmWork& work, const std::string& dir);

}  // namespace nssim::cli

// File: `nssim sweep ... --slurm`: the sweep as a Slurm job array, one task per shard. It writes
// DIR/sweep.sbatch, submits only the shards whose files are not there yet (so a rerun resubmits
// what failed), waits with squeue, names each shard that did not finish by its seed range, and
// merges. The output folder and this executable must be at the same paths on every node.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "cli/commands.h"
#include "cli/posix/output_dir.h"
#include "cli/rate_progress.h"
#include "cli/refusal.h"
#include "cli/sweep/sweep_command.h"
#include "cli/sweep/sweep_shards.h"
#include "sim/scenario/repeat_command.h"

extern char** environ;

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;

// How often squeue is asked, and how many failed asks in a row end the wait.
constexpr auto kPollInterval = std::chrono::seconds(2);
constexpr int kMaxFailedPolls = 30;

// Runs a program found in PATH with its stdout and stderr captured in `output`; returns its exit
// code (-1: it could not start or was killed).
int capture(const std::vector<std::string>& args, std::string& output) {
  int fds[2];
  if (::pipe(fds) != 0) return -1;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, fds[1], STDERR_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  std::vector<std::string> storage = args;
  std::vector<char*> argv;
  for (auto& arg : storage) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[1]);
  output.clear();
  char buffer[4096];
  ssize_t n = 0;
  while (spawned == 0 &&
         ((n = ::read(fds[0], buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))) {
    if (n > 0) output.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(fds[0]);
  if (spawned != 0) return -1;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool in_path(const std::string& program) {
  const char* path = std::getenv("PATH");
  std::string dirs = path == nullptr ? "" : path;
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start)) / program;
    if (::access(candidate.c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

std::size_t task_count(const SlurmOptions& slurm, std::size_t runs) {
  if (slurm.tasks != 0) return slurm.tasks;
  return std::clamp<std::size_t>((runs + 24) / 25, 1, 16);
}

// "1-4" or "2,5,7": the array indices of the shards still to run.
std::string array_spec(const std::vector<std::size_t>& shards, std::size_t count) {
  if (shards.size() == count) return "1-" + std::to_string(count);
  std::string spec;
  for (const std::size_t shard : shards) spec += (spec.empty() ? "" : ",") + std::to_string(shard);
  return spec;
}

// The shards of `count` with no valid file of this plan in `dir` yet.
std::vector<std::size_t> missing_shards(const LoadedSweep& sweep, const std::string& dir,
                                        std::size_t count) {
  const nlohmann::json identity = shard_identity(sweep);
  std::vector<std::size_t> missing;
  for (std::size_t shard = 1; shard <= count; ++shard) {
    const std::string path = shard_path(dir, shard, count);
    bool present = false;
    if (fs::exists(path)) {
      try {
        present = read_shard_file(path).identity == identity;
      } catch (const Refusal&) {
        present = false;  // a torn or foreign file: run the shard again
      }
    }
    if (!present) missing.push_back(shard);
  }
  return missing;
}

std::string job_script(const SweepCommandOptions& options, const LoadedSweep& sweep,
                       const std::string& dir, std::size_t count,
                       const std::vector<std::size_t>& shards) {
  const std::string name = sweep.plan.scenario["name"].get<std::string>();
  std::string script =
      "#!/bin/bash\n"
      "# Written by nssim sweep --slurm: one array task per shard of the sweep below; each\n"
      "# writes DIR/shards/shard-I-of-" +
      std::to_string(count) +
      ".json, and nssim merges them.\n"
      "#SBATCH --job-name=" +
      sim::shell_word("nssim-sweep-" + name) +
      "\n"
      "#SBATCH --array=" +
      array_spec(shards, count) +
      "\n"
      "#SBATCH --cpus-per-task=" +
      std::to_string(options.jobs == 0 ? 1 : options.jobs) +
      "\n"
      "#SBATCH --chdir=" +
      sim::shell_word(fs::current_path().string()) +
      "\n"
      "#SBATCH --output=" +
      sim::shell_word(dir + "/slurm/slurm-%A_%a.out") + "\n";
  if (!options.slurm.partition.empty()) {
    script += "#SBATCH --partition=" + sim::shell_word(options.slurm.partition) + "\n";
  }
  for (const auto& arg : options.slurm.args) script += "#SBATCH " + arg + "\n";
  script += "set -euo pipefail\nexec " +
            sim::shell_word(fs::read_symlink("/proc/self/exe").string()) + " sweep";
  for (const auto& arg : plan_arguments(options.sweep, sweep.plan))
    script += " " + sim::shell_word(arg);
  if (options.limits.memory) script += " --memory-limit " + sim::shell_word(*options.limits.memory);
  if (options.limits.cpu_seconds) {
    script += " --cpu-limit " + std::to_string(*options.limits.cpu_seconds);
  }
  script += " -j \"${SLURM_CPUS_PER_TASK:-1}\" --shard \"${SLURM_ARRAY_TASK_ID}/" +
            std::to_string(count) + "\" --out " + sim::shell_word(dir) + "\n";
  return script;
}

// How many of the submitted shards have a file: for the progress line only, so the files are not
// read (missing_shards validates them once the job has ended).
std::size_t shards_arrived(const std::vector<std::size_t>& shards, const std::string& dir,
                           std::size_t count) {
  std::size_t arrived = 0;
  std::error_code ignored;
  for (const std::size_t shard : shards) {
    arrived += fs::exists(shard_path(dir, shard, count), ignored) ? 1 : 0;
  }
  return arrived;
}

// Waits until squeue no longer lists the job, showing shard files as they appear.
void wait_for_job(const std::string& job, const std::vector<std::size_t>& shards,
                  const std::string& dir, std::size_t count) {
  RateProgress progress(std::cout, ::isatty(STDOUT_FILENO) != 0, shards.size(), "shards");
  int failed_polls = 0;
  while (true) {
    std::string output;
    const int code = capture({"squeue", "-h", "-r", "-j", job, "-o", "%K %T"}, output);
    const bool gone = (code == 0 && output.find_first_not_of(" \n") == std::string::npos) ||
                      output.find("Invalid job id") != std::string::npos;
    if (gone) break;
    failed_polls = code == 0 ? 0 : failed_polls + 1;
    if (failed_polls >= kMaxFailedPolls) {
      progress.clear();
      throw Refusal{"squeue kept failing: " + output.substr(0, output.find('\n'))};
    }
    progress.update(shards_arrived(shards, dir, count));
    std::this_thread::sleep_for(kPollInterval);
  }
  progress.clear();
}

std::string describe_missing(const LoadedSweep& sweep, const std::string& dir,
                             const std::vector<std::size_t>& missing, std::size_t count,
                             const std::string& job) {
  std::string text;
  for (const std::size_t shard : missing) {
    const ShardRange range = shard_range(shard, count, sweep.plan.run_count());
    text += "\n  shard " + std::to_string(shard) + "/" + std::to_string(count) + ": runs " +
            std::to_string(range.first_run) + ".." + std::to_string(range.end_run);
    if (range.end_run > range.first_run) {
      text += " (seeds " + std::to_string(seed_of_run(sweep.plan, range.first_run)) + ".." +
              std::to_string(seed_of_run(sweep.plan, range.end_run - 1)) + ")";
    }
    text += ", log " + dir + "/slurm/slurm-" + job + "_" + std::to_string(shard) + ".out";
  }
  return text;
}

// A Refusal when the sweep cannot go to Slurm at all, before --out is looked at.
void check_slurm_usable(const SweepCommandOptions& options, const LoadedSweep& sweep) {
  if (sweep.shard) throw Refusal{"--shard is for one task; --slurm makes the shards itself"};
  if (!options.slurm.dry_run) {
    for (const char* program : {"sbatch", "squeue"}) {
      if (!in_path(program)) throw Refusal{std::string(program) + " not found in PATH"};
    }
  }
}

// Submits the shards still missing, waits for them and merges every shard; nullopt after a dry
// run. Its Refusals are about the job, so they name --slurm.
std::optional<MergedSweep> run_shards(const SweepCommandOptions& options, const LoadedSweep& sweep,
                                      const std::string& out) {
  const std::string dir = fs::absolute(out).lexically_normal().string();
  const std::size_t count = task_count(options.slurm, sweep.plan.run_count());
  for (const std::string& folder : {dir, dir + "/shards", dir + "/slurm"}) {
    in_context("--out: ", [&] { make_output_dir(folder); });
  }
  const auto missing = missing_shards(sweep, dir, count);
  if (!missing.empty()) {
    write_file_atomically(dir, "sweep.sbatch", job_script(options, sweep, dir, count, missing));
    std::cout << "job script: " << dir << "/sweep.sbatch (" << missing.size() << " of " << count
              << " shards)" << std::endl;
    if (options.slurm.dry_run) return std::nullopt;
    std::string job;
    if (capture({"sbatch", "--parsable", dir + "/sweep.sbatch"}, job) != 0) {
      throw Refusal{"sbatch failed: " + job.substr(0, job.find('\n'))};
    }
    job = job.substr(0, job.find_first_of(";\n"));
    std::cout << "submitted job " << job << std::endl;
    wait_for_job(job, missing, dir, count);
    const auto left = missing_shards(sweep, dir, count);
    if (!left.empty()) {
      throw Refusal{std::to_string(left.size()) + " of " + std::to_string(count) +
                    " shards did not finish:" + describe_missing(sweep, dir, left, count, job) +
                    "\nrun the same command again to resubmit only these"};
    }
  } else if (options.slurm.dry_run) {
    std::cout << "every shard is there already: nothing to submit" << std::endl;
    return std::nullopt;
  }
  std::vector<ShardFile> shards;
  for (std::size_t shard = 1; shard <= count; ++shard) {
    shards.push_back(read_shard_file(shard_path(dir, shard, count)));
  }
  return merge_shards(std::move(shards));
}

}  // namespace

int run_sweep_on_slurm(const SweepCommandOptions& options, const LoadedSweep& sweep,
                       const std::string& out) {
  in_context("--slurm: ", [&] { check_slurm_usable(options, sweep); });
  // Checked before anything is submitted; the merge swaps the documents in with shards/, slurm/
  // and sweep.sbatch kept.
  StagedFolder staged = in_context("--out: ", [&] { return prepare_sweep_folder("sweep", out); });
  const auto merged = in_context("--slurm: ", [&] { return run_shards(options, sweep, out); });
  if (!merged) return 0;
  return write_sweep(staged, out, merged->plan, merged->records);
}

}  // namespace nssim::cli

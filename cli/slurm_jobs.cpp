// File: the Slurm job array of slurm_jobs.h. The output folder and this executable must be at
// the same paths on every node; the shard files are the durable answer (a shard whose file is
// missing did not finish, whatever the scheduler says).
#include "cli/slurm_jobs.h"

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
#include <thread>

#include "cli/flag_checks.h"
#include "cli/posix/output_dir.h"
#include "cli/rate_progress.h"
#include "cli/refusal.h"
#include "cli/shard_files.h"
#include "sim/scenario/repeat_command.h"

extern char** environ;

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;

// Slurm's own ceiling of MaxArraySize (slurm.conf): no cluster runs a larger array.
constexpr std::uint64_t kMaxSlurmTasks = 4000001;

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

// "1-4" or "2,5,7": the array indices of the shards still to run.
std::string array_spec(const std::vector<std::size_t>& shards, std::size_t count) {
  if (shards.size() == count) return "1-" + std::to_string(count);
  std::string spec;
  for (const std::size_t shard : shards) spec += (spec.empty() ? "" : ",") + std::to_string(shard);
  return spec;
}

// The shards of the work with no finished file in `dir` yet.
std::vector<std::size_t> missing_shards(const SlurmWork& work, const std::string& dir) {
  std::vector<std::size_t> missing;
  for (std::size_t shard = 1; shard <= work.shards; ++shard) {
    const std::string path = shard_path(dir, shard, work.shards);
    bool present = false;
    if (fs::exists(path)) {
      try {
        present = work.finished(path);
      } catch (const Refusal&) {
        present = false;  // a torn or foreign file: run the shard again
      }
    }
    if (!present) missing.push_back(shard);
  }
  return missing;
}

std::string job_script(const SlurmOptions& slurm, const SlurmWork& work, const std::string& dir,
                       const std::vector<std::size_t>& shards) {
  const std::string count = std::to_string(work.shards);
  std::string script =
      "#!/bin/bash\n"
      "# Written by nssim " +
      work.command + " --slurm: one array task per shard of the " + work.command +
      " below; each\n"
      "# writes DIR/shards/shard-I-of-" +
      count +
      ".json, and nssim merges them.\n"
      "#SBATCH --job-name=" +
      sim::shell_word("nssim-" + work.command + "-" + work.name) +
      "\n"
      "#SBATCH --array=" +
      array_spec(shards, work.shards) +
      "\n"
      "#SBATCH --cpus-per-task=" +
      std::to_string(work.jobs == 0 ? 1 : work.jobs) +
      "\n"
      "#SBATCH --chdir=" +
      sim::shell_word(fs::current_path().string()) +
      "\n"
      "#SBATCH --output=" +
      sim::shell_word(dir + "/slurm/slurm-%A_%a.out") + "\n";
  if (!slurm.partition.empty()) {
    script += "#SBATCH --partition=" + sim::shell_word(slurm.partition) + "\n";
  }
  for (const auto& arg : slurm.args) script += "#SBATCH " + arg + "\n";
  script += "set -euo pipefail\nexec " +
            sim::shell_word(fs::read_symlink("/proc/self/exe").string()) + " " + work.command;
  for (const auto& arg : work.arguments) script += " " + sim::shell_word(arg);
  script += " -j \"${SLURM_CPUS_PER_TASK:-1}\" --shard \"${SLURM_ARRAY_TASK_ID}/" + count +
            "\" --out " + sim::shell_word(dir) + "\n";
  return script;
}

// How many of the submitted shards have a file: for the progress line only, so the files are not
// read (missing_shards checks them once the job has ended).
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

std::string describe_missing(const SlurmWork& work, const std::string& dir,
                             const std::vector<std::size_t>& missing, const std::string& job) {
  std::string text;
  for (const std::size_t shard : missing) {
    text += "\n  shard " + std::to_string(shard) + "/" + std::to_string(work.shards) + ": " +
            work.covers(shard) + ", log " + dir + "/slurm/slurm-" + job + "_" +
            std::to_string(shard) + ".out";
  }
  return text;
}

}  // namespace

void add_slurm_options(CLI::App& command, SlurmOptions& slurm) {
  command.add_flag("--slurm", slurm.enabled, "Run the shards as a Slurm job array, then merge");
  command.add_option("--slurm-tasks", slurm.tasks, "Array tasks (shards) for --slurm")
      ->check(whole_number(1, kMaxSlurmTasks));
  command.add_option("--slurm-partition", slurm.partition, "Partition for --slurm")
      ->check(non_empty_text());
  command.add_option("--slurm-arg", slurm.args, "Extra #SBATCH line for --slurm (repeat)")
      ->allow_extra_args(false)
      ->check(non_empty_text());
  command.add_flag("--slurm-dry-run", slurm.dry_run, "With --slurm: only write the job script");
}

void check_slurm_flags(const SlurmOptions& slurm) {
  if (!slurm.enabled &&
      (slurm.tasks != 0 || !slurm.partition.empty() || !slurm.args.empty() || slurm.dry_run)) {
    throw Refusal{"--slurm-tasks, --slurm-partition, --slurm-arg and --slurm-dry-run need --slurm"};
  }
}

void check_slurm_usable(const SlurmOptions& slurm, bool sharded) {
  if (sharded) throw Refusal{"--shard is for one task; --slurm makes the shards itself"};
  if (!slurm.dry_run) {
    for (const char* program : {"sbatch", "squeue"}) {
      if (!in_path(program)) throw Refusal{std::string(program) + " not found in PATH"};
    }
  }
}

std::size_t slurm_task_count(const SlurmOptions& slurm, std::size_t runs) {
  if (slurm.tasks != 0) return slurm.tasks;
  return std::clamp<std::size_t>((runs + 24) / 25, 1, 16);
}

std::string slurm_folder(const std::string& out) {
  return fs::absolute(out).lexically_normal().string();
}

bool run_slurm_job(const SlurmOptions& slurm, const SlurmWork& work, const std::string& dir) {
  for (const std::string& folder : {dir, dir + "/shards", dir + "/slurm"}) {
    in_context("--out: ", [&] { make_output_dir(folder); });
  }
  const auto missing = missing_shards(work, dir);
  if (missing.empty()) {
    if (!slurm.dry_run) return true;
    std::cout << "every shard is there already: nothing to submit" << std::endl;
    return false;
  }
  const std::string script = work.command + ".sbatch";
  write_file_atomically(dir, script, job_script(slurm, work, dir, missing));
  std::cout << "job script: " << dir << "/" << script << " (" << missing.size() << " of "
            << work.shards << " shards)" << std::endl;
  if (slurm.dry_run) return false;
  std::string job;
  if (capture({"sbatch", "--parsable", dir + "/" + script}, job) != 0) {
    throw Refusal{"sbatch failed: " + job.substr(0, job.find('\n'))};
  }
  job = job.substr(0, job.find_first_of(";\n"));
  std::cout << "submitted job " << job << std::endl;
  wait_for_job(job, missing, dir, work.shards);
  const auto left = missing_shards(work, dir);
  if (!left.empty()) {
    throw Refusal{std::to_string(left.size()) + " of " + std::to_string(work.shards) +
                  " shards did not finish:" + describe_missing(work, dir, left, job) +
                  "\nrun the same command again to resubmit only these"};
  }
  return true;
}

}  // namespace nssim::cli

// File: an explore's shards put back together (explore_command.h): `nssim explore merge DIR...`
// on shard files run anywhere, and `nssim explore --slurm`, which runs the shards as a Slurm job
// array (cli/slurm_jobs.h) first. Either way each run's schedule is drawn again from its seed
// and the explore finishes as an unsharded one does, to the same bytes.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/explore/explore_command.h"
#include "cli/flag_checks.h"
#include "cli/refusal.h"
#include "cli/shard_files.h"

namespace nssim::cli {

namespace {

struct MergeOptions {
  std::vector<std::string> dirs;
  std::string out;
};

// The shard files read from `paths`, checked to be one explore and every run of it.
MergedExplore read_and_merge(const std::vector<std::string>& paths) {
  std::vector<ExploreShard> shards;
  for (const auto& path : paths) shards.push_back(read_explore_shard(path, kMaxExploreRuns));
  return merge_explore_shards(shards);
}

// The merged runs as records of `loaded`: each run's seed checked against the one the explore
// gives it, its broken properties against the scenario's, its schedule drawn again.
std::vector<RunRecord> merged_records(const LoadedExplore& loaded, const MergedExplore& merged) {
  const auto names = property_names(loaded.scenario.expect.size());
  std::vector<RunRecord> records(merged.runs.size());
  for (std::size_t i = 0; i < records.size(); ++i) {
    records[i].seed = sim::explore_run_seed(loaded.scenario.seed, i);
    if (merged.runs[i].seed != records[i].seed) {
      throw Refusal{merged.sources[i] + ".seed: expected " + std::to_string(records[i].seed) +
                    " (run " + std::to_string(i) + " of the explore), got " +
                    std::to_string(merged.runs[i].seed)};
    }
    for (const auto& property : merged.runs[i].verdict.broken) {
      if (std::find(names.begin(), names.end(), property) == names.end()) {
        throw Refusal{merged.sources[i] + ".broken: '" + property + "' is not a property of " +
                      merged.explore.scenario};
      }
    }
    records[i].draw = sim::draw_faults(loaded.scenario, records[i].seed);
    records[i].verdict = merged.runs[i].verdict;
  }
  return records;
}

// The shards' explore, loaded again from its scenario file; each run's schedule drawn again and
// checked against the seed its shard ran.
int run_merge(const MergeOptions& merge) {
  namespace fs = std::filesystem;
  for (const auto& dir : merge.dirs) {
    if (!fs::is_directory(dir)) throw Refusal{dir + ": no such folder"};
  }
  const std::string dir = merge.out.empty() ? merge.dirs.front() : merge.out;
  StagedFolder staged = prepare_explore_folder(dir);
  std::vector<std::string> paths;
  for (const auto& folder : merge.dirs) {
    for (auto& path : shard_files_in(folder)) paths.push_back(std::move(path));
  }
  const MergedExplore merged = read_and_merge(paths);
  const ExploreIdentity& identity = merged.explore;
  ExploreOptions options;
  options.scenario = identity.scenario;
  options.profile = identity.profile;
  const std::string& first = paths.front();
  if (fnv1a64_of_file(identity.scenario) != identity.scenario_fnv1a64) {
    throw Refusal{first + ": " + identity.scenario +
                  " is not the file the shards ran (its bytes changed, or it is gone)"};
  }
  if (identity.nssim_version != nssim_version()) {
    throw Refusal{first + ": ran on nssim " + identity.nssim_version + ", this is " +
                  nssim_version()};
  }
  const LoadedExplore loaded = load_explore(options);
  return finish_explore(loaded, merged_records(loaded, merged), "", identity.shrink_runs, staged,
                        dir);
}

// Each task: `nssim explore SCENARIO --runs N --shrink-runs M [--profile P] [limits] --shard
// I/K`, so its shard file carries this explore's identity.
SlurmWork explore_work(const ExploreOptions& options, const LoadedExplore& loaded) {
  SlurmWork work;
  work.command = "explore";
  work.name = loaded.scenario.name;
  work.arguments = {options.scenario, "--runs", std::to_string(options.runs), "--shrink-runs",
                    std::to_string(options.shrink_runs)};
  if (!options.profile.empty()) {
    work.arguments.insert(work.arguments.end(), {"--profile", options.profile});
  }
  for (auto& arg : cost_limit_arguments(options.limits)) work.arguments.push_back(std::move(arg));
  work.jobs = options.jobs;
  work.shards = slurm_task_count(options.slurm, options.runs);
  const nlohmann::json identity = explore_identity_json(identity_of(options));
  work.finished = [identity](const std::string& path) {
    return explore_identity_json(read_explore_shard(path, kMaxExploreRuns).explore) == identity;
  };
  const std::size_t runs = options.runs;
  const std::size_t shards = work.shards;
  work.covers = [runs, shards](std::size_t shard) {
    const ShardRange range = shard_range(shard, shards, runs);
    return "runs " + std::to_string(range.first_run) + ".." + std::to_string(range.end_run);
  };
  return work;
}

}  // namespace

void add_explore_merge_command(CLI::App& explore, int& exit_code) {
  auto merge = std::make_shared<MergeOptions>();
  CLI::App* command = explore.add_subcommand(
      "merge", "Merge explore shard files, shrink, write explore.json and the counterexamples");
  command->add_option("dirs", merge->dirs, "Folders holding shards/ (or shard files)")->required();
  command->add_option("--out", merge->out, "Output folder (default: the first DIR)")
      ->check(non_empty_text());
  run_refusing(*command, exit_code, [merge] { return run_merge(*merge); });
}

int run_explore_on_slurm(const ExploreOptions& options, const LoadedExplore& loaded,
                         const std::string& dir) {
  in_context("--slurm: ", [&] { check_slurm_usable(options.slurm, !options.shard.empty()); });
  // Checked before anything is submitted; the finish swaps the documents in with shards/,
  // slurm/ and explore.sbatch kept.
  StagedFolder staged = prepare_explore_folder(dir);
  const SlurmWork work = explore_work(options, loaded);
  std::cout << "explore " << loaded.scenario.name << ": " << options.runs << " runs in "
            << work.shards << " shards on Slurm" << std::endl;
  const std::string folder = slurm_folder(dir);
  // Its Refusals are about the job, so they name --slurm.
  if (!in_context("--slurm: ", [&] { return run_slurm_job(options.slurm, work, folder); })) {
    return 0;
  }
  const MergedExplore merged = in_context("--slurm: ", [&] {
    std::vector<std::string> paths;
    for (std::size_t shard = 1; shard <= work.shards; ++shard) {
      paths.push_back(shard_path(folder, shard, work.shards));
    }
    return read_and_merge(paths);
  });
  return finish_explore(loaded, merged_records(loaded, merged), "", options.shrink_runs, staged,
                        dir);
}

}  // namespace nssim::cli

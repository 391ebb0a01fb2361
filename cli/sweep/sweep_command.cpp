// File: `nssim sweep SCENARIO ...` and `nssim sweep merge DIR...`: one scenario over many seeds
// (and a grid of settings), each seed a fork of this process, into one sweep.json with its
// renderings; or one shard of it, or the merge of shards (docs/cli.md, docs/sweep-clusters.md).
#include "cli/sweep/sweep_command.h"

#include <unistd.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <set>

#include "cli/commands.h"
#include "cli/expectation_inputs.h"
#include "cli/flag_checks.h"
#include "cli/posix/forked_runs.h"
#include "cli/posix/output_dir.h"
#include "cli/rate_progress.h"
#include "cli/refusal.h"
#include "cli/sweep/sweep_shards.h"
#include "cli/sweep/sweep_summary.h"
#include "cli/verdict_lines.h"
#include "reports/report_document.h"
#include "reports/sweep/sweep_files.h"
#include "sim/analysis/run_analysis.h"
#include "sim/world/world.h"

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;

// In the child: one seed of one point, simulated and analysed exactly as `nssim run` does.
std::string run_one(const LoadedSweep& sweep, std::size_t run) {
  const std::size_t point = point_of_run(sweep.plan, run);
  sim::Scenario scenario = sweep.scenarios[point];
  scenario.seed = seed_of_run(sweep.plan, run);
  sim::WorldRecord record = sim::run_world(scenario);
  const auto judged = judge_run(scenario, sim::analyze_run(scenario, record));
  return reports::seed_record_line(reports::seed_record_of(judged.report, point, scenario.seed),
                                   true);
}

std::string out_dir(const SweepCommandOptions& options, const LoadedSweep& sweep) {
  if (!options.out.empty()) return options.out;
  return "out/sweep-" + sweep.plan.scenario["name"].get<std::string>();
}

int run_sweep(const SweepCommandOptions& options) {
  if (options.sweep.scenario.empty()) {
    throw Refusal{"a SCENARIO file is required (or: nssim sweep merge DIR...)"};
  }
  const LoadedSweep sweep = load_sweep(options.sweep, nssim_version());
  const std::size_t jobs = options.jobs == 0 ? default_jobs() : options.jobs;
  for (const sim::Scenario& point : sweep.scenarios) {
    check_run_cost(point, sim::estimate_run_cost(point), options.limits, jobs);
  }
  const ShardRange range = sweep.shard.value_or(shard_range(1, 1, sweep.plan.run_count()));
  sim::TotalCost total;
  add_sweep_cost(total, sweep, range);
  in_context(sweep.scenarios.front().file + ": ",
             [&] { check_total_cost(total, jobs, options.total_cpu_limit); });
  const std::string dir = out_dir(options, sweep);
  check_slurm_flags(options.slurm);
  if (options.slurm.enabled) {
    std::cout << total_cost_line(total, jobs) << std::endl;
    return run_sweep_on_slurm(options, sweep, dir);
  }
  std::optional<StagedFolder> staged;  // a shard writes its one file instead
  in_context("--out: ", [&] {
    if (sweep.shard) {
      make_output_dir(dir);
    } else {
      staged.emplace(prepare_sweep_folder("sweep", dir));
    }
  });
  std::cout << total_cost_line(total, jobs) << std::endl;
  std::cout << "sweep " << sweep.plan.scenario["name"].get<std::string>() << ": seeds "
            << sweep.plan.first_seed << ".." << sweep.plan.last_seed << " x "
            << sweep.plan.points.size() << " point(s), runs " << range.first_run << ".."
            << range.end_run << ", " << jobs << " at a time" << std::endl;
  const auto records = run_sweep_range(sweep, range, jobs);
  if (sweep.shard) {
    return write_shard(dir, range, sweep.plan.run_count(),
                       shard_file_content(sweep, range, records));
  }
  return write_sweep(*staged, dir, sweep.plan, records);
}

struct MergeOptions {
  std::vector<std::string> dirs;
  std::string out;
};

int run_merge(const MergeOptions& options) {
  for (const auto& dir : options.dirs) {
    if (!fs::is_directory(dir)) throw Refusal{dir + ": no such folder"};
  }
  const std::string out = options.out.empty() ? options.dirs.front() : options.out;
  // Shard files merged from --out itself (a CI job may download them flat) stay in it.
  std::set<std::string> flat_shards;
  for (const auto& path : shard_files_in(out)) {
    const std::string name = fs::path(path).filename().string();
    if (fs::exists(fs::path(out) / name)) flat_shards.insert(name);
  }
  // Before the shards are read: this also brings back a shards/ that a merge killed during its
  // swap left in its staging folder.
  StagedFolder staged =
      in_context("--out: ", [&] { return prepare_sweep_folder("sweep", out, flat_shards); });
  std::vector<ShardFile> shards;
  for (const auto& dir : options.dirs) {
    for (const auto& path : shard_files_in(dir)) shards.push_back(read_shard_file(path));
  }
  MergedSweep merged = merge_shards(std::move(shards));
  return write_sweep(staged, out, merged.plan, merged.records);
}

}  // namespace

const char* nssim_version() { return NSSIM_VERSION; }

int write_shard(const std::string& dir, const ShardRange& range, std::size_t runs,
                const std::string& content) {
  const std::string shards = (fs::path(dir) / "shards").string();
  make_output_dir(shards);
  write_file_atomically(shards, shard_file_name(range.shard, range.shards), content);
  std::cout << "shard " << range.shard << "/" << range.shards << ": runs " << range.first_run
            << ".." << range.end_run << " of " << runs << "\n"
            << "shard: " << shard_path(dir, range.shard, range.shards) << std::endl;
  return 0;
}

void add_sweep_cost(sim::TotalCost& total, const LoadedSweep& sweep, const ShardRange& range) {
  const std::size_t seeds = sweep.plan.seed_count();
  for (std::size_t point = 0; point < sweep.scenarios.size(); ++point) {
    const std::size_t first = std::max(range.first_run, point * seeds);
    const std::size_t end = std::min(range.end_run, (point + 1) * seeds);
    if (first < end) add_runs(total, sim::estimate_run_cost(sweep.scenarios[point]), end - first);
  }
}

std::size_t default_jobs() {
  const long cores = ::sysconf(_SC_NPROCESSORS_ONLN);
  return cores > 0 ? static_cast<std::size_t>(cores) : 1;
}

std::vector<reports::SeedRecord> run_sweep_range(const LoadedSweep& sweep, const ShardRange& range,
                                                 std::size_t jobs) {
  const std::size_t count = range.end_run - range.first_run;
  RateProgress progress(std::cout, ::isatty(STDOUT_FILENO) != 0, count, "runs");
  std::size_t done = 0;
  const auto outcomes = run_forked(
      count, jobs, [&](std::size_t i) { return run_one(sweep, range.first_run + i); },
      [&](std::size_t, const ForkedOutcome&) { progress.update(++done); });
  progress.clear();
  std::vector<reports::SeedRecord> records;
  for (std::size_t i = 0; i < count; ++i) {
    const std::size_t run = range.first_run + i;
    const auto& point = sweep.plan.points[point_of_run(sweep.plan, run)];
    const std::string repeat =
        point.command + " --seed " + std::to_string(seed_of_run(sweep.plan, run));
    std::string problem = outcomes[i].error;
    std::optional<reports::SeedRecord> record;
    if (outcomes[i].ok) record = reports::parse_seed_record_line(outcomes[i].text, problem);
    if (!record) {
      throw Refusal{"the run of seed " + std::to_string(seed_of_run(sweep.plan, run)) + " (" +
                    point.label + ") failed: " + problem + "; repeat: " + repeat};
    }
    records.push_back(std::move(*record));
  }
  return records;
}

StagedFolder prepare_sweep_folder(const std::string& command, const std::string& dir,
                                  const std::set<std::string>& more_kept) {
  // commit() refuses any name render_sweep_files does not give.
  const auto& names = reports::sweep_file_names();
  std::set<std::string> group(names.begin(), names.end());
  std::set<std::string> kept = {"shards", "slurm", "sweep.sbatch", "stdout.txt", "stderr.txt"};
  kept.insert(more_kept.begin(), more_kept.end());
  return StagedFolder::prepare(command, dir, std::move(group), std::move(kept));
}

nlohmann::json write_sweep_documents(StagedFolder& folder, const reports::SweepPlan& plan,
                                     const std::vector<reports::SeedRecord>& records) {
  nlohmann::json sweep = reports::build_sweep(plan, records);
  std::vector<NamedContent> files;
  for (auto& file : reports::render_sweep_files(sweep, records)) {
    files.emplace_back(std::move(file.name), std::move(file.content));
  }
  folder.commit(files);
  return sweep;
}

int write_sweep(StagedFolder& folder, const std::string& dir, const reports::SweepPlan& plan,
                const std::vector<reports::SeedRecord>& records) {
  const nlohmann::json sweep = write_sweep_documents(folder, plan, records);
  print_sweep_summary(std::cout, sweep, colour_on_stdout());
  std::cout << "sweep: " << dir << "/sweep.json\n"
            << "report: " << dir << "/sweep.html" << std::endl;
  return reports::sweep_verdict(sweep) == "fail" ? kExitExpectationFailed : 0;
}

void add_sweep_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<SweepCommandOptions>();
  auto merge = std::make_shared<MergeOptions>();
  CLI::App* command = app.add_subcommand(
      "sweep",
      "Run a scenario over many seeds (and a grid of settings): distributions, not samples");
  command->add_option("scenario", options->sweep.scenario, "Scenario JSON file")
      ->check(non_empty_text());
  command
      ->add_option("--seeds", options->sweep.seeds,
                   "N (seeds 1..N) or A..B (default: the scenario's sweep.seeds, else 100)")
      ->check(non_empty_text());
  command
      ->add_option("--grid", options->sweep.grid,
                   "PATH=V1,V2,...: run every seed at each value (repeat for a product)")
      ->allow_extra_args(false);
  command->add_option("-j,--jobs", options->jobs, "Runs at a time (default: one per core)")
      ->check(whole_number(1, kMaxJobs));
  command->add_option("--out", options->out, "Output folder (default out/sweep-<name>)")
      ->check(non_empty_text());
  command->add_option("--set", options->sweep.set, "PATH=VALUE override of a scenario field")
      ->allow_extra_args(false);
  command->add_option("--profile", options->sweep.profile, "4.9 or 5.x (overrides the scenario's)")
      ->check(non_empty_text());
  add_cost_limit_options(*command, options->limits);
  add_total_cpu_limit_option(*command, options->total_cpu_limit);
  command
      ->add_option("--shard", options->sweep.shard,
                   "I/K: run only shard I of K, write its shard file")
      ->check(non_empty_text());
  add_slurm_options(*command, options->slurm);
  CLI::App* merge_command =
      command->add_subcommand("merge", "Merge shard files into the sweep's documents");
  merge_command->add_option("dirs", merge->dirs, "Folders holding shards/ (or shard files)")
      ->required();
  merge_command->add_option("--out", merge->out, "Output folder (default: the first DIR)")
      ->check(non_empty_text());
  run_refusing(*merge_command, exit_code, [merge] { return run_merge(*merge); });
  run_refusing(*command, exit_code, [options] { return run_sweep(*options); });
}

}  // namespace nssim::cli

// File: `nssim explore SCENARIO --runs N [--for D] [-j J] [--out DIR] [--shrink-runs M]
// [--shard I/K] [--slurm ...]`: draws a fault schedule per run from the scenario's explore block,
// runs each as a fork of this process (as `sweep` runs its seeds) and judges each against the
// scenario's expectations and the built-in properties; then shrinks the first run that broke each
// property to a small scenario that breaks it the same way (explore_results.cpp,
// docs/explore.md). A shard runs its share of the runs and writes their verdicts; the merge, and
// --slurm after its job array, shrink (explore_merge.cpp). Exit 0 when nothing broke, 1 when a
// property did, 2 on bad input.
#include "cli/explore/explore_command.h"

#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/expectation_inputs.h"
#include "cli/flag_checks.h"
#include "cli/posix/forked_runs.h"
#include "cli/posix/output_dir.h"
#include "cli/rate_progress.h"
#include "cli/refusal.h"
#include "cli/sweep/sweep_command.h"
#include "sim/scenario/run_cost.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::cli {

namespace {

using Json = nlohmann::ordered_json;

// Runs one batch of a --for explore holds per job: the clock is read between batches.
constexpr std::size_t kForBatchRunsPerJob = 4;

// Draws and runs runs [first, end) of the explore, `jobs` at a time; records in run order.
std::vector<RunRecord> draw_and_run(const LoadedExplore& loaded, std::size_t first, std::size_t end,
                                    std::size_t jobs, RateProgress& progress,
                                    std::size_t done_before) {
  const std::size_t count = end - first;
  std::vector<RunRecord> records(count);
  for (std::size_t i = 0; i < count; ++i) {
    records[i].seed = sim::explore_run_seed(loaded.scenario.seed, first + i);
    records[i].draw = sim::draw_faults(loaded.scenario, records[i].seed);
  }
  std::size_t done = done_before;
  const auto outcomes = run_forked(
      count, jobs,
      [&](std::size_t i) {
        return judge_candidate(
            sim::candidate_document(loaded.document, records[i].draw.faults, records[i].seed),
            loaded.scenario.file);
      },
      [&](std::size_t, const ForkedOutcome&) { progress.update(++done); });
  for (std::size_t i = 0; i < count; ++i) {
    std::string problem = outcomes[i].error;
    std::optional<CandidateVerdict> verdict;
    if (outcomes[i].ok) verdict = parse_candidate_verdict(outcomes[i].text, problem);
    if (!verdict) {
      throw Refusal{"run " + std::to_string(first + i) + " (seed " +
                    std::to_string(records[i].seed) + ") failed: " + problem};
    }
    records[i].verdict = std::move(*verdict);
  }
  return records;
}

// Seconds of "90s", "10m" or "2h"; a Refusal otherwise.
double parse_time_budget(const std::string& text) {
  const std::string usage =
      "--for: expected a time such as 90s, 10m or 2h (1 s to 7 days), got '" + text + "'";
  if (text.size() < 2) throw Refusal{usage};
  const auto count = parse_decimal_u64(text.substr(0, text.size() - 1));
  const char unit = text.back();
  const std::uint64_t scale = unit == 's' ? 1 : unit == 'm' ? 60 : unit == 'h' ? 3600 : 0;
  constexpr std::uint64_t kWeek_s = 7 * 24 * 3600;
  if (!count || scale == 0 || *count == 0 || *count > kWeek_s / scale) throw Refusal{usage};
  return static_cast<double>(*count * scale);
}

// The runs of the explore: all of --runs (or of its shard), or with --for batches of runs until
// the time is spent (or --runs are done). The runs done depend on the machine's speed; each run's
// schedule and verdict do not, so `--runs <runs done>` repeats a --for explore byte for byte.
std::vector<RunRecord> run_explore_runs(const LoadedExplore& loaded, const ExploreOptions& options,
                                        const ShardRange& range, std::size_t jobs) {
  const bool terminal = ::isatty(STDERR_FILENO) != 0;
  if (options.for_text.empty()) {
    RateProgress progress(std::cerr, terminal, range.end_run - range.first_run, "runs");
    auto records = draw_and_run(loaded, range.first_run, range.end_run, jobs, progress, 0);
    progress.clear();
    return records;
  }
  const double budget_s = parse_time_budget(options.for_text);
  const std::size_t most = options.runs_given ? options.runs : kMaxExploreRuns;
  RateProgress progress(std::cerr, terminal, most, "runs");
  progress.set_time_budget(budget_s);
  std::vector<RunRecord> records;
  while (records.size() < most && progress.elapsed_s() < budget_s) {
    const std::size_t end = std::min(most, records.size() + jobs * kForBatchRunsPerJob);
    auto batch = draw_and_run(loaded, records.size(), end, jobs, progress, records.size());
    records.insert(records.end(), std::make_move_iterator(batch.begin()),
                   std::make_move_iterator(batch.end()));
  }
  progress.clear();
  return records;
}

std::string out_dir(const std::string& out, const LoadedExplore& loaded) {
  return out.empty() ? "out/explore-" + loaded.scenario.name : out;
}

int run_explore(const ExploreOptions& options) {
  if (options.scenario.empty()) {
    throw Refusal{"a SCENARIO file is required (or: nssim explore merge DIR...)"};
  }
  std::optional<ShardRange> shard = parse_shard(options.shard, options.runs);
  if (shard && !options.for_text.empty()) {
    throw Refusal{"--for: cannot be used with --shard (a shard runs its share of --runs)"};
  }
  check_slurm_flags(options.slurm);
  if (options.slurm.enabled && !options.for_text.empty()) {
    throw Refusal{"--for: cannot be used with --slurm (its shards run their share of --runs)"};
  }
  if (!options.for_text.empty()) parse_time_budget(options.for_text);  // refused before any run
  const LoadedExplore loaded = load_explore(options);
  const std::size_t jobs = options.jobs == 0 ? default_jobs() : options.jobs;
  const sim::RunCost cost = sim::estimate_run_cost(loaded.scenario);
  check_run_cost(loaded.scenario, cost, options.limits, jobs);
  const ShardRange range = shard.value_or(shard_range(1, 1, options.runs));
  // A --for explore without --runs has no run count to estimate: its time bounds it. A shard
  // does not shrink: its merge does.
  if (options.for_text.empty() || options.runs_given) {
    sim::TotalCost total;
    add_runs(total, cost, range.end_run - range.first_run + (shard ? 0 : options.shrink_runs));
    in_context(loaded.scenario.file + ": ",
               [&] { check_total_cost(total, jobs, options.total_cpu_limit); });
  }
  const std::string dir = out_dir(options.out, loaded);
  if (options.slurm.enabled) return run_explore_on_slurm(options, loaded, dir);
  if (shard) {
    in_context("--out: ", [&] { make_output_dir(dir); });
    std::cout << "explore " << loaded.scenario.name << ": runs " << range.first_run << ".."
              << range.end_run << " of " << options.runs << ", " << jobs << " at a time"
              << std::endl;
    const std::vector<RunRecord> records = run_explore_runs(loaded, options, range, jobs);
    std::vector<ExploreRunVerdict> runs;
    for (const auto& record : records) runs.push_back({record.seed, record.verdict});
    return write_shard(dir, range, options.runs,
                       explore_shard_content(identity_of(options), range, runs));
  }
  StagedFolder staged = prepare_explore_folder(dir);
  if (options.for_text.empty()) {
    std::cout << "explore " << loaded.scenario.name << ": " << options.runs << " runs, " << jobs
              << " at a time" << std::endl;
  } else {
    std::cout << "explore " << loaded.scenario.name << ": runs for " << options.for_text << ", "
              << jobs << " at a time" << std::endl;
  }
  const std::vector<RunRecord> records = run_explore_runs(loaded, options, range, jobs);
  return finish_explore(loaded, records, options.for_text, options.shrink_runs, staged, dir);
}

}  // namespace

LoadedExplore load_explore(const ExploreOptions& options) {
  sim::LoadOptions load;
  if (!options.profile.empty()) {
    load.profile = core::parse_profile(options.profile);
    if (!load.profile) {
      throw Refusal{"--profile: expected 4.9 or 5.x, got '" + options.profile + "'"};
    }
  }
  LoadedExplore loaded{sim::load_scenario_file(options.scenario, load), {}};
  if (!loaded.scenario.explore) {
    throw Refusal{options.scenario +
                  ": explore: is required by nssim explore (the fault space to draw from, "
                  "scenarios/README.md#explore)"};
  }
  check_expectation_figures(loaded.scenario);
  std::ifstream in(options.scenario, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  loaded.document = Json::parse(text.str());  // the loader took it: it parses
  if (load.profile) loaded.document["profile"] = options.profile;
  return loaded;
}

ExploreIdentity identity_of(const ExploreOptions& options) {
  return {options.scenario, options.profile,     fnv1a64_of_file(options.scenario),
          options.runs,     options.shrink_runs, nssim_version()};
}

void add_explore_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExploreOptions>();
  CLI::App* command = app.add_subcommand(
      "explore",
      "Draw fault schedules from a scenario's explore block, judge each run against "
      "its properties, shrink what broke one to a minimal scenario");
  command->add_option("scenario", options->scenario, "Scenario JSON file with an explore block")
      ->check(non_empty_text());
  CLI::Option* runs =
      command
          ->add_option("--runs", options->runs,
                       "Schedules to draw and run (default 100; with --for, the most)")
          ->check(whole_number(1, kMaxExploreRuns));
  command
      ->add_option("--for", options->for_text,
                   "Run for this long instead (90s, 10m, 2h); explore.json records the runs done")
      ->check(non_empty_text());
  command->add_option("--shard", options->shard, "I/K: run only shard I of K, write its shard file")
      ->check(non_empty_text());
  command->add_option("-j,--jobs", options->jobs, "Runs at a time (default: one per core)")
      ->check(whole_number(1, kMaxJobs));
  command
      ->add_option("--shrink-runs", options->shrink_runs,
                   "Runs each counterexample's shrinking may take (default 500)")
      ->check(whole_number(0, kMaxExploreRuns));
  command->add_option("--out", options->out, "Output folder (default out/explore-<name>)")
      ->check(non_empty_text());
  command->add_option("--profile", options->profile, "4.9 or 5.x (overrides the scenario's)")
      ->check(non_empty_text());
  add_cost_limit_options(*command, options->limits);
  add_total_cpu_limit_option(*command, options->total_cpu_limit);
  add_slurm_options(*command, options->slurm);
  add_explore_merge_command(*command, exit_code);
  run_refusing(*command, exit_code, [options, runs] {
    options->runs_given = runs->count() > 0;
    return run_explore(*options);
  });
}

}  // namespace nssim::cli

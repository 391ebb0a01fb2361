// File: `nssim explore SCENARIO --runs N [--for D] [-j J] [--out DIR] [--shrink-runs M]
// [--shard I/K]` and `nssim explore merge DIR...`: draws a fault schedule per run from the
// scenario's explore block, runs each as a fork of this process (as `sweep` runs its seeds),
// judges each against the scenario's expectations and the built-in properties, and shrinks the
// first run that broke each property to a small scenario that breaks it the same way
// (docs/explore.md). A shard runs its share of the runs and writes their verdicts; the merge
// shrinks. Exit 0 when nothing broke, 1 when a property did, 2 on bad input.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/cost_limits.h"
#include "cli/expectation_inputs.h"
#include "cli/explore/explore_candidates.h"
#include "cli/explore/explore_coverage.h"
#include "cli/explore/explore_shards.h"
#include "cli/flag_checks.h"
#include "cli/posix/forked_runs.h"
#include "cli/posix/output_dir.h"
#include "cli/posix/staged_folder.h"
#include "cli/rate_progress.h"
#include "cli/refusal.h"
#include "cli/sweep/sweep_command.h"
#include "reports/expectations.h"
#include "reports/explore/explore_html.h"
#include "sim/analysis/explore_properties.h"
#include "sim/analysis/outage_analysis.h"
#include "sim/scenario/explore_draw.h"
#include "sim/scenario/explore_shrink.h"
#include "sim/scenario/run_cost.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::cli {

namespace {

using Json = nlohmann::ordered_json;

// Runs one explore may draw: its records stay in memory until explore.json is written.
constexpr std::uint64_t kMaxExploreRuns = 10000000;

// Runs one batch of a --for explore holds per job: the clock is read between batches.
constexpr std::size_t kForBatchRunsPerJob = 4;

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
};

struct LoadedExplore {
  sim::Scenario scenario;  // validated, with its explore block
  Json document;           // the file's JSON (with --profile), for the candidates
};

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

// One drawn run: its seed, the kinds its swarm draw enabled, its schedule and what it broke.
struct RunRecord {
  std::uint64_t seed = 0;
  sim::ExploreDraw draw;
  CandidateVerdict verdict;
};

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

struct Counterexample {
  std::string property;
  std::size_t run = 0;
  std::uint64_t seed = 0;
  Json original_faults;
  sim::ShrinkResult shrink;
  std::vector<std::string> failed_lines;  // of the shrunk schedule
};

// One forked run of a shrink candidate: the same judgement as the drawn runs'.
std::optional<CandidateVerdict> judge_once(const Json& document, const std::string& file) {
  const auto outcome = run_forked(
      1, 1, [&](std::size_t) { return judge_candidate(document, file); },
      [](std::size_t, const ForkedOutcome&) {});
  std::string problem = outcome[0].error;
  std::optional<CandidateVerdict> verdict;
  if (outcome[0].ok) verdict = parse_candidate_verdict(outcome[0].text, problem);
  if (!verdict) throw Refusal{"a shrink run failed: " + problem};
  return verdict;
}

Counterexample shrink(const LoadedExplore& loaded, const std::string& property, std::size_t run,
                      const RunRecord& record, std::size_t shrink_runs) {
  Counterexample found{property, run, record.seed, record.draw.faults, {}, {}};
  found.failed_lines = record.verdict.failed_lines.at(property);
  const std::string& file = loaded.scenario.file;
  sim::ShrinkOptions options;
  options.max_runs = shrink_runs;
  // A run shrunk to end this long after its last heal still holds the second of timeseries that
  // routes_restored_after_heal reads.
  options.settle_ms = sim::routes_settled_after_heal_ms(sim::settings_json(loaded.scenario)) + 1000;
  found.shrink = sim::shrink_scenario(
      sim::candidate_document(loaded.document, record.draw.faults, record.seed), options,
      [&](const Json& document) -> std::optional<bool> {
        if (!loads(document, file)) return std::nullopt;
        const auto verdict = judge_once(document, file);
        if (!verdict->breaks(property)) return false;
        found.failed_lines = verdict->failed_lines.at(property);
        return true;
      });
  return found;
}

// The counterexample as a scenario of its own: the faults written out, the property's failed
// lines added to its expectations, so `nssim run` on it exits 1.
Json counterexample_document(const LoadedExplore& loaded, const Counterexample& found) {
  Json document = found.shrink.document;
  Json expect = document.contains("expect") ? document["expect"] : Json::array();
  for (const auto& line : found.failed_lines) {
    if (std::find(expect.begin(), expect.end(), line) == expect.end()) expect.push_back(line);
  }
  document["expect"] = expect;
  document["description"] = "Counterexample of " + found.property + " found by nssim explore " +
                            loaded.scenario.file + ": run " + std::to_string(found.run) +
                            " (seed " + std::to_string(found.seed) + "), shrunk from " +
                            std::to_string(found.original_faults.size()) + " to " +
                            std::to_string(found.shrink.document["faults"].size()) + " fault(s).";
  return document;
}

std::string counterexample_path(const std::string& property) {
  return "counterexamples/" + property + "/scenario.json";
}

std::string nearest_path(const std::string& property) {
  return "nearest/" + property + "/scenario.json";
}

std::vector<CoveredRun> covered_runs(const std::vector<RunRecord>& records) {
  std::vector<CoveredRun> covered;
  for (const auto& record : records) {
    CoveredRun run{{}, &record.verdict};
    for (auto kind : record.draw.enabled) run.kinds.push_back(sim::fault_kind_name(kind));
    covered.push_back(std::move(run));
  }
  return covered;
}

// The run nearest a property's bound as a scenario of its own, as a counterexample is one.
Json nearest_document(const LoadedExplore& loaded, const std::string& property, std::size_t run,
                      const RunRecord& record) {
  Json document = sim::candidate_document(loaded.document, record.draw.faults, record.seed);
  const Nearness& near = record.verdict.nearest.at(property);
  document["description"] = "The run of nssim explore " + loaded.scenario.file + " nearest to " +
                            property + "'s bound: run " + std::to_string(run) + " (seed " +
                            std::to_string(record.seed) + "), " + near.line + " measured " +
                            reports::number_text(near.measured) + ".";
  return document;
}

Json explore_json(const LoadedExplore& loaded, const std::string& for_text, std::size_t shrink_runs,
                  const std::vector<RunRecord>& records, const std::vector<Counterexample>& found,
                  const std::string& dir) {
  const sim::Scenario& s = loaded.scenario;
  const std::vector<CoveredRun> covered = covered_runs(records);
  Json properties = Json::array();
  for (const auto& name : property_names(s.expect.size())) {
    Json property{{"name", name}, {"broken_runs", 0}, {"first_broken_run", nullptr}};
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!records[i].verdict.breaks(name)) continue;
      property["broken_runs"] = property["broken_runs"].get<std::size_t>() + 1;
      if (property["first_broken_run"].is_null()) property["first_broken_run"] = i;
    }
    property["nearest"] = nullptr;
    if (const auto run = nearest_run(covered, name)) {
      const Nearness& near = records[*run].verdict.nearest.at(name);
      property["nearest"] = {{"run", *run},
                             {"seed", records[*run].seed},
                             {"line", near.line},
                             {"measured", near.measured},
                             {"bound", near.bound},
                             {"margin", near.margin},
                             {"scenario", nearest_path(name)},
                             {"command", "nssim run " + dir + "/" + nearest_path(name)}};
    }
    properties.push_back(std::move(property));
  }
  Json counterexamples = Json::array();
  for (const auto& c : found) {
    Json steps = Json::array();
    for (const auto& step : c.shrink.steps) {
      steps.push_back({{"change", step.change}, {"kept", step.kept}});
    }
    counterexamples.push_back(
        {{"property", c.property},
         {"run", c.run},
         {"seed", c.seed},
         {"scenario", counterexample_path(c.property)},
         {"command", "nssim run " + dir + "/" + counterexample_path(c.property)},
         {"expect", c.failed_lines},
         {"faults", c.shrink.document["faults"]},
         {"original_faults", c.original_faults},
         {"shrink",
          {{"runs", c.shrink.runs},
           {"kept", c.shrink.kept},
           {"budget_spent", c.shrink.budget_spent},
           {"steps", steps}}}});
  }
  Json runs = Json::array();
  for (std::size_t i = 0; i < records.size(); ++i) {
    Json kinds = Json::array();
    for (auto kind : records[i].draw.enabled) kinds.push_back(sim::fault_kind_name(kind));
    runs.push_back({{"run", i},
                    {"seed", records[i].seed},
                    {"kinds", kinds},
                    {"faults", records[i].draw.faults.size()},
                    {"broken", records[i].verdict.broken}});
  }
  Json document{{"schema", "nssim.explore/1"},
                {"scenario",
                 {{"name", s.name},
                  {"file", s.file},
                  {"profile", core::profile_name(s.profile)},
                  {"seed", s.seed}}},
                {"runs", records.size()}};
  // With --for, "runs" are the runs done in that time: --runs of them repeats this explore.
  if (!for_text.empty()) document["for"] = for_text;
  document["shrink_runs"] = shrink_runs;
  document["properties"] = properties;
  document["coverage"] = coverage_json(core::profile_name(s.profile), covered);
  document["counterexamples"] = counterexamples;
  document["run_records"] = runs;
  return document;
}

std::string out_dir(const std::string& out, const LoadedExplore& loaded) {
  return out.empty() ? "out/explore-" + loaded.scenario.name : out;
}

// explore.json and counterexamples/ as one group of `dir`; shards/ (of --shard runs) and a
// parent's stdout.txt and stderr.txt kept across the swap.
StagedFolder prepare_explore_folder(const std::string& dir) {
  return in_context("--out: ", [&] {
    return StagedFolder::prepare("explore", dir,
                                 {"explore.json", "explore.html", "counterexamples/", "nearest/"},
                                 {"shards", "stdout.txt", "stderr.txt"});
  });
}

// Shrinks the first run that broke each property, writes explore.json and the counterexamples
// into `staged` and names them on stdout. Returns the exit code.
int finish_explore(const LoadedExplore& loaded, const std::vector<RunRecord>& records,
                   const std::string& for_text, std::size_t shrink_runs, StagedFolder& staged,
                   const std::string& dir) {
  std::vector<Counterexample> found;
  std::vector<NamedContent> files;
  for (const auto& property : property_names(loaded.scenario.expect.size())) {
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!records[i].verdict.breaks(property)) continue;
      std::cerr << "explore: shrinking run " << i << " for " << property << std::endl;
      found.push_back(shrink(loaded, property, i, records[i], shrink_runs));
      files.emplace_back(counterexample_path(property),
                         counterexample_document(loaded, found.back()).dump(2) + "\n");
      break;
    }
  }
  const std::vector<CoveredRun> covered = covered_runs(records);
  for (const auto& property : property_names(loaded.scenario.expect.size())) {
    if (const auto run = nearest_run(covered, property)) {
      files.emplace_back(nearest_path(property),
                         nearest_document(loaded, property, *run, records[*run]).dump(2) + "\n");
    }
  }
  const Json document = explore_json(loaded, for_text, shrink_runs, records, found, dir);
  files.emplace_back("explore.json", document.dump(2) + "\n");
  files.emplace_back("explore.html", reports::render_explore_html(document));
  staged.commit(files);
  for (const auto& c : found) {
    std::cout << "broken: " << c.property << " (run " << c.run << ", " << c.original_faults.size()
              << " -> " << c.shrink.document["faults"].size() << " fault(s) in " << c.shrink.runs
              << " shrink runs): nssim run " << dir << "/" << counterexample_path(c.property)
              << "\n";
  }
  if (found.empty()) std::cout << "no property broke in " << records.size() << " runs\n";
  const auto coverage = coverage_json(core::profile_name(loaded.scenario.profile), covered);
  std::string unreached;
  for (const auto& path : coverage["removal_paths_unreached"]) {
    unreached += (unreached.empty() ? "" : ", ") + path.get<std::string>();
  }
  if (!unreached.empty()) std::cout << "removal paths no run reached: " << unreached << "\n";
  std::cout << "explore: " << dir << "/explore.json\n"
            << "report: " << dir << "/explore.html" << std::endl;
  return found.empty() ? 0 : kExitExpectationFailed;
}

ExploreIdentity identity_of(const ExploreOptions& options) {
  return {options.scenario, options.profile,     fnv1a64_of_file(options.scenario),
          options.runs,     options.shrink_runs, nssim_version()};
}

int run_explore(const ExploreOptions& options) {
  if (options.scenario.empty()) {
    throw Refusal{"a SCENARIO file is required (or: nssim explore merge DIR...)"};
  }
  std::optional<ShardRange> shard = parse_shard(options.shard, options.runs);
  if (shard && !options.for_text.empty()) {
    throw Refusal{"--for: cannot be used with --shard (a shard runs its share of --runs)"};
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

struct MergeOptions {
  std::vector<std::string> dirs;
  std::string out;
};

// The shards' explore, loaded again from its scenario file; each run's schedule drawn again and
// checked against the seed its shard ran.
int run_merge(const MergeOptions& merge) {
  namespace fs = std::filesystem;
  for (const auto& dir : merge.dirs) {
    if (!fs::is_directory(dir)) throw Refusal{dir + ": no such folder"};
  }
  const std::string dir = merge.out.empty() ? merge.dirs.front() : merge.out;
  StagedFolder staged = prepare_explore_folder(dir);
  std::vector<ExploreShard> shards;
  for (const auto& folder : merge.dirs) {
    for (const auto& path : shard_files_in(folder)) {
      shards.push_back(read_explore_shard(path, kMaxExploreRuns));
    }
  }
  const MergedExplore merged = merge_explore_shards(shards);
  const ExploreIdentity& identity = merged.explore;
  ExploreOptions options;
  options.scenario = identity.scenario;
  options.profile = identity.profile;
  const std::string& first = shards.front().path;
  if (fnv1a64_of_file(identity.scenario) != identity.scenario_fnv1a64) {
    throw Refusal{first + ": " + identity.scenario +
                  " is not the file the shards ran (its bytes changed, or it is gone)"};
  }
  if (identity.nssim_version != nssim_version()) {
    throw Refusal{first + ": ran on nssim " + identity.nssim_version + ", this is " +
                  nssim_version()};
  }
  const LoadedExplore loaded = load_explore(options);
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
                      identity.scenario};
      }
    }
    records[i].draw = sim::draw_faults(loaded.scenario, records[i].seed);
    records[i].verdict = merged.runs[i].verdict;
  }
  return finish_explore(loaded, records, "", identity.shrink_runs, staged, dir);
}

}  // namespace

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
  auto merge = std::make_shared<MergeOptions>();
  CLI::App* merge_command = command->add_subcommand(
      "merge", "Merge explore shard files, shrink, write explore.json and the counterexamples");
  merge_command->add_option("dirs", merge->dirs, "Folders holding shards/ (or shard files)")
      ->required();
  merge_command->add_option("--out", merge->out, "Output folder (default: the first DIR)")
      ->check(non_empty_text());
  run_refusing(*merge_command, exit_code, [merge] { return run_merge(*merge); });
  run_refusing(*command, exit_code, [options, runs] {
    options->runs_given = runs->count() > 0;
    return run_explore(*options);
  });
}

}  // namespace nssim::cli

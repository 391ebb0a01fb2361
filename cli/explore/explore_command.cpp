// File: `nssim explore SCENARIO --runs N [-j J] [--out DIR] [--shrink-runs M]`: draws a fault
// schedule per run from the scenario's explore block, runs each as a fork of this process (as
// `sweep` runs its seeds), judges each against the scenario's expectations and the built-in
// properties, and shrinks the first run that broke each property to a small scenario that breaks
// it the same way (docs/explore.md). Exit 0 when nothing broke, 1 when a property did, 2 on bad
// input.
#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"
#include "cli/cost_limits.h"
#include "cli/expectation_inputs.h"
#include "cli/explore/explore_candidates.h"
#include "cli/flag_checks.h"
#include "cli/posix/forked_runs.h"
#include "cli/posix/staged_folder.h"
#include "cli/rate_progress.h"
#include "cli/refusal.h"
#include "cli/sweep/sweep_command.h"
#include "sim/scenario/explore_draw.h"
#include "sim/scenario/explore_shrink.h"
#include "sim/scenario/run_cost.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::cli {

namespace {

using Json = nlohmann::ordered_json;

// Runs one explore may draw: its records stay in memory until explore.json is written.
constexpr std::uint64_t kMaxExploreRuns = 10000000;

struct ExploreOptions {
  std::string scenario;
  std::size_t runs = 100;
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

std::vector<RunRecord> draw_and_run(const LoadedExplore& loaded, const ExploreOptions& options,
                                    std::size_t jobs) {
  std::vector<RunRecord> records(options.runs);
  for (std::size_t i = 0; i < options.runs; ++i) {
    records[i].seed = sim::explore_run_seed(loaded.scenario.seed, i);
    records[i].draw = sim::draw_faults(loaded.scenario, records[i].seed);
  }
  RateProgress progress(std::cerr, ::isatty(STDERR_FILENO) != 0, options.runs, "runs");
  std::size_t done = 0;
  const auto outcomes = run_forked(
      options.runs, jobs,
      [&](std::size_t i) {
        return judge_candidate(
            sim::candidate_document(loaded.document, records[i].draw.faults, records[i].seed),
            loaded.scenario.file);
      },
      [&](std::size_t, const ForkedOutcome&) { progress.update(++done); });
  progress.clear();
  for (std::size_t i = 0; i < options.runs; ++i) {
    std::string problem = outcomes[i].error;
    std::optional<CandidateVerdict> verdict;
    if (outcomes[i].ok) verdict = parse_candidate_verdict(outcomes[i].text, problem);
    if (!verdict) {
      throw Refusal{"run " + std::to_string(i) + " (seed " + std::to_string(records[i].seed) +
                    ") failed: " + problem};
    }
    records[i].verdict = std::move(*verdict);
  }
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
  found.shrink = sim::shrink_faults(
      record.draw.faults, shrink_runs, [&](const Json& faults) -> std::optional<bool> {
        const Json document = sim::candidate_document(loaded.document, faults, record.seed);
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
  Json document = sim::candidate_document(loaded.document, found.shrink.faults, found.seed);
  Json expect = document.contains("expect") ? document["expect"] : Json::array();
  for (const auto& line : found.failed_lines) {
    if (std::find(expect.begin(), expect.end(), line) == expect.end()) expect.push_back(line);
  }
  document["expect"] = expect;
  document["description"] = "Counterexample of " + found.property + " found by nssim explore " +
                            loaded.scenario.file + ": run " + std::to_string(found.run) +
                            " (seed " + std::to_string(found.seed) + "), shrunk from " +
                            std::to_string(found.original_faults.size()) + " to " +
                            std::to_string(found.shrink.faults.size()) + " fault(s).";
  return document;
}

std::string counterexample_path(const std::string& property) {
  return "counterexamples/" + property + "/scenario.json";
}

Json explore_json(const LoadedExplore& loaded, const ExploreOptions& options,
                  const std::vector<RunRecord>& records, const std::vector<Counterexample>& found,
                  const std::string& dir) {
  const sim::Scenario& s = loaded.scenario;
  Json properties = Json::array();
  for (const auto& name : property_names(s.expect.size())) {
    Json property{{"name", name}, {"broken_runs", 0}, {"first_broken_run", nullptr}};
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!records[i].verdict.breaks(name)) continue;
      property["broken_runs"] = property["broken_runs"].get<std::size_t>() + 1;
      if (property["first_broken_run"].is_null()) property["first_broken_run"] = i;
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
         {"faults", c.shrink.faults},
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
  return Json{{"schema", "nssim.explore/1"},
              {"scenario",
               {{"name", s.name},
                {"file", s.file},
                {"profile", core::profile_name(s.profile)},
                {"seed", s.seed}}},
              {"runs", options.runs},
              {"shrink_runs", options.shrink_runs},
              {"properties", properties},
              {"counterexamples", counterexamples},
              {"run_records", runs}};
}

int run_explore(const ExploreOptions& options) {
  const LoadedExplore loaded = load_explore(options);
  const std::size_t jobs = options.jobs == 0 ? default_jobs() : options.jobs;
  const sim::RunCost cost = sim::estimate_run_cost(loaded.scenario);
  check_run_cost(loaded.scenario, cost, options.limits, jobs);
  sim::TotalCost total;
  add_runs(total, cost, options.runs + options.shrink_runs);
  in_context(loaded.scenario.file + ": ",
             [&] { check_total_cost(total, jobs, options.total_cpu_limit); });
  const std::string dir = options.out.empty() ? "out/explore-" + loaded.scenario.name : options.out;
  std::set<std::string> group = {"explore.json", "counterexamples/"};
  StagedFolder staged = in_context("--out: ", [&] {
    return StagedFolder::prepare("explore", dir, group, {"stdout.txt", "stderr.txt"});
  });
  std::cout << "explore " << loaded.scenario.name << ": " << options.runs << " runs, " << jobs
            << " at a time" << std::endl;
  const std::vector<RunRecord> records = draw_and_run(loaded, options, jobs);
  std::vector<Counterexample> found;
  std::vector<NamedContent> files;
  for (const auto& property : property_names(loaded.scenario.expect.size())) {
    for (std::size_t i = 0; i < records.size(); ++i) {
      if (!records[i].verdict.breaks(property)) continue;
      std::cerr << "explore: shrinking run " << i << " for " << property << std::endl;
      found.push_back(shrink(loaded, property, i, records[i], options.shrink_runs));
      files.emplace_back(counterexample_path(property),
                         counterexample_document(loaded, found.back()).dump(2) + "\n");
      break;
    }
  }
  files.emplace_back("explore.json",
                     explore_json(loaded, options, records, found, dir).dump(2) + "\n");
  staged.commit(files);
  for (const auto& c : found) {
    std::cout << "broken: " << c.property << " (run " << c.run << ", " << c.original_faults.size()
              << " -> " << c.shrink.faults.size() << " fault(s) in " << c.shrink.runs
              << " shrink runs): nssim run " << dir << "/" << counterexample_path(c.property)
              << "\n";
  }
  if (found.empty()) std::cout << "no property broke in " << options.runs << " runs\n";
  std::cout << "explore: " << dir << "/explore.json" << std::endl;
  return found.empty() ? 0 : kExitExpectationFailed;
}

}  // namespace

void add_explore_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ExploreOptions>();
  CLI::App* command = app.add_subcommand(
      "explore",
      "Draw fault schedules from a scenario's explore block, judge each run against "
      "its properties, shrink what broke one to a minimal scenario");
  command->add_option("scenario", options->scenario, "Scenario JSON file with an explore block")
      ->required()
      ->check(non_empty_text());
  command->add_option("--runs", options->runs, "Schedules to draw and run (default 100)")
      ->check(whole_number(1, kMaxExploreRuns));
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
  run_refusing(*command, exit_code, [options] { return run_explore(*options); });
}

}  // namespace nssim::cli

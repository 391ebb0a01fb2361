// File: how every path of `nssim explore` ends (explore_command.h): the first run that broke
// each property shrunk, one forked run per candidate, to a counterexample scenario; the run
// nearest each property's bound written out; explore.json with its coverage and explore.html,
// committed as one group, and the broken properties named on stdout.
#include <algorithm>
#include <iostream>

#include "cli/commands.h"
#include "cli/explore/explore_command.h"
#include "cli/explore/explore_coverage.h"
#include "cli/posix/forked_runs.h"
#include "cli/refusal.h"
#include "reports/expectations.h"
#include "reports/explore/explore_html.h"
#include "sim/analysis/explore_properties.h"
#include "sim/analysis/outage_analysis.h"

namespace nssim::cli {

namespace {

using Json = nlohmann::ordered_json;

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
  options.earliest_start_ms = sim::started_by_ms(loaded.scenario);
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

}  // namespace

StagedFolder prepare_explore_folder(const std::string& dir) {
  return in_context("--out: ", [&] {
    return StagedFolder::prepare("explore", dir,
                                 {"explore.json", "explore.html", "counterexamples/", "nearest/"},
                                 {"shards", "slurm", "explore.sbatch", "stdout.txt", "stderr.txt"});
  });
}

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

}  // namespace nssim::cli

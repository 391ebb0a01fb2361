// File: judging one explore candidate (explore_candidates.h).
#include "cli/explore/explore_candidates.h"

#include <algorithm>

#include "cli/expectation_inputs.h"
#include "sim/analysis/explore_properties.h"
#include "sim/analysis/run_analysis.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/world/world.h"

namespace nssim::cli {

bool CandidateVerdict::breaks(const std::string& property) const {
  return std::find(broken.begin(), broken.end(), property) != broken.end();
}

std::string expectation_property(std::size_t index) { return "expect_" + std::to_string(index); }

std::vector<std::string> property_names(std::size_t expectations) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < expectations; ++i) names.push_back(expectation_property(i));
  for (const auto& name : sim::built_in_property_names()) names.push_back(name);
  return names;
}

std::string judge_candidate(const nlohmann::ordered_json& document, const std::string& file) {
  const sim::Scenario scenario = sim::parse_scenario(document.dump(), file, {});
  const sim::WorldRecord record = sim::run_world(scenario);
  const nlohmann::json result = sim::analyze_run(scenario, record);
  const JudgedRun judged = judge_run(scenario, result);
  nlohmann::json broken = nlohmann::json::array();
  nlohmann::json lines = nlohmann::json::object();
  for (std::size_t i = 0; i < judged.verdicts.size(); ++i) {
    if (judged.verdicts[i].passed) continue;
    broken.push_back(expectation_property(i));
    lines[expectation_property(i)] = {judged.verdicts[i].source};
  }
  for (const auto& property : sim::built_in_properties(result)) {
    sim::Scenario judged_on = scenario;
    judged_on.expect = property.expect;
    nlohmann::json failed = nlohmann::json::array();
    for (const auto& verdict : reports::check_expectations(result, expectation_inputs(judged_on))) {
      if (!verdict.passed) failed.push_back(verdict.source);
    }
    if (failed.empty()) continue;
    broken.push_back(property.name);
    lines[property.name] = std::move(failed);
  }
  return nlohmann::json{{"broken", broken}, {"lines", lines}}.dump();
}

std::optional<CandidateVerdict> parse_candidate_verdict(const std::string& line,
                                                        std::string& problem) {
  try {
    const nlohmann::json answer = nlohmann::json::parse(line);
    CandidateVerdict verdict;
    verdict.broken = answer.at("broken").get<std::vector<std::string>>();
    for (const auto& [name, failed] : answer.at("lines").items()) {
      verdict.failed_lines[name] = failed.get<std::vector<std::string>>();
    }
    return verdict;
  } catch (const nlohmann::json::exception& error) {
    problem = std::string("unreadable answer: ") + error.what();
    return std::nullopt;
  }
}

bool loads(const nlohmann::ordered_json& document, const std::string& file) {
  try {
    sim::parse_scenario(document.dump(), file, {});
    return true;
  } catch (const sim::ScenarioError&) {
    return false;
  }
}

}  // namespace nssim::cli

// File: judging one explore candidate (explore_candidates.h).
#include "cli/explore/explore_candidates.h"

#include <algorithm>
#include <cmath>

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

namespace {

using AnswerJson = nlohmann::json;

// What the run reached: per outage and NameServer that dropped the broker, the removal path;
// the failed sends by cause; the route windows by kind and cause.
std::map<std::string, std::map<std::string, std::uint64_t>> run_coverage(const AnswerJson& result) {
  std::map<std::string, std::map<std::string, std::uint64_t>> coverage;
  for (const auto& group : coverage_groups()) coverage[group];
  for (const auto& outage : result.value("outages", AnswerJson::array())) {
    for (const auto& nameserver : outage.value("nameservers", AnswerJson::array())) {
      const auto path = nameserver.find("path");
      if (path != nameserver.end() && path->is_string()) {
        ++coverage["removal_paths"][path->get<std::string>()];
      }
    }
  }
  const AnswerJson failed =
      result.value("sends", AnswerJson::object()).value("failed", AnswerJson::object());
  for (const auto& [cause, count] : failed.items()) {
    if (cause != "total" && count.is_number_integer() && count.get<std::int64_t>() > 0) {
      coverage["send_failures"][cause] = count.get<std::uint64_t>();
    }
  }
  const AnswerJson route_health = result.value("route_health", AnswerJson::object());
  for (const char* kind : {"stale", "lost", "missing"}) {
    const AnswerJson by_cause =
        route_health.value(kind, AnswerJson::object()).value("by_cause", AnswerJson::object());
    for (const auto& [cause, count] : by_cause.items()) {
      if (count.is_number_integer() && count.get<std::int64_t>() > 0) {
        coverage["route_health_causes"][std::string(kind) + "." + cause] =
            count.get<std::uint64_t>();
      }
    }
  }
  return coverage;
}

// The least margin of `verdicts` (Nearness), if one has a measured value and a bound.
std::optional<Nearness> nearest_of(const std::vector<reports::ExpectationVerdict>& verdicts) {
  std::optional<Nearness> nearest;
  for (const auto& verdict : verdicts) {
    if (!verdict.measured || !verdict.expected) continue;
    const double distance = std::abs(*verdict.measured - *verdict.expected) /
                            std::max(std::abs(*verdict.expected), 1.0);
    const double margin = verdict.passed ? distance : -distance;
    if (!nearest || margin < nearest->margin) {
      nearest = Nearness{verdict.source, *verdict.measured, *verdict.expected, margin};
    }
  }
  return nearest;
}

// Records property `name` judged by `verdicts` into `verdict`.
void judge_property(CandidateVerdict& verdict, const std::string& name,
                    const std::vector<reports::ExpectationVerdict>& verdicts) {
  std::vector<std::string> failed;
  for (const auto& line : verdicts) {
    if (!line.passed) failed.push_back(line.source);
  }
  if (!failed.empty()) {
    verdict.broken.push_back(name);
    verdict.failed_lines[name] = std::move(failed);
  }
  if (auto nearest = nearest_of(verdicts)) verdict.nearest[name] = std::move(*nearest);
}

}  // namespace

const std::vector<std::string>& coverage_groups() {
  static const std::vector<std::string> groups = {"removal_paths", "send_failures",
                                                  "route_health_causes"};
  return groups;
}

std::string judge_candidate(const nlohmann::ordered_json& document, const std::string& file) {
  const sim::Scenario scenario = sim::parse_scenario(document.dump(), file, {});
  const sim::WorldRecord record = sim::run_world(scenario);
  const AnswerJson result = sim::analyze_run(scenario, record);
  const JudgedRun judged = judge_run(scenario, result);
  CandidateVerdict verdict;
  for (std::size_t i = 0; i < judged.verdicts.size(); ++i) {
    judge_property(verdict, expectation_property(i), {judged.verdicts[i]});
  }
  for (const auto& property : sim::built_in_properties(result)) {
    sim::Scenario judged_on = scenario;
    judged_on.expect = property.expect;
    judge_property(verdict, property.name,
                   reports::check_expectations(result, expectation_inputs(judged_on)));
  }
  verdict.coverage = run_coverage(result);
  return candidate_verdict_json(verdict).dump();
}

AnswerJson candidate_verdict_json(const CandidateVerdict& verdict) {
  AnswerJson lines = AnswerJson::object();
  for (const auto& [name, failed] : verdict.failed_lines) lines[name] = failed;
  AnswerJson nearest = AnswerJson::object();
  for (const auto& [name, near] : verdict.nearest) {
    nearest[name] = {{"line", near.line},
                     {"measured", near.measured},
                     {"bound", near.bound},
                     {"margin", near.margin}};
  }
  return AnswerJson{{"broken", verdict.broken},
                    {"lines", lines},
                    {"coverage", verdict.coverage},
                    {"nearest", nearest}};
}

std::optional<CandidateVerdict> parse_candidate_verdict(const std::string& line,
                                                        std::string& problem) {
  const AnswerJson answer = AnswerJson::parse(line, nullptr, /*allow_exceptions=*/false);
  const auto bad = [&problem](const std::string& what) {
    problem = "unreadable answer: " + what;
    return std::nullopt;
  };
  if (!answer.is_object()) return bad("expected an object");
  for (const char* field : {"broken", "lines", "coverage", "nearest"}) {
    if (!answer.contains(field)) return bad(std::string("no ") + field);
  }
  const AnswerJson& broken = answer["broken"];
  const AnswerJson& lines = answer["lines"];
  if (!broken.is_array() || !lines.is_object() || broken.size() != lines.size()) {
    return bad("expected broken (property names) and lines (the failed lines of each)");
  }
  CandidateVerdict verdict;
  for (const AnswerJson& name : broken) {
    const auto failed = name.is_string() ? lines.find(name.get<std::string>()) : lines.end();
    if (failed == lines.end() || !failed->is_array() || failed->empty() ||
        !std::all_of(failed->begin(), failed->end(),
                     [](const AnswerJson& l) { return l.is_string(); })) {
      return bad("lines: expected the failed lines of each broken property");
    }
    verdict.broken.push_back(name.get<std::string>());
    verdict.failed_lines[name.get<std::string>()] = failed->get<std::vector<std::string>>();
  }
  const AnswerJson& coverage = answer["coverage"];
  if (!coverage.is_object() || coverage.size() != coverage_groups().size()) {
    return bad("coverage: expected removal_paths, send_failures and route_health_causes");
  }
  for (const auto& group : coverage_groups()) {
    const auto counts = coverage.find(group);
    if (counts == coverage.end() || !counts->is_object()) return bad("coverage." + group);
    verdict.coverage[group];  // present when empty, as run_coverage writes it
    for (const auto& [name, count] : counts->items()) {
      if (!count.is_number_unsigned()) return bad("coverage." + group + "." + name);
      verdict.coverage[group][name] = count.get<std::uint64_t>();
    }
  }
  if (!answer["nearest"].is_object()) return bad("nearest: expected an object");
  for (const auto& [name, near] : answer["nearest"].items()) {
    if (!near.is_object() || !near.value("line", AnswerJson()).is_string() ||
        !near.value("measured", AnswerJson()).is_number() ||
        !near.value("bound", AnswerJson()).is_number() ||
        !near.value("margin", AnswerJson()).is_number()) {
      return bad("nearest." + name + ": expected line, measured, bound and margin");
    }
    verdict.nearest[name] =
        Nearness{near["line"].get<std::string>(), near["measured"].get<double>(),
                 near["bound"].get<double>(), near["margin"].get<double>()};
  }
  return verdict;
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

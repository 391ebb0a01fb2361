// File: a scenario's own expectations as the reports layer checks them, and the judgement of a
// run, shared by `nssim run` and each run of `nssim sweep`, so a sweep's per-seed verdict and
// figures are the ones `nssim run` gives.
#pragma once

#include <string>
#include <vector>

#include "cli/refusal.h"
#include "reports/expectations.h"
#include "reports/report_document.h"
#include "sim/analysis/result_figures.h"
#include "sim/scenario/scenario.h"

namespace nssim::cli {

// A Refusal unless every figure the scenario's expectations name (and every "predicted." value)
// is one some run's result.json can hold: the first that is not, as "<file>: expect[2]: unknown
// figure 'sends.failed.totl' (did you mean sends.failed.total?)", for exit code 2 before the run.
inline void check_expectation_figures(const sim::Scenario& scenario) {
  const auto check = [&](const std::vector<sim::Expectation>& list, const std::string& at,
                         bool in_sweep) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const sim::Expectation& e = list[i];
      const std::string where = scenario.file + ": " + at + "[" + std::to_string(i) + "]: ";
      if (auto why = sim::unknown_figure(e.figure, in_sweep)) {
        throw Refusal{where + "'" + e.figure + "': " + *why};
      }
      // A "predicted." value is resolved in the predicted bounds of the figure's own outage or
      // admin operation.
      if (e.value.rfind("predicted.", 0) == 0 && sim::unknown_figure("outages[0]." + e.value) &&
          sim::unknown_figure("admin[0]." + e.value)) {
        throw Refusal{where + "'" + e.value +
                      "': unknown predicted bound (the bounds are listed in reports/README.md)"};
      }
    }
  };
  check(scenario.expect, "expect", false);
  if (scenario.sweep) check(scenario.sweep->expect, "sweep.expect", true);
}

inline std::vector<reports::ExpectationInput> expectation_inputs(const sim::Scenario& scenario) {
  std::vector<reports::ExpectationInput> inputs;
  for (const auto& e : scenario.expect) inputs.push_back({e.figure, e.op, e.value, e.source});
  return inputs;
}

// A run's expectations judged and its report.json built: the one judgement of `nssim run` and of
// each run of `nssim sweep` (and so of `check` and `compare`).
struct JudgedRun {
  std::vector<reports::ExpectationVerdict> verdicts;
  nlohmann::json report;
};

inline JudgedRun judge_run(const sim::Scenario& scenario, const nlohmann::json& result) {
  const auto inputs = expectation_inputs(scenario);
  auto verdicts = reports::check_expectations(result, inputs);
  nlohmann::json report = reports::build_report(result, inputs, verdicts);
  return {std::move(verdicts), std::move(report)};
}

}  // namespace nssim::cli

// File: checks of a run's figures against a scenario's expectations. A figure is a path into
// result.json ("outages[0].producers.stale_route_ms.max"); a value is a number, or a
// "predicted.<path>" resolved in the predicted bounds of the same outage. Pure: JSON in, verdicts
// out.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nssim::reports {

struct ExpectationInput {
  std::string figure;
  std::string op;  // < <= > >= == !=
  std::string value;
  std::string source;  // as written in the scenario
};

struct ExpectationVerdict {
  std::string source;
  bool passed = false;
  std::optional<double> measured;  // absent when the figure is missing or null
  std::optional<double> expected;
  std::string message;  // one line: what held or what moved
};

// `measured op expected` for op one of < <= > >= == != (the loader admits no other).
bool compare_values(double measured, const std::string& op, double expected);

// A number as messages print it (shortest form: 135929, 0.5).
std::string number_text(double value);

// Looks up a dotted path with [index] steps; nullopt if a step is missing.
std::optional<nlohmann::json> figure_at(const nlohmann::json& result, const std::string& path);

std::vector<ExpectationVerdict> check_expectations(const nlohmann::json& result,
                                                   const std::vector<ExpectationInput>& inputs);

}  // namespace nssim::reports

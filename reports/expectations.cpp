// File: check_expectations (see expectations.h).
#include "reports/expectations.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace nssim::reports {

namespace {

// "predicted.x" next to "outages[2].y" means "outages[2].predicted.x" (likewise admin[i]).
std::optional<double> expected_value(const nlohmann::json& result, const ExpectationInput& input,
                                     std::string& unresolved) {
  if (input.value.rfind("predicted.", 0) != 0) return std::strtod(input.value.c_str(), nullptr);
  const auto close = input.figure.find(']');
  const bool in_entry =
      input.figure.rfind("outages[", 0) == 0 || input.figure.rfind("admin[", 0) == 0;
  if (!in_entry || close == std::string::npos) {
    unresolved = input.value + " needs a figure inside outages[i] or admin[i]";
    return std::nullopt;
  }
  const std::string path = input.figure.substr(0, close + 1) + "." + input.value;
  const auto value = figure_at(result, path);
  if (!value || !value->is_number()) {
    unresolved = path + " is not in the result";
    return std::nullopt;
  }
  return value->get<double>();
}

}  // namespace

std::string number_text(double value) {
  // Whole values (all of the millisecond figures) print in full, never as 1.23457e+06.
  if (value == std::floor(value) && std::fabs(value) < 1e15) {
    return std::to_string(static_cast<long long>(value));
  }
  std::ostringstream text;
  text << value;
  return text.str();
}

bool compare_values(double measured, const std::string& op, double expected) {
  if (op == "<") return measured < expected;
  if (op == "<=") return measured <= expected;
  if (op == ">") return measured > expected;
  if (op == ">=") return measured >= expected;
  if (op == "==") return measured == expected;
  return measured != expected;  // "!=", the loader admits nothing else
}

std::optional<nlohmann::json> figure_at(const nlohmann::json& result, const std::string& path) {
  const nlohmann::json* node = &result;
  std::size_t i = 0;
  while (i < path.size()) {
    if (path[i] == '.') ++i;
    if (path[i] == '[') {
      const std::size_t close = path.find(']', i);
      if (close == std::string::npos || !node->is_array()) return std::nullopt;
      const std::size_t index =
          std::strtoul(path.substr(i + 1, close - i - 1).c_str(), nullptr, 10);
      if (index >= node->size()) return std::nullopt;
      node = &(*node)[index];
      i = close + 1;
      continue;
    }
    std::size_t end = i;
    while (end < path.size() && path[end] != '.' && path[end] != '[') ++end;
    const std::string key = path.substr(i, end - i);
    if (!node->is_object() || !node->contains(key)) return std::nullopt;
    node = &(*node)[key];
    i = end;
  }
  return *node;
}

std::vector<ExpectationVerdict> check_expectations(const nlohmann::json& result,
                                                   const std::vector<ExpectationInput>& inputs) {
  std::vector<ExpectationVerdict> verdicts;
  for (const auto& input : inputs) {
    ExpectationVerdict verdict;
    verdict.source = input.source;
    std::string unresolved;
    verdict.expected = expected_value(result, input, unresolved);
    const auto figure = figure_at(result, input.figure);
    if (figure && figure->is_number()) verdict.measured = figure->get<double>();
    if (!figure) {
      verdict.message = input.figure + " is not in the result";
    } else if (!verdict.measured) {
      verdict.message = input.figure + " has no value (" + figure->dump() + ")";
    } else if (!verdict.expected) {
      verdict.message = unresolved;
    } else {
      verdict.passed = compare_values(*verdict.measured, input.op, *verdict.expected);
      verdict.message = input.figure + " = " + number_text(*verdict.measured) + ", expected " +
                        input.op + " " + number_text(*verdict.expected);
      if (!verdict.passed) {
        verdict.message += " (off by " + number_text(*verdict.measured - *verdict.expected) + ")";
      }
    }
    verdicts.push_back(std::move(verdict));
  }
  return verdicts;
}

}  // namespace nssim::reports

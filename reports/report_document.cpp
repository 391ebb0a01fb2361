// File: build_report (see report_document.h).
#include "reports/report_document.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>

namespace nssim::reports {

namespace {

// Whole numbers stay integers so report.json reads "135929", not "135929.0".
nlohmann::json number_or_null(const std::optional<double>& value) {
  if (!value) return nullptr;
  const double v = *value;
  if (std::isfinite(v) && std::trunc(v) == v && std::fabs(v) < 9.0e15) {
    return static_cast<std::int64_t>(v);
  }
  return v;
}

nlohmann::json expectation_json(const ExpectationInput& input, const ExpectationVerdict& verdict) {
  return {{"source", input.source},
          {"figure", input.figure},
          {"op", input.op},
          {"value", input.value},
          {"passed", verdict.passed},
          {"measured", number_or_null(verdict.measured)},
          {"expected", number_or_null(verdict.expected)},
          {"message", verdict.message}};
}

}  // namespace

nlohmann::json build_report(const nlohmann::json& result,
                            const std::vector<ExpectationInput>& inputs,
                            const std::vector<ExpectationVerdict>& verdicts) {
  if (inputs.size() != verdicts.size()) {
    throw std::invalid_argument("build_report: " + std::to_string(inputs.size()) +
                                " expectations but " + std::to_string(verdicts.size()) +
                                " verdicts");
  }
  nlohmann::json report = nlohmann::json::object();
  for (const auto& [key, value] : result.items()) {
    if (key != "schema") report[key] = value;
  }
  report["schema"] = kReportSchema;
  report["result_schema"] = result.value("schema", std::string("nssim.result/1"));
  report["expectations"] = nlohmann::json::array();
  bool all_passed = true;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    report["expectations"].push_back(expectation_json(inputs[i], verdicts[i]));
    all_passed = all_passed && verdicts[i].passed;
  }
  report["verdict"] = inputs.empty() ? "no_expectations" : (all_passed ? "pass" : "fail");
  return report;
}

}  // namespace nssim::reports

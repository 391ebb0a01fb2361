// File: the report document (schema nssim.report/1): a run's result.json plus the verdict of every
// expectation, the single input of every renderer (Markdown, JUnit, CSV, HTML). Pure: JSON in,
// JSON out.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "reports/expectations.h"

namespace nssim::reports {

inline constexpr const char* kReportSchema = "nssim.report/1";

// Copies every top-level field of `result` except "schema", records the result's schema as
// "result_schema", and adds "expectations" (one entry per input, in order) and "verdict"
// ("pass", "fail" or "no_expectations"). `inputs` and `verdicts` are parallel, as
// check_expectations returns them; a size mismatch is a programmer error (std::invalid_argument).
nlohmann::json build_report(const nlohmann::json& result,
                            const std::vector<ExpectationInput>& inputs,
                            const std::vector<ExpectationVerdict>& verdicts);

}  // namespace nssim::reports

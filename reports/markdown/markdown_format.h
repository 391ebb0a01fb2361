// File: the small formatting rules of report.md: how times and counts read, how a table is laid
// out, and how a cell is escaped so a stray '|' cannot break a row. Shared by the Markdown
// sections so every table follows the same rules.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/duration_text.h"
#include "reports/report_field.h"

namespace nssim::reports::markdown {

// A number as JSON writes it (integers without ".0"); "n/a" for null or a missing field.
std::string number_text(const nlohmann::json& value);

// The value of a number, 0 for anything else (for sorting and "is there any").
double number_or_zero(const nlohmann::json& value);

// A string as is, "" for null, anything else as JSON text.
std::string string_text(const nlohmann::json& value);

// A verdict ("pass", "fail", anything else) as the reports write it: PASS, FAIL, no expectations.
std::string verdict_text(const std::string& verdict);

// "90.0 s .. 125.0 s" from {min_ms, max_ms}; "n/a" when there is no prediction.
std::string range_text(const nlohmann::json& bounds);

// "send_timeout_budget 3, no_route 1": the non-zero causes of a failed-by-cause object
// ({"total", <cause>: count}).
std::string failed_causes_text(const nlohmann::json& failed);

// Escapes '|' and folds line breaks, so the text stays in its table cell.
std::string escape_cell(const std::string& text);

// A GitHub-flavoured table; every cell is escaped. Ends with an empty line.
std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows);

}  // namespace nssim::reports::markdown

// File: number texts of the comparison (see compare_report_format.h) and format_change
// (compare_report.h).
#include "reports/compare/compare_report_format.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "reports/compare/compare_report.h"

namespace nssim::reports {

namespace compare_format {

std::string value_text(const nlohmann::json& value) {
  if (value.is_null()) return "null";
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_number() || value.is_number_integer()) return value.dump();
  std::ostringstream text;
  text << std::setprecision(6) << value.get<double>();
  return text.str();
}

std::string difference_text(const nlohmann::json& difference) {
  if (!difference.is_number()) return "";
  const bool positive = difference.is_number_integer() ? difference.get<std::int64_t>() > 0
                                                       : difference.get<double>() > 0;
  return (positive ? "+" : "") + value_text(difference);
}

std::string relative_text(const nlohmann::json& relative) {
  if (!relative.is_number()) return "";
  const double percent = relative.get<double>() * 100.0;
  if (percent == 0) return "0.0%";
  std::ostringstream text;
  // The sign comes from the value, not the rounding, so a tiny move still shows its direction.
  text << (percent < 0 ? "-" : "+") << std::fixed << std::setprecision(1) << std::fabs(percent)
       << "%";
  return text.str();
}

}  // namespace compare_format

std::string format_change(const nlohmann::json& row) {
  using namespace compare_format;
  std::string line = row["figure"].get<std::string>() + ": " + value_text(row["a"]) + " -> " +
                     value_text(row["b"]);
  const std::string difference = difference_text(row["difference"]);
  const std::string relative = relative_text(row["relative"]);
  if (!difference.empty())
    line += " (" + difference + (relative.empty() ? "" : ", " + relative) + ")";
  return line;
}

}  // namespace nssim::reports

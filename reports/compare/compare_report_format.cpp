// File: number texts of the comparison (see compare_report_format.h) and format_change
// (compare_report.h).
#include "reports/compare/compare_report_format.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "reports/compare/compare_report.h"
#include "reports/duration_text.h"
#include "reports/sweep/sweep_figures.h"

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

std::string figure_text(const std::string& figure, const nlohmann::json& value) {
  if (value.is_null()) return "none";
  if (value.is_number() && is_time_figure(figure)) return duration_text(value, "n/a");
  const bool rate = figure.size() > 6 && figure.compare(figure.size() - 6, 6, "_per_s") == 0;
  return value_text(value) + (rate && value.is_number() ? "/s" : "");
}

std::string figure_difference_text(const std::string& figure, const nlohmann::json& difference) {
  if (!difference.is_number()) return "";
  const bool positive = difference.get<double>() > 0;
  return (positive ? "+" : "") + figure_text(figure, difference);
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
  const std::string figure = row["figure"].get<std::string>();
  std::string line =
      figure + ": " + figure_text(figure, row["a"]) + " -> " + figure_text(figure, row["b"]);
  const std::string difference = figure_difference_text(figure, row["difference"]);
  const std::string relative = relative_text(row["relative"]);
  if (!difference.empty())
    line += " (" + difference + (relative.empty() ? "" : ", " + relative) + ")";
  return line;
}

bool practical_move(const std::string& figure, double from, double to) {
  const bool rate = figure.size() > 6 && figure.compare(figure.size() - 6, 6, "_per_s") == 0;
  const double floor = is_time_figure(figure) ? 1000.0 : rate ? 0.0 : 1.0;
  const double move = std::fabs(to - from);
  return move > 0 && move >= floor && move >= 0.01 * std::fabs(from);
}

std::vector<std::pair<std::string, std::string>> headline_figures(std::size_t outages) {
  std::vector<std::pair<std::string, std::string>> figures = {
      {"stale route, longest of the run", "route_health.stale.max"},
      {"failed sends", "sends.failed.total"}};
  for (std::size_t i = 0; i < outages; ++i) {
    const std::string prefix = "outages[" + std::to_string(i) + "].";
    const std::string at = " (outages[" + std::to_string(i) + "])";
    figures.push_back({"last NameServer drop" + at, prefix + "nameserver_drop_ms.max"});
    figures.push_back({"slowest producer recovery" + at, prefix + "recovery.producer_ms.max"});
  }
  return figures;
}

bool is_route_load_of_one_nameserver(const std::string& figure) {
  static const std::string kPrefix = "nameserver_load.per_nameserver.";
  static const std::string kSuffix = ".by_code.GET_ROUTEINFO_BY_TOPIC.mean_per_s";
  return figure.size() > kPrefix.size() + kSuffix.size() && figure.rfind(kPrefix, 0) == 0 &&
         figure.compare(figure.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0 &&
         figure.find('*') == std::string::npos;
}

std::string format_headline(const nlohmann::json& entry) {
  using namespace compare_format;
  const std::string figure = entry["figure"].get<std::string>();
  // Over seeds a side is a distribution, read at its p50; a single run's side is one value.
  const bool seeds = entry["a"].is_object();
  const nlohmann::json& from = seeds ? entry["a"]["p50"] : entry["a"];
  const nlohmann::json& to = seeds ? entry["b"]["p50"] : entry["b"];
  std::string text = entry["what"].get<std::string>() + ": " + (seeds ? "p50 " : "") +
                     figure_text(figure, from) + " -> " + figure_text(figure, to);
  if (from.is_number() && to.is_number() && from.get<double>() != 0) {
    text += " (" +
            relative_text((to.get<double>() - from.get<double>()) / std::fabs(from.get<double>())) +
            ")";
  }
  if (seeds && entry["a"]["never"] != entry["b"]["never"]) {
    text += ", none in " + value_text(entry["a"]["never"]) + " -> " +
            value_text(entry["b"]["never"]) + " seeds";
  }
  if (entry["changed"] == true) return text + ": changed";
  if (seeds) {
    return text + (entry["significant"] == true ? ": beyond seed noise, too small to matter"
                                                : ": within seed noise");
  }
  return text + (from != to ? ": too small to matter" : ": the same");
}

}  // namespace nssim::reports

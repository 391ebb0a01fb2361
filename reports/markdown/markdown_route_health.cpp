// File: route health in report.md: the table of stale, lost and missing windows (per outage and
// for the whole run), the whole run's section with the first windows of each list, and the words
// for a NameServer's outcome in the detection table.
#include <algorithm>
#include <cstdint>

#include "reports/markdown/markdown_format.h"
#include "reports/markdown/markdown_sections.h"
#include "reports/route_health_kinds.h"

namespace nssim::reports::markdown {

namespace {

// How many windows of each list report.md shows; result.json holds more (reports/README.md).
constexpr std::size_t kListedWindows = 20;

// "broker_down 15, broker_paused 2", in the JSON's (alphabetical) order.
std::string causes_text(const nlohmann::json& by_cause) {
  std::string text;
  for (const auto& [cause, count] : by_cause.items()) {
    text += (text.empty() ? "" : ", ") + cause + " " + number_text(count);
  }
  return text;
}

// A statistic of the ended windows; "n/a" when none ended ("never" would say the window did not
// happen).
std::string ended_text(const nlohmann::json& ms) {
  return ms.is_number() ? duration_text(ms, "never") : "n/a";
}

std::string lasted_text(const nlohmann::json& window) {
  const auto& start = field(window, "start_ms");
  const auto& end = field(window, "end_ms");
  if (!start.is_number() || !end.is_number()) return "open";
  return duration_text(nlohmann::json(end.get<std::int64_t>() - start.get<std::int64_t>()),
                       "never");
}

std::vector<std::string> window_cells(const nlohmann::json& window) {
  const auto& end = field(window, "end_ms");
  return {duration_text(field(window, "start_ms"), "never"),
          end.is_number() ? duration_text(end, "never") : "open at the end", lasted_text(window),
          string_text(field(window, "cause")), string_text(field(window, "end_cause"))};
}

// "The first 20 of 180, by start; result.json lists up to the first 1000." when fewer are shown.
std::string listed_note(std::int64_t total, std::size_t listed) {
  if (total <= static_cast<std::int64_t>(listed)) return "";
  return "The first " + std::to_string(listed) + " of " + std::to_string(total) +
         ", by start; result.json lists up to the first 1000.\n\n";
}

std::string route_windows_part(const nlohmann::json& health) {
  const auto& windows = field(health, "route_windows");
  std::string text = "### Producers' stale and lost routes\n\n";
  if (!windows.is_array() || windows.empty()) return text + "No producer had either.\n\n";
  const std::size_t listed = std::min(kListedWindows, windows.size());
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& window = windows[i];
    std::vector<std::string> row = {
        string_text(field(window, "producer")), string_text(field(window, "broker")),
        string_text(field(window, "broker_node")), string_text(field(window, "kind"))};
    for (auto& cell : window_cells(window)) row.push_back(std::move(cell));
    rows.push_back(std::move(row));
  }
  return text +
         table({"producer", "broker", "node", "kind", "start", "end", "lasted", "began because",
                "ended because"},
               rows) +
         listed_note(
             route_windows_of(field(health, "stale")) + route_windows_of(field(health, "lost")),
             listed);
}

std::string missing_windows_part(const nlohmann::json& health) {
  const auto& windows = field(health, "missing_windows");
  std::string text = "### Brokers missing from a NameServer's routes\n\n";
  if (!windows.is_array() || windows.empty()) {
    return text + "No NameServer was missing a broker it could use.\n\n";
  }
  const std::size_t listed = std::min(kListedWindows, windows.size());
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& window = windows[i];
    std::vector<std::string> row = {string_text(field(window, "nameserver")),
                                    string_text(field(window, "broker")),
                                    string_text(field(window, "broker_node"))};
    for (auto& cell : window_cells(window)) row.push_back(std::move(cell));
    rows.push_back(std::move(row));
  }
  return text +
         table({"NameServer", "broker", "node", "start", "end", "lasted", "began because",
                "ended because"},
               rows) +
         listed_note(route_windows_of(field(health, "missing")), listed);
}

}  // namespace

std::string route_health_table(const nlohmann::json& health) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& kind : kRouteWindowKinds) {
    const auto& stats = field(health, kind.key);
    rows.push_back({kind.caption, std::to_string(route_windows_of(stats)),
                    number_text(field(stats, "never")), ended_text(field(stats, "min")),
                    ended_text(field(stats, "p50")), ended_text(field(stats, "p99")),
                    ended_text(field(stats, "max")), ended_text(field(stats, "total_ms")),
                    causes_text(field(stats, "by_cause"))});
  }
  return table({"window", "windows", "still open", "min", "p50", "p99", "max", "total time",
                "began because"},
               rows);
}

std::string route_health_section(const nlohmann::json& health) {
  if (!health.is_object()) return "";
  return "## Route health\n\nA stale route holds a broker the producer cannot use; a lost route "
         "lacks one it could use and held before; a missing broker is one a NameServer could use "
         "but did not list. min to max are over the windows that ended; total time adds the open "
         "ones up to the run's end.\n\n" +
         route_health_table(health) + route_windows_part(health) + missing_windows_part(health);
}

std::string outcome_text(const nlohmann::json& entry) {
  const std::string outcome = string_text(field(entry, "outcome"));
  const std::string unreachable = duration_text(field(entry, "unreachable_ms"), "never");
  if (outcome == "kept_reachable") return "kept: reachable";
  if (outcome == "nameserver_down") return "kept: the NameServer was down for part of it";
  if (outcome == "kept_within_rules") {
    return "kept: back within the rules (unreachable for " + unreachable + ")";
  }
  if (outcome == "missed") return "**missed**: unreachable for " + unreachable + ", kept";
  return outcome;
}

}  // namespace nssim::reports::markdown

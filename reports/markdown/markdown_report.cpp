// File: render_markdown (see markdown_report.h): the title, what ran, the outages, the whole
// run's sends, its route health, the clients' schedulers, the NameServers' disagreement and the
// expectations, in that order.
#include "reports/markdown/markdown_report.h"

#include <algorithm>
#include <map>
#include <vector>

#include "reports/markdown/markdown_format.h"
#include "reports/markdown/markdown_sections.h"

namespace nssim::reports {

namespace {

using markdown::number_or_zero;
using markdown::number_text;
using markdown::string_text;
using markdown::table;
using markdown::verdict_text;

// How many of the longest disagreement intervals are listed.
constexpr std::size_t kLongestIntervals = 5;

// "1 fault", "3 faults".
std::string counted(std::size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

std::string title(const nlohmann::json& report) {
  const auto& scenario = field(report, "scenario");
  std::string text = "# " + string_text(field(scenario, "name")) + " (profile " +
                     string_text(field(scenario, "profile")) + ", seed " +
                     number_text(field(scenario, "seed")) +
                     "): " + verdict_text(string_text(field(report, "verdict"))) + "\n\n";
  const std::string description = string_text(field(scenario, "description"));
  return description.empty() ? text : text + description + "\n\n";
}

// "3 NameServers, 4 brokers, 20 producers" from nodes[].role, in a fixed order.
std::string node_counts(const nlohmann::json& nodes) {
  std::map<std::string, std::size_t> counts;
  for (const auto& node : nodes) ++counts[string_text(field(node, "role"))];
  std::string text;
  for (const auto& [role, label] : std::vector<std::pair<std::string, std::string>>{
           {"nameserver", "NameServer"}, {"broker", "broker"}, {"producer", "producer"}}) {
    text += (text.empty() ? "" : ", ") + counted(counts[role], label);
  }
  return text;
}

std::string run_lines(const nlohmann::json& report) {
  const auto& scenario = field(report, "scenario");
  std::string text = "Simulated " + duration_text(field(scenario, "duration_ms"), "never") +
                     " of `" + string_text(field(scenario, "file")) +
                     "`: " + node_counts(field(report, "nodes")) + ", " +
                     counted(field(report, "faults").size(), "fault") + ".\n\n";
  if (field(scenario, "command").is_string()) {
    text += "Repeat it: `" + string_text(field(scenario, "command")) + "`\n\n";
  }
  std::string settings;
  for (const auto& [name, value] : field(report, "settings").items()) {
    settings += (settings.empty() ? "" : ", ") + ("`" + name + "=" + value.dump() + "`");
  }
  return settings.empty() ? text : text + "Settings: " + settings + ".\n\n";
}

std::string outages_section(const nlohmann::json& outages) {
  std::string text = "## Outages\n\n";
  if (outages.empty()) return text + "No fault touched a broker.\n\n";
  for (std::size_t i = 0; i < outages.size(); ++i) {
    text += markdown::outage_section(outages[i], i);
  }
  return text;
}

std::string disagreement_section(const nlohmann::json& disagreement) {
  std::string text = "## NameServer disagreement\n\n";
  const auto& count = field(disagreement, "count");
  if (number_or_zero(count) == 0) {
    return text + "The running NameServers' route views never differed.\n\n";
  }
  text += "The running NameServers' route views differed " +
          counted(static_cast<std::size_t>(number_or_zero(count)), "time") + ", " +
          duration_text(field(disagreement, "total_ms"), "never") + " in total.\n\n";
  std::vector<nlohmann::json> intervals;
  for (const auto& interval : field(disagreement, "intervals")) intervals.push_back(interval);
  // Longest first; equal lengths in time order, so the listing is the same on every machine.
  std::stable_sort(
      intervals.begin(), intervals.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
        return number_or_zero(field(a, "duration_ms")) > number_or_zero(field(b, "duration_ms"));
      });
  if (intervals.size() > kLongestIntervals) intervals.resize(kLongestIntervals);
  std::vector<std::vector<std::string>> rows;
  for (const auto& interval : intervals) {
    rows.push_back({duration_text(field(interval, "start_ms"), "never"),
                    duration_text(field(interval, "end_ms"), "never"),
                    duration_text(field(interval, "duration_ms"), "never")});
  }
  if (rows.empty()) return text;
  return text + "The longest:\n\n" + table({"from", "to", "lasted"}, rows);
}

std::string expectations_section(const nlohmann::json& expectations) {
  std::string text = "## Expectations\n\n";
  if (expectations.empty()) return text + "The scenario sets no expectations.\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& e : expectations) {
    rows.push_back({field(e, "passed") == true ? "pass" : "FAIL",
                    "`" + string_text(field(e, "source")) + "`", number_text(field(e, "measured")),
                    number_text(field(e, "expected")), string_text(field(e, "message"))});
  }
  return text + table({"result", "expectation", "measured", "expected", "message"}, rows);
}

// Where the load went: attempts per broker group (a retried send counts at each broker it tried),
// and, when the scenario has more than one producer set, the sends of each.
std::string load_section(const nlohmann::json& report) {
  const auto& brokers = field(report, "sends_by_broker");
  const auto& groups = field(report, "sends_by_producer_group");
  if (!brokers.is_array() || brokers.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& b : brokers) {
    const auto& failed = field(b, "failed");
    rows.push_back({string_text(field(b, "broker_name")), number_text(field(b, "attempts")),
                    number_text(field(b, "ok")), number_text(field(failed, "total")),
                    markdown::failed_causes_text(failed)});
  }
  std::string text = "## Send attempts by broker group\n\n" +
                     table({"broker group", "attempts", "ok", "failed", "failed by cause"}, rows);
  if (!groups.is_array() || groups.size() < 2) return text;
  rows.clear();
  for (const auto& g : groups) {
    const auto& failed = field(g, "failed");
    rows.push_back({string_text(field(g, "producer_group")), number_text(field(g, "total")),
                    number_text(field(g, "ok")), number_text(field(failed, "total")),
                    markdown::failed_causes_text(failed)});
  }
  return text + "## Sends by producer group\n\n" +
         table({"producer group", "sends", "ok", "failed", "failed by cause"}, rows);
}

}  // namespace

std::string render_markdown(const nlohmann::json& report) {
  std::string text = title(report) + run_lines(report) + outages_section(field(report, "outages"));
  text += markdown::admin_section(field(report, "admin"));
  text += "## Sends over the whole run\n\n" + markdown::sends_section(field(report, "sends"));
  text += load_section(report);
  text += markdown::route_health_section(field(report, "route_health"));
  text += markdown::client_scheduler_section(field(report, "client_scheduler"));
  text += markdown::broker_clients_section(field(report, "broker_clients"));
  text += markdown::consumers_section(field(report, "consumers"));
  text +=
      markdown::server_load_section(field(report, "nameserver_load"), field(report, "broker_load"));
  text += disagreement_section(field(report, "nameserver_disagreement"));
  text += expectations_section(field(report, "expectations"));
  // One newline at the end, as a text file should have.
  while (text.size() >= 2 && text[text.size() - 1] == '\n' && text[text.size() - 2] == '\n') {
    text.pop_back();
  }
  return text;
}

}  // namespace nssim::reports

// File: the per-outage and sends sections of report.md (see markdown_sections.h). Each figure is
// shown beside the bound RocketMQ's rules predict for it, so a reader sees at once what moved.
#include <string>
#include <vector>

#include "reports/markdown/markdown_format.h"
#include "reports/markdown/markdown_sections.h"
#include "reports/prediction_text.h"

namespace nssim::reports::markdown {

namespace {

std::string join(const nlohmann::json& names) {
  std::string text;
  for (const auto& name : names) {
    if (!text.empty()) text += ", ";
    text += string_text(name);
  }
  return text;
}

std::string heading(const nlohmann::json& outage, std::size_t position) {
  // Numbered as the figures are, outages[i], with the fault as the file numbers it, faults[j].
  std::string text = "### outages[" + std::to_string(position) + "]: faults[" +
                     number_text(field(outage, "fault")) + "] " +
                     string_text(field(outage, "kind")) + " of " + join(field(outage, "brokers")) +
                     " at " + duration_text(field(outage, "start_ms"), "never");
  const auto& end = field(outage, "end_ms");
  text += end.is_number() ? ", back at " + duration_text(end, "never")
                          : ", lasting to the end of the run";
  return text + "\n\n";
}

// The predicted window of `key`, or why the fault has none (prediction_text.h).
std::string predicted_range(const nlohmann::json& outage, const char* key) {
  const auto& predicted = field(outage, "predicted");
  const std::string none = not_predicted_text(predicted);
  return none.empty() ? range_text(field(predicted, key)) : none;
}

std::string detection_part(const nlohmann::json& outage) {
  const std::string predicted = predicted_range(outage, "nameserver_removal_ms");
  std::vector<std::vector<std::string>> rows;
  for (const auto& entry : field(outage, "nameservers")) {
    rows.push_back({string_text(field(entry, "nameserver")),
                    string_text(field(entry, "broker_addr")),
                    duration_text(field(entry, "delay_ms"), "never"),
                    string_text(field(entry, "path")), predicted, outcome_text(entry)});
  }
  std::string text = "#### Detection by the NameServers\n\n";
  if (rows.empty()) return text + "No NameServer held a route to these brokers.\n\n";
  return text +
         table({"NameServer", "broker addr", "dropped after", "path", "predicted", "outcome"},
               rows);
}

std::string never_text(const nlohmann::json& stale, const nlohmann::json& reasons) {
  std::string text = number_text(field(stale, "never"));
  std::string listed;
  for (const auto& [reason, count] : reasons.items()) {
    listed += (listed.empty() ? "" : ", ") + reason + ": " + count.dump();
  }
  return listed.empty() ? text : text + " (" + listed + ")";
}

std::string inside_text(const nlohmann::json& max, const nlohmann::json& bounds) {
  const auto& low = field(bounds, "min_ms");
  const auto& high = field(bounds, "max_ms");
  if (!max.is_number() || !low.is_number() || !high.is_number()) return "n/a";
  const double value = max.get<double>();
  return value >= low.get<double>() && value <= high.get<double>() ? "yes" : "no";
}

std::string producers_part(const nlohmann::json& outage) {
  const auto& producers = field(outage, "producers");
  const auto& stale = field(producers, "stale_route_ms");
  const auto& bounds = field(field(outage, "predicted"), "producer_stale_route_ms");
  const std::vector<std::string> row = {number_text(field(producers, "affected")),
                                        number_text(field(stale, "count")),
                                        never_text(stale, field(producers, "never_reasons")),
                                        duration_text(field(stale, "min"), "n/a"),
                                        duration_text(field(stale, "p50"), "n/a"),
                                        duration_text(field(stale, "p99"), "n/a"),
                                        duration_text(field(stale, "max"), "n/a"),
                                        predicted_range(outage, "producer_stale_route_ms"),
                                        inside_text(field(stale, "max"), bounds)};
  return "#### Producers' stale route (fault until their publish info lost the group)\n\n" +
         table({"affected", "dropped it", "never", "min", "p50", "p99", "max", "predicted",
                "max inside prediction"},
               {row});
}

std::string route_health_part(const nlohmann::json& outage) {
  const auto& health = field(outage, "route_health");
  if (!health.is_object()) return "";
  return "#### Route health (the windows this outage opened)\n\n" + route_health_table(health);
}

std::vector<std::string> recovery_row(const std::string& who, const nlohmann::json& stats) {
  return {who,
          number_text(field(stats, "count")),
          number_text(field(stats, "never")),
          duration_text(field(stats, "min"), "never"),
          duration_text(field(stats, "p50"), "never"),
          duration_text(field(stats, "max"), "never")};
}

std::string recovery_part(const nlohmann::json& outage) {
  std::string text = "#### Recovery\n\n";
  const auto& end = field(outage, "end_ms");
  if (!end.is_number()) return text + "The fault lasts to the end of the run: no recovery.\n\n";
  const auto& recovery = field(outage, "recovery");
  return text + "Time from the fault's end at " + duration_text(end, "never") +
         " until the broker was back in the routes.\n\n" +
         table({"who", "back", "never", "min", "p50", "max"},
               {recovery_row("NameServers", field(recovery, "nameserver_ms")),
                recovery_row("producers", field(recovery, "producer_ms"))});
}

}  // namespace

std::string sends_section(const nlohmann::json& sends) {
  std::vector<std::string> header = {"sends",
                                     "ok",
                                     "failed",
                                     "attempts",
                                     "retries succeeded",
                                     "copies stored twice",
                                     "failed, but stored"};
  std::vector<std::string> row = {number_text(field(sends, "total")),
                                  number_text(field(sends, "ok")),
                                  number_text(field(field(sends, "failed"), "total")),
                                  number_text(field(sends, "attempts")),
                                  number_text(field(sends, "retries_succeeded")),
                                  number_text(field(sends, "duplicates_stored")),
                                  number_text(field(sends, "failed_but_stored"))};
  const auto& latency = field(sends, "latency_ms");
  if (latency.is_object()) {
    for (const char* key : {"p50", "p99", "max"}) {
      header.push_back(std::string("latency ") + key);
      row.push_back(duration_text(field(latency, key), "n/a"));
    }
  }
  std::string text = table(header, {row});
  std::vector<std::vector<std::string>> causes;
  for (const auto& [cause, count] : field(sends, "failed").items()) {
    if (cause != "total" && number_or_zero(count) != 0) {
      causes.push_back({cause, count.dump()});
    }
  }
  if (causes.empty()) return text + "No send failed.\n\n";
  causes.push_back({"total", number_text(field(field(sends, "failed"), "total"))});
  return text + table({"failed by cause", "sends"}, causes);
}

std::string outage_section(const nlohmann::json& outage, std::size_t position) {
  return heading(outage, position) + detection_part(outage) + producers_part(outage) +
         route_health_part(outage) + "#### Sends that started in the outage window\n\n" +
         sends_section(field(outage, "sends")) + recovery_part(outage);
}

}  // namespace nssim::reports::markdown

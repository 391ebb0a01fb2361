// File: render_timeseries_csv (see timeseries_csv.h).
#include "reports/timeseries_csv.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <utility>
#include <vector>

#include "reports/report_field.h"

namespace nssim::reports {

namespace {

// How many brokers one NameServer listed from each instant on: (ms, count) in time order.
using RouteSteps = std::vector<std::pair<std::int64_t, std::int64_t>>;

std::int64_t integer_or_zero(const nlohmann::json& value) {
  return value.is_number() ? value.get<std::int64_t>() : 0;
}

// Quotes a field only when CSV needs it, so plain names stay plain.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

// An interval [start_ms, end_ms) adds one broker at its start and removes it at its end; a null
// end means the broker stayed to the end of the run.
RouteSteps route_steps(const nlohmann::json& brokers, const std::string& nameserver) {
  std::vector<std::pair<std::int64_t, std::int64_t>> deltas;
  for (const auto& broker : brokers) {
    for (const auto& routes : field(broker, "in_routes")) {
      if (field(routes, "nameserver") != nameserver) continue;
      for (const auto& interval : field(routes, "intervals")) {
        deltas.emplace_back(integer_or_zero(field(interval, "start_ms")), 1);
        const auto& end = field(interval, "end_ms");
        if (end.is_number()) deltas.emplace_back(end.get<std::int64_t>(), -1);
      }
    }
  }
  std::sort(deltas.begin(), deltas.end());
  RouteSteps steps;
  std::int64_t count = 0;
  for (const auto& [at_ms, delta] : deltas) {
    count += delta;
    if (!steps.empty() && steps.back().first == at_ms) {
      steps.back().second = count;
    } else {
      steps.emplace_back(at_ms, count);
    }
  }
  return steps;
}

std::int64_t brokers_at(const RouteSteps& steps, std::int64_t at_ms) {
  const auto after =
      std::upper_bound(steps.begin(), steps.end(), at_ms,
                       [](std::int64_t ms, const std::pair<std::int64_t, std::int64_t>& step) {
                         return ms < step.first;
                       });
  return after == steps.begin() ? 0 : std::prev(after)->second;
}

std::vector<std::string> failure_causes(const nlohmann::json& report) {
  std::vector<std::string> causes;
  for (const auto& [cause, count] : field(field(report, "sends"), "failed").items()) {
    if (cause != "total") causes.push_back(cause);
  }
  return causes;
}

}  // namespace

std::string render_timeseries_csv(const nlohmann::json& report) {
  const auto causes = failure_causes(report);
  const auto& timelines = field(report, "timelines");
  std::vector<std::pair<std::string, RouteSteps>> routes;
  for (const auto& nameserver : field(timelines, "nameservers")) {
    const auto& node = field(nameserver, "node");
    const std::string name = node.is_string() ? node.get<std::string>() : node.dump();
    routes.emplace_back(name, route_steps(field(timelines, "brokers"), name));
  }

  std::string csv = "t_s,ok,failed_total";
  for (const auto& cause : causes) csv += "," + csv_field("failed_" + cause);
  csv += ",stale_producers,lost_producers";
  for (const auto& [name, steps] : routes) csv += "," + csv_field("routes_" + name);
  csv += "\n";

  for (const auto& second : field(report, "timeseries")) {
    const std::int64_t t_s = integer_or_zero(field(second, "t_s"));
    const auto& failed = field(second, "failed");
    std::int64_t failed_total = 0;
    for (const auto& [cause, count] : failed.items()) failed_total += integer_or_zero(count);
    csv += std::to_string(t_s) + "," + std::to_string(integer_or_zero(field(second, "ok"))) + "," +
           std::to_string(failed_total);
    for (const auto& cause : causes)
      csv += "," + std::to_string(integer_or_zero(field(failed, cause)));
    csv += "," + std::to_string(integer_or_zero(field(second, "stale_producers")));
    csv += "," + std::to_string(integer_or_zero(field(second, "lost_producers")));
    for (const auto& [name, steps] : routes)
      csv += "," + std::to_string(brokers_at(steps, t_s * 1000));
    csv += "\n";
  }
  return csv;
}

}  // namespace nssim::reports

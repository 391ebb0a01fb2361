// File: seed_record_of and the seeds.jsonl line (see sweep_figures.h).
#include "reports/sweep/sweep_figures.h"

#include <cmath>
#include <set>
#include <vector>

#include "reports/report_field.h"

namespace nssim::reports {

namespace {

using nlohmann::json;

// Subtrees that are lists of items, predictions, or counts keyed by what happened: their leaves
// are not one figure per run.
const std::set<std::string> kSkippedSubtrees = {
    "per_producer", "intervals",     "predicted",       "never_reasons", "by_cause",
    "end_causes",   "route_windows", "missing_windows", "per_client",    "heartbeats_by_broker",
    "removals",     "per_broker",    "longest_stalls"};
// Leaves that say where the run placed something, or how it was measured, not what it measured.
const std::set<std::string> kPlacementLeaves = {"fault",     "start_ms",      "end_ms",
                                                "at_ms",     "dropped_at_ms", "back_at_ms",
                                                "bucket_ms", "owned_from_ms"};

void flatten(const json& node, const std::string& path, const std::string& key,
             std::map<std::string, std::optional<double>>& figures) {
  if (node.is_object()) {
    for (const auto& [child, value] : node.items()) {
      if (kSkippedSubtrees.count(child) != 0) continue;
      flatten(value, path + "." + child, child, figures);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      flatten(node[i], path + "[" + std::to_string(i) + "]", key, figures);
    }
  } else if (kPlacementLeaves.count(key) == 0 && (node.is_number() || node.is_null())) {
    figures[path] = node.is_number() ? std::optional<double>(node.get<double>()) : std::nullopt;
  }
}

bool inside(const json& value, const json& bounds) {
  if (!value.is_number()) return false;
  const double v = value.get<double>();
  return v >= field(bounds, "min_ms").get<double>() && v <= field(bounds, "max_ms").get<double>();
}

// Every NameServer dropped the broker inside the predicted removal window.
bool removal_inside(const json& outage, const json& bounds) {
  const auto& drops = field(outage, "nameservers");
  if (!drops.is_array() || drops.empty()) return false;
  for (const auto& drop : drops) {
    if (!inside(field(drop, "delay_ms"), bounds)) return false;
  }
  return true;
}

// Every affected producer let go of the route inside the predicted stale-route window.
bool stale_inside(const json& outage, const json& bounds) {
  const auto& stale = field(field(outage, "producers"), "stale_route_ms");
  return field(stale, "never") == 0 && inside(field(stale, "min"), bounds) &&
         inside(field(stale, "max"), bounds);
}

void add_within_predicted(const json& outage, const std::string& path,
                          std::map<std::string, std::optional<double>>& figures) {
  const auto& predicted = field(outage, "predicted");
  if (!predicted.is_object()) return;
  const auto& removal = field(predicted, "nameserver_removal_ms");
  const auto& stale = field(predicted, "producer_stale_route_ms");
  if (removal.is_object()) {
    figures[path + ".within_predicted.nameserver_removal_ms"] =
        removal_inside(outage, removal) ? 1 : 0;
  }
  if (stale.is_object()) {
    figures[path + ".within_predicted.producer_stale_route_ms"] =
        stale_inside(outage, stale) ? 1 : 0;
  }
}

json outage_context(const json& outage, std::size_t index) {
  return {{"index", index},
          {"fault", field(outage, "fault")},
          {"kind", field(outage, "kind")},
          {"brokers", field(outage, "brokers")},
          {"start_ms", field(outage, "start_ms")},
          {"end_ms", field(outage, "end_ms")},
          {"predicted", field(outage, "predicted")}};
}

bool ends_in_ms(const std::string& segment) {
  return segment.size() > 3 && segment.compare(segment.size() - 3, 3, "_ms") == 0;
}

// "outages[0].route_health.lost.max" -> {"outages[0]", "route_health", "lost", "max"}.
std::vector<std::string> path_names(const std::string& path) {
  std::vector<std::string> names;
  std::size_t from = 0;
  for (auto dot = path.find('.'); dot != std::string::npos; dot = path.find('.', from)) {
    names.push_back(path.substr(from, dot - from));
    from = dot + 1;
  }
  names.push_back(path.substr(from));
  return names;
}

}  // namespace

bool is_time_figure(const std::string& figure) {
  if (figure.find("within_predicted") != std::string::npos) return false;
  const std::vector<std::string> names = path_names(figure);
  const std::size_t n = names.size();
  if (ends_in_ms(names[n - 1])) return true;
  static const std::set<std::string> kStats = {"min", "max", "p50", "p90", "p99", "mean"};
  if (n < 2 || kStats.count(names[n - 1]) == 0) return false;
  if (ends_in_ms(names[n - 2])) return true;
  static const std::set<std::string> kWindowKinds = {"stale", "lost", "missing"};
  return n >= 3 && kWindowKinds.count(names[n - 2]) != 0 && names[n - 3] == "route_health";
}

json figure_json(double value) {
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15) {
    return static_cast<std::int64_t>(value);
  }
  return std::round(value * 1000) / 1000;
}

SeedRecord seed_record_of(const json& report, std::size_t point, std::uint64_t seed) {
  SeedRecord record;
  record.point = point;
  record.seed = seed;
  const auto& verdict = field(report, "verdict");
  record.verdict = verdict.is_string() ? verdict.get<std::string>() : "no_expectations";
  for (const char* root :
       {"sends", "sends_by_broker", "sends_by_producer_group", "nameserver_disagreement",
        "route_health", "admin", "nameserver_load", "broker_load"}) {
    flatten(field(report, root), root, root, record.figures);
  }
  // Only runs whose clients reported a scheduler have the section (analysis' client_scheduler).
  if (const auto& scheduler = field(report, "client_scheduler"); scheduler.is_object()) {
    flatten(scheduler, "client_scheduler", "client_scheduler", record.figures);
  }
  // Only runs with brokers whose client tables were replayed (analysis' broker_clients). Its
  // removals are counts per way out, one figure each, unlike the scheduler's list of removals.
  if (const auto& tables = field(report, "broker_clients"); tables.is_object()) {
    flatten(tables, "broker_clients", "broker_clients", record.figures);
    flatten(field(tables, "removals"), "broker_clients.removals", "removals", record.figures);
  }
  // Only runs with consumers (analysis' consumers).
  if (const auto& consumers = field(report, "consumers"); consumers.is_object()) {
    flatten(consumers, "consumers", "consumers", record.figures);
  }
  const auto& outages = field(report, "outages");
  for (std::size_t i = 0; outages.is_array() && i < outages.size(); ++i) {
    const std::string path = "outages[" + std::to_string(i) + "]";
    flatten(outages[i], path, "outages", record.figures);
    add_within_predicted(outages[i], path, record.figures);
    record.outages.push_back(outage_context(outages[i], i));
  }
  return record;
}

std::string seed_record_line(const SeedRecord& record, bool with_outages) {
  json figures = json::object();
  for (const auto& [path, value] : record.figures) {
    figures[path] = value ? figure_json(*value) : json(nullptr);
  }
  json line = {{"point", record.point},
               {"seed", record.seed},
               {"verdict", record.verdict},
               {"figures", std::move(figures)}};
  if (with_outages) line["outages"] = record.outages;
  return line.dump();
}

std::optional<SeedRecord> parse_seed_record_line(const std::string& line, std::string& error) {
  const json parsed = json::parse(line, nullptr, /*allow_exceptions=*/false);
  const bool shaped = parsed.is_object() && field(parsed, "point").is_number_unsigned() &&
                      field(parsed, "seed").is_number_unsigned() &&
                      field(parsed, "verdict").is_string() && field(parsed, "figures").is_object();
  if (!shaped) {
    error = "expected a seed record {point, seed, verdict, figures}";
    return std::nullopt;
  }
  SeedRecord record;
  record.point = parsed["point"].get<std::size_t>();
  record.seed = parsed["seed"].get<std::uint64_t>();
  record.verdict = parsed["verdict"].get<std::string>();
  for (const auto& [path, value] : parsed["figures"].items()) {
    if (!value.is_number() && !value.is_null()) {
      error = "figure " + path + ": expected a number or null";
      return std::nullopt;
    }
    record.figures[path] =
        value.is_number() ? std::optional<double>(value.get<double>()) : std::nullopt;
  }
  if (parsed.contains("outages")) record.outages = parsed["outages"];
  return record;
}

}  // namespace nssim::reports

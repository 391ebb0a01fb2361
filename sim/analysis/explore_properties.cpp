// File: the built-in properties (explore_properties.h). Each line names a figure of this run's
// result.json that is a number, so a line fails only by its value, never by a missing figure.
#include "sim/analysis/explore_properties.h"

#include <algorithm>

#include "sim/analysis/admin_analysis.h"

namespace nssim::sim {

namespace {

using nlohmann::json;

Expectation line(const std::string& figure, const std::string& op, const std::string& value) {
  return Expectation{figure, op, value, figure + " " + op + " " + value, ""};
}

bool has_number(const json& object, const char* key) {
  return object.is_object() && object.contains(key) && object[key].is_number();
}

bool predicts(const json& outage, const char* bound) {
  return outage.contains("predicted") && outage["predicted"].is_object() &&
         outage["predicted"].contains(bound) && outage["predicted"][bound].is_object();
}

// Every NameServer that could not reach a dead broker for longer than RocketMQ's latest removal
// dropped it (none `missed`), and none took longer than that latest removal.
std::vector<Expectation> removal_within_ceiling(const json& result) {
  std::vector<Expectation> out;
  const json& outages = result["outages"];
  for (std::size_t i = 0; i < outages.size(); ++i) {
    if (!predicts(outages[i], "nameserver_removal_ms")) continue;
    const std::string at = "outages[" + std::to_string(i) + "]";
    out.push_back(line(at + ".nameservers_missed", "==", "0"));
    if (has_number(outages[i]["nameserver_drop_ms"], "max")) {
      out.push_back(
          line(at + ".nameserver_drop_ms.max", "<=", "predicted.nameserver_removal_ms.max_ms"));
    }
  }
  return out;
}

// No producer keeps a stale route longer than RocketMQ's ceiling for its outage.
std::vector<Expectation> stale_route_within_ceiling(const json& result) {
  std::vector<Expectation> out;
  const json& outages = result["outages"];
  for (std::size_t i = 0; i < outages.size(); ++i) {
    if (!predicts(outages[i], "producer_stale_route_ms")) continue;
    if (!has_number(outages[i]["producers"]["stale_route_ms"], "max")) continue;
    out.push_back(line("outages[" + std::to_string(i) + "].producers.stale_route_ms.max",
                       "<=", "predicted.producer_stale_route_ms.max_ms"));
  }
  return out;
}

// Once the last fault has healed, each NameServer lists every broker again within one
// registration period (plus the request's timeout), and each producer, within one registration
// and one poll period, holds every group again: no stale or lost route in that second. Applies
// when every fault heals, early enough that the run sees the deadline.
std::vector<Expectation> restored_after_heal(const json& result) {
  const json& faults = result["faults"];
  if (faults.empty()) return {};
  std::int64_t healed = 0;
  for (const auto& fault : faults) {
    if (!has_number(fault, "duration_ms")) return {};  // it never heals (or is an admin request)
    healed = std::max(
        healed, fault["at_ms"].get<std::int64_t>() + fault["duration_ms"].get<std::int64_t>());
  }
  const json& settings = result["settings"];
  const std::int64_t nameservers_by =
      healed + settings["registerNameServerPeriod"].get<std::int64_t>() + kRouteRequestTimeoutMs;
  const std::int64_t producers_by = healed + routes_settled_after_heal_ms(settings);
  const std::size_t second = static_cast<std::size_t>((producers_by + 999) / 1000);
  if (second >= result["timeseries"].size()) return {};
  std::vector<Expectation> out;
  const std::string at = "timeseries[" + std::to_string(second) + "]";
  out.push_back(line(at + ".stale_producers", "==", "0"));
  out.push_back(line(at + ".lost_producers", "==", "0"));
  const json& missing = result["route_health"]["missing_windows"];
  for (std::size_t j = 0; j < missing.size(); ++j) {
    const json& end = missing[j]["end_ms"];
    if (end.is_number() && end.get<std::int64_t>() <= nameservers_by) continue;
    out.push_back(line("route_health.missing_windows[" + std::to_string(j) + "].end_ms",
                       "<=", std::to_string(nameservers_by)));
  }
  return out;
}

}  // namespace

std::int64_t routes_settled_after_heal_ms(const nlohmann::json& settings) {
  return settings["registerNameServerPeriod"].get<std::int64_t>() + kRouteRequestTimeoutMs +
         settings["pollNameServerInterval"].get<std::int64_t>();
}

const std::vector<std::string>& built_in_property_names() {
  static const std::vector<std::string> names = {"nameserver_removal_within_ceiling",
                                                 "stale_route_within_ceiling",
                                                 "routes_restored_after_heal"};
  return names;
}

std::vector<PropertyLines> built_in_properties(const nlohmann::json& result) {
  const auto& names = built_in_property_names();
  return {{names[0], removal_within_ceiling(result)},
          {names[1], stale_route_within_ceiling(result)},
          {names[2], restored_after_heal(result)}};
}

}  // namespace nssim::sim

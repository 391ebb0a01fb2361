// File: timelines_json (see timeline_analysis.h).
#include "sim/analysis/timeline_analysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/analysis/process_spans.h"

namespace nssim::sim {

namespace {

nlohmann::json spans_json(const std::vector<ProcessSpan>& spans) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& span : spans) {
    out.push_back({{"state", span_state_name(span.state)},
                   {"start_ms", span.start_ms},
                   {"end_ms", span.end_ms},
                   {"fault", span.fault ? nlohmann::json(*span.fault) : nlohmann::json()}});
  }
  return out;
}

// When `nameserver` held each of `addrs` in its routes (route_replay.h says when a NameServer
// lists a broker).
std::vector<nlohmann::json> in_routes_json(const NameServerReplay& nameserver,
                                           const std::vector<std::string>& addrs) {
  std::vector<nlohmann::json> intervals;
  for (const std::string& addr : addrs) {
    nlohmann::json list = nlohmann::json::array();
    for (const ReplayInterval& interval : nameserver.listed(addr)) {
      list.push_back(
          {{"start_ms", interval.start_ms},
           {"end_ms", interval.end_ms ? nlohmann::json(*interval.end_ms) : nlohmann::json()}});
    }
    intervals.push_back(std::move(list));
  }
  return intervals;
}

// Indices of the faults that act on `node` (or, for admin faults, on its broker group).
nlohmann::json faults_touching(const Scenario& scenario, const TopologyNode& node) {
  nlohmann::json indices = nlohmann::json::array();
  const std::string& group = scenario.broker_groups[node.group].name;
  for (std::size_t i = 0; i < scenario.faults.size(); ++i) {
    const FaultSpec& fault = scenario.faults[i];
    auto names_it = [&node](const std::vector<std::string>& names) {
      return std::find(names.begin(), names.end(), node.name) != names.end();
    };
    if (names_it(fault.nodes) || names_it(fault.side_a) || names_it(fault.side_b) ||
        fault.broker_name == group)
      indices.push_back(fault.file_index);
  }
  std::sort(indices.begin(), indices.end());  // the faults are in time order, their indices not
  return indices;
}

nlohmann::json detections_json(const Topology& topology, const std::vector<Event>& events) {
  nlohmann::json detections = nlohmann::json::array();
  for (const auto& event : events) {
    if (event.kind != EventKind::kBrokerRemoved ||
        !event.fields.value("removed_from_routes", false))
      continue;
    const std::string addr = event.fields.value("broker_addr", "");
    auto node = topology.broker_addresses.find(addr);
    detections.push_back(
        {{"t_ms", event.t_ms},
         {"nameserver", event.node},
         {"broker_node",
          node == topology.broker_addresses.end()
              ? nlohmann::json()
              : nlohmann::json(topology.nodes[static_cast<std::size_t>(node->second)].name)},
         {"broker_addr", addr},
         {"path", event.fields["path"]}});
  }
  return detections;
}

}  // namespace

nlohmann::json timelines_json(const Scenario& scenario, const Topology& topology,
                              const std::vector<Event>& events, const RouteReplay& replay) {
  std::vector<std::string> addrs;
  for (NodeId id : topology.brokers) {
    addrs.push_back(topology.nodes[static_cast<std::size_t>(id)].broker_addr);
  }
  std::vector<std::vector<nlohmann::json>> in_routes_by_nameserver;  // [nameserver][broker]
  for (NodeId ns : topology.nameservers) {
    in_routes_by_nameserver.push_back(in_routes_json(
        replay.nameserver(topology.nodes[static_cast<std::size_t>(ns)].name), addrs));
  }
  std::vector<std::string> names;
  for (NodeId id : topology.brokers)
    names.push_back(topology.nodes[static_cast<std::size_t>(id)].name);
  for (NodeId id : topology.nameservers) {
    names.push_back(topology.nodes[static_cast<std::size_t>(id)].name);
  }
  auto spans = process_spans_of(events, names, scenario.duration_ms);
  nlohmann::json brokers = nlohmann::json::array();
  for (std::size_t b = 0; b < topology.brokers.size(); ++b) {
    const TopologyNode& node = topology.nodes[static_cast<std::size_t>(topology.brokers[b])];
    nlohmann::json in_routes = nlohmann::json::array();
    for (std::size_t n = 0; n < topology.nameservers.size(); ++n) {
      const std::string& ns_name =
          topology.nodes[static_cast<std::size_t>(topology.nameservers[n])].name;
      in_routes.push_back(
          {{"nameserver", ns_name}, {"intervals", std::move(in_routes_by_nameserver[n][b])}});
    }
    brokers.push_back({{"node", node.name},
                       {"broker_name", scenario.broker_groups[node.group].name},
                       {"broker_id", node.broker_id},
                       {"addr", node.broker_addr},
                       {"process", spans_json(spans[node.name])},
                       {"faults", faults_touching(scenario, node)},
                       {"in_routes", in_routes}});
  }
  nlohmann::json nameservers = nlohmann::json::array();
  for (NodeId id : topology.nameservers) {
    const std::string& name = topology.nodes[static_cast<std::size_t>(id)].name;
    nameservers.push_back({{"node", name}, {"process", spans_json(spans[name])}});
  }
  return {{"brokers", brokers},
          {"nameservers", nameservers},
          {"detections", detections_json(topology, events)}};
}

}  // namespace nssim::sim

// File: timelines_json and process_spans (see timeline_analysis.h).
#include "sim/analysis/timeline_analysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/analysis/route_views.h"

namespace nssim::sim {

namespace {

bool lists(const nlohmann::json& fields, const char* key, const std::string& node) {
  if (!fields.contains(key)) return false;
  const auto& names = fields[key];
  return std::find(names.begin(), names.end(), node) != names.end();
}

void append(std::vector<ProcessSpan>& spans, ProcessSpan next) {
  ProcessSpan& last = spans.back();
  if (last.state == next.state && last.fault == next.fault) return;
  last.end_ms = next.start_ms;
  if (last.end_ms == last.start_ms) spans.pop_back();
  if (!spans.empty() && spans.back().state == next.state && spans.back().fault == next.fault)
    return;  // the stretch that was cut to nothing sat between two equal ones
  spans.push_back(std::move(next));
}

nlohmann::json spans_json(const std::vector<ProcessSpan>& spans) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& span : spans) {
    out.push_back({{"state", span.state},
                   {"start_ms", span.start_ms},
                   {"end_ms", span.end_ms},
                   {"fault", span.fault ? nlohmann::json(*span.fault) : nlohmann::json()}});
  }
  return out;
}

// When `nameserver` held each of `addrs` in its routes: from route views, and nothing while it is
// down or right after a restart (empty tables). One walk over the events for all the brokers: a
// walk per broker read every view once per broker, quadratic in broker groups.
std::vector<nlohmann::json> in_routes_json(const std::vector<Event>& events,
                                           const std::string& nameserver,
                                           const std::vector<std::string>& addrs) {
  std::vector<nlohmann::json> intervals(addrs.size(), nlohmann::json::array());
  std::vector<std::optional<std::int64_t>> since(addrs.size());
  auto set_holding = [&](std::size_t b, bool holding, std::int64_t t_ms) {
    if (holding && !since[b]) since[b] = t_ms;
    if (!holding && since[b]) {
      if (t_ms > *since[b]) intervals[b].push_back({{"start_ms", *since[b]}, {"end_ms", t_ms}});
      since[b].reset();
    }
  };
  auto hold_none = [&](std::int64_t t_ms) {
    for (std::size_t b = 0; b < addrs.size(); ++b) set_holding(b, false, t_ms);
  };
  std::map<std::string, std::vector<std::size_t>> index_of;
  for (std::size_t b = 0; b < addrs.size(); ++b) index_of[addrs[b]].push_back(b);
  RouteViewTable table;
  std::int64_t now_ms = 0;
  const RouteViewTable::OnAddress on_address = [&](const std::string& addr, bool listed) {
    const auto found = index_of.find(addr);
    if (found == index_of.end()) return;
    for (const std::size_t b : found->second) set_holding(b, listed, now_ms);
  };
  for (const auto& event : events) {
    now_ms = event.t_ms;
    if (event.node == nameserver) {
      if (event.kind == "route_view") table.apply(event.fields, on_address);
      if (event.kind == "process_start") {
        table.clear();
        hold_none(event.t_ms);
      }
    } else if (event.kind == "fault_begin" && fault_stops_process(event.fields.value("kind", "")) &&
               lists(event.fields, "nodes", nameserver)) {
      hold_none(event.t_ms);
    }
  }
  for (std::size_t b = 0; b < addrs.size(); ++b) {
    if (since[b]) intervals[b].push_back({{"start_ms", *since[b]}, {"end_ms", nullptr}});
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
    if (event.kind != "broker_removed" || !event.fields.value("removed_from_routes", false))
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

bool fault_stops_process(const std::string& kind) {
  return kind == "kill" || kind == "poweroff" || kind == "shutdown";
}

std::map<std::string, std::vector<ProcessSpan>> process_spans_of(
    const std::vector<Event>& events, const std::vector<std::string>& nodes,
    std::int64_t duration_ms) {
  std::map<std::string, std::vector<ProcessSpan>> by_node;
  for (const std::string& node : nodes) {
    by_node[node] = {{"not_started", 0, 0, std::nullopt}};
  }
  // One walk over the events for every node: a walk per node made timelines cost nodes x events.
  for (const auto& event : events) {
    if (event.t_ms > duration_ms) break;
    if (event.kind == "process_start") {
      if (const auto spans = by_node.find(event.node); spans != by_node.end()) {
        append(spans->second, {"up", event.t_ms, 0, std::nullopt});
      }
      continue;
    }
    if (event.kind != "fault_begin" && event.kind != "fault_end") continue;
    if (!event.fields.contains("nodes")) continue;
    const std::string kind = event.fields.value("kind", "");
    const auto fault = event.fields["fault"].get<std::size_t>();
    const bool begins = event.kind == "fault_begin";
    for (const auto& name : event.fields["nodes"]) {
      const auto found = by_node.find(name.get<std::string>());
      if (found == by_node.end()) continue;
      std::vector<ProcessSpan>& spans = found->second;
      if (begins && fault_stops_process(kind) && spans.back().state != "down") {
        append(spans, {"down", event.t_ms, 0, fault});
      } else if (kind == "pause" && begins && spans.back().state == "up") {
        append(spans, {"paused", event.t_ms, 0, fault});
      } else if (kind == "pause" && !begins && spans.back().state == "paused") {
        append(spans, {"up", event.t_ms, 0, std::nullopt});
      }
    }
  }
  for (auto& [node, spans] : by_node) spans.back().end_ms = duration_ms;
  return by_node;
}

std::vector<ProcessSpan> process_spans(const std::vector<Event>& events, const std::string& node,
                                       std::int64_t duration_ms) {
  return process_spans_of(events, {node}, duration_ms)[node];
}

nlohmann::json timelines_json(const Scenario& scenario, const Topology& topology,
                              const std::vector<Event>& events) {
  std::vector<std::string> addrs;
  for (NodeId id : topology.brokers) {
    addrs.push_back(topology.nodes[static_cast<std::size_t>(id)].broker_addr);
  }
  std::vector<std::vector<nlohmann::json>> in_routes_by_nameserver;  // [nameserver][broker]
  for (NodeId ns : topology.nameservers) {
    in_routes_by_nameserver.push_back(
        in_routes_json(events, topology.nodes[static_cast<std::size_t>(ns)].name, addrs));
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

// File: build_topology (see topology.h). Addresses are synthetic but stable: 10.0.0.x for
// NameServers, 10.1.x.y for brokers, 10.2.x.y for producers, 10.3.x.y for consumers.
#include "sim/scenario/topology.h"

#include "sim/scenario/rng.h"

namespace nssim::sim {

namespace {

std::string ip(int subnet, std::size_t index) {
  return "10." + std::to_string(subnet) + "." + std::to_string(index / 250) + "." +
         std::to_string(index % 250 + 1);
}

std::int64_t draw_start(const Scenario& scenario, const std::string& name, const StartSpec& start) {
  if (start.max_ms <= start.min_ms) return start.min_ms;
  return Rng::derive(scenario.seed, "start/" + name).uniform_int(start.min_ms, start.max_ms);
}

}  // namespace

const char* node_role_name(NodeRole role) {
  switch (role) {
    case NodeRole::kNameServer:
      return "nameserver";
    case NodeRole::kBroker:
      return "broker";
    case NodeRole::kProducer:
      return "producer";
    case NodeRole::kConsumer:
      return "consumer";
  }
  return "unknown";
}

Topology build_topology(const Scenario& scenario) {
  Topology topology;
  auto add = [&topology](TopologyNode node) {
    const auto id = static_cast<NodeId>(topology.nodes.size());
    topology.by_name[node.name] = id;
    topology.nodes.push_back(std::move(node));
    return id;
  };
  const auto& ns = scenario.nameservers;
  for (int i = 0; i < ns.count; ++i) {
    TopologyNode node;
    node.name = nameserver_name(i);
    node.role = NodeRole::kNameServer;
    node.link = ns.link;
    node.start_ms = draw_start(scenario, node.name, ns.start);
    node.broker_addr = nameserver_address(i);
    topology.nameservers.push_back(add(std::move(node)));
  }
  std::size_t broker_index = 0;
  for (std::size_t g = 0; g < scenario.broker_groups.size(); ++g) {
    const auto& group = scenario.broker_groups[g];
    for (int id = 0; id <= group.slaves; ++id) {
      TopologyNode node;
      node.name = broker_node_name(group.name, id);
      node.role = NodeRole::kBroker;
      node.link = group.link;
      node.start_ms = draw_start(scenario, node.name, group.start);
      node.group = g;
      node.broker_id = id;
      const std::string host = ip(1, broker_index++);
      node.broker_addr = host + ":10911";
      node.ha_server_addr = host + ":10912";
      const std::string addr = node.broker_addr;
      const NodeId node_id = add(std::move(node));
      topology.brokers.push_back(node_id);
      topology.broker_addresses[addr] = node_id;
    }
  }
  // A client process: named, linked and started as its set says, addressed in its subnet.
  auto client = [&scenario](NodeRole role, std::string name, const auto& spec, int subnet,
                            std::size_t& index) {
    TopologyNode node;
    node.name = std::move(name);
    node.role = role;
    node.link = spec.link;
    node.start_ms = draw_start(scenario, node.name, spec.start);
    node.broker_addr = ip(subnet, index++);
    return node;
  };
  std::size_t producer_index = 0;
  for (std::size_t p = 0; p < scenario.producers.size(); ++p) {
    const auto& spec = scenario.producers[p];
    if (spec.instance_of) continue;  // runs in another set's processes
    for (int i = 0; i < spec.count; ++i) {
      TopologyNode node = client(NodeRole::kProducer, producer_name(spec.name_prefix, i), spec,
                                 /*subnet=*/2, producer_index);
      node.producer_spec = p;
      topology.producers.push_back(add(std::move(node)));
    }
  }
  std::size_t consumer_index = 0;
  for (std::size_t c = 0; c < scenario.consumers.size(); ++c) {
    const auto& spec = scenario.consumers[c];
    for (int i = 0; i < spec.count; ++i) {
      TopologyNode node = client(NodeRole::kConsumer, consumer_name(spec.name_prefix, i), spec,
                                 /*subnet=*/3, consumer_index);
      node.consumer_spec = c;
      topology.consumers.push_back(add(std::move(node)));
    }
  }
  return topology;
}

std::vector<NodeId> Topology::nameservers_of(const std::vector<int>& chosen) const {
  if (chosen.empty()) return nameservers;
  std::vector<NodeId> list;
  for (const int index : chosen) list.push_back(nameservers.at(static_cast<std::size_t>(index)));
  return list;
}

}  // namespace nssim::sim

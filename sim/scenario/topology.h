// File: the nodes a scenario describes, named, numbered and placed: NameServers, brokers (one per
// broker id of each group), producers and consumers, with their addresses and start instants drawn
// from the seed. The world builds its platform from it and the analysis reads names and addresses
// from it.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sim/network/network_history.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

enum class NodeRole { kNameServer, kBroker, kProducer, kConsumer };
const char* node_role_name(NodeRole role);

struct TopologyNode {
  std::string name;
  NodeRole role = NodeRole::kNameServer;
  std::int64_t start_ms = 0;
  LinkSpec link;
  std::size_t group = 0;       // brokers: index into Scenario::broker_groups
  std::int64_t broker_id = 0;  // brokers
  std::string broker_addr;     // brokers: ip:10911; NameServers: ip:9876; producers, consumers: ip
  std::string ha_server_addr;  // brokers: ip:10912
  std::size_t producer_spec = 0;  // producers: index into Scenario::producers
  std::size_t consumer_spec = 0;  // consumers: index into Scenario::consumers
};

struct Topology {
  std::vector<TopologyNode> nodes;  // index = NodeId
  std::map<std::string, NodeId> by_name;
  std::vector<NodeId> nameservers;
  std::vector<NodeId> brokers;
  std::vector<NodeId> producers;
  std::vector<NodeId> consumers;
  AddressBook broker_addresses;  // broker address -> node

  // The NameServers a broker group, producer set or consumer set talks to: its namesrvAddr's
  // entries (indices into `nameservers`) in the order written, or all of them when it names none.
  std::vector<NodeId> nameservers_of(const std::vector<int>& chosen) const;
};

Topology build_topology(const Scenario& scenario);

}  // namespace nssim::sim

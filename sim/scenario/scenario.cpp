// File: the small pieces of the scenario model that are code rather than data: fault kind names,
// per-profile defaults and node naming, which the loader and the runner must agree on.
#include "sim/scenario/scenario.h"

#include <algorithm>

namespace nssim::sim {

namespace {

struct KindName {
  FaultKind kind;
  const char* name;
};

constexpr KindName kKindNames[] = {
    {FaultKind::kKill, "kill"},
    {FaultKind::kPoweroff, "poweroff"},
    {FaultKind::kShutdown, "shutdown"},
    {FaultKind::kPause, "pause"},
    {FaultKind::kPartition, "partition"},
    {FaultKind::kLatency, "latency"},
    {FaultKind::kWipeWritePerm, "wipeWritePerm"},
    {FaultKind::kAddWritePerm, "addWritePerm"},
    {FaultKind::kUpdateTopic, "updateTopic"},
};

}  // namespace

const std::vector<std::string>& sweep_stat_names() {
  static const std::vector<std::string> names = {"n",   "never", "min", "p50",
                                                 "p90", "p99",   "max", "mean"};
  return names;
}

const std::vector<FaultKind>& fault_kinds() {
  static const std::vector<FaultKind> kinds = [] {
    std::vector<FaultKind> all;
    for (const auto& entry : kKindNames) all.push_back(entry.kind);
    return all;
  }();
  return kinds;
}

const char* fault_kind_name(FaultKind kind) {
  for (const auto& entry : kKindNames) {
    if (entry.kind == kind) return entry.name;
  }
  return "unknown";
}

std::optional<FaultKind> parse_fault_kind(const std::string& text) {
  for (const auto& entry : kKindNames) {
    if (text == entry.name) return entry.kind;
  }
  return std::nullopt;
}

BrokerConfig default_broker_config(core::Profile profile) {
  BrokerConfig config;
  // Java: BrokerConfig#registerBrokerTimeoutMills is 6000 in 4.9.8 and 24000 in 5.3.3.
  config.register_broker_timeout_mills = profile == core::Profile::kV4_9 ? 6000 : 24000;
  return config;
}

ProducerConfig default_producer_config(core::Profile /*profile*/) {
  return ProducerConfig{};  // ClientConfig and DefaultMQProducer defaults agree across 4.9 and 5.x
}

ConsumerConfig default_consumer_config(core::Profile /*profile*/) {
  return ConsumerConfig{};  // ClientConfig and DefaultMQPushConsumer defaults agree across 4.9
                            // and 5.x
}

// The same scheme as build_topology's (10.0.0.x for NameServers), so namesrvAddr can be written
// with the addresses result.json shows.
std::string nameserver_address(int index) {
  const auto i = static_cast<std::size_t>(index);
  return "10.0." + std::to_string(i / 250) + "." + std::to_string(i % 250 + 1) + ":9876";
}

std::string nameserver_name(int index) { return "ns-" + std::to_string(index); }

std::string broker_node_name(const std::string& group, int broker_id) {
  return group + "-" + std::to_string(broker_id);
}

std::string producer_name(const std::string& name_prefix, int index) {
  return name_prefix + "-" + std::to_string(index);
}

std::string consumer_name(const std::string& name_prefix, int index) {
  return producer_name(name_prefix, index);  // the same scheme, in one namespace of node names
}

std::vector<std::string> nameserver_names(const Scenario& scenario) {
  std::vector<std::string> names;
  for (int i = 0; i < scenario.nameservers.count; ++i) names.push_back(nameserver_name(i));
  return names;
}

std::vector<BrokerNode> broker_nodes(const Scenario& scenario) {
  std::vector<BrokerNode> nodes;
  for (std::size_t g = 0; g < scenario.broker_groups.size(); ++g) {
    const BrokerGroupSpec& group = scenario.broker_groups[g];
    for (int id = 0; id <= group.slaves; ++id) {
      nodes.push_back(
          BrokerNode{broker_node_name(group.name, id), group.name, group.cluster, id, g});
    }
  }
  return nodes;
}

std::vector<ProducerNode> producer_nodes(const Scenario& scenario) {
  std::vector<ProducerNode> nodes;
  for (std::size_t p = 0; p < scenario.producers.size(); ++p) {
    const ProducerSpec& spec = scenario.producers[p];
    if (spec.instance_of) continue;  // runs in another set's processes
    for (int i = 0; i < spec.count; ++i) {
      nodes.push_back(ProducerNode{producer_name(spec.name_prefix, i), p, i});
    }
  }
  return nodes;
}

std::vector<ConsumerNode> consumer_nodes(const Scenario& scenario) {
  std::vector<ConsumerNode> nodes;
  for (std::size_t c = 0; c < scenario.consumers.size(); ++c) {
    const ConsumerSpec& spec = scenario.consumers[c];
    for (int i = 0; i < spec.count; ++i) {
      nodes.push_back(ConsumerNode{consumer_name(spec.name_prefix, i), c, i});
    }
  }
  return nodes;
}

std::vector<std::string> instance_topics(const Scenario& scenario, std::size_t spec_index) {
  std::vector<std::string> topics;
  for (std::size_t p = 0; p < scenario.producers.size(); ++p) {
    const ProducerSpec& spec = scenario.producers[p];
    if (p != spec_index && spec.instance_of != spec_index) continue;
    for (const std::string& topic : spec.topics) {
      if (std::find(topics.begin(), topics.end(), topic) == topics.end()) topics.push_back(topic);
    }
  }
  return topics;
}

std::vector<std::string> node_names(const Scenario& scenario) {
  std::vector<std::string> names = nameserver_names(scenario);
  for (auto& broker : broker_nodes(scenario)) names.push_back(std::move(broker.name));
  for (auto& producer : producer_nodes(scenario)) names.push_back(std::move(producer.name));
  for (auto& consumer : consumer_nodes(scenario)) names.push_back(std::move(consumer.name));
  return names;
}

}  // namespace nssim::sim

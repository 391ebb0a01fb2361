// File: Incarnations (see incarnations.h).
#include "sim/world/incarnations.h"

#include <algorithm>

#include "sim/scenario/broker_topics.h"
#include "sim/world/broker_actor.h"
#include "sim/world/nameserver_actor.h"
#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace sg4 = simgrid::s4u;

std::vector<std::string> route_query_topics(const Scenario& scenario) {
  std::vector<std::string> topics{kAutoCreateTopicKeyTopic};
  for (const ProducerSpec& spec : scenario.producers) {
    topics.insert(topics.end(), spec.topics.begin(), spec.topics.end());
  }
  for (const ConsumerSpec& spec : scenario.consumers) {
    topics.insert(topics.end(), spec.topics.begin(), spec.topics.end());
  }
  return topics;
}

Incarnations::Incarnations(const Scenario& scenario, WorldRecord& record, Net& net)
    : scenario_(scenario),
      record_(record),
      net_(net),
      current_(record.topology.nodes.size()),
      consumer_up_(record.topology.nodes.size(), false),
      routes_(route_query_topics(scenario)),
      producers_(scenario, record, routes_) {
  kv_.resize(record.topology.nodes.size());
}

void Incarnations::start(NodeId node) {
  const std::int64_t now = now_ms();
  NetworkHistory& history = net_.history();
  history.start_process(node, now);
  const std::uint32_t epoch = history.state_at(node, now).epoch;
  const TopologyNode& info = record_.topology.nodes[static_cast<std::size_t>(node)];
  if (info.role == NodeRole::kProducer) {
    producers_.start(node, epoch, now);
    record_.log.add(now, info.name, EventKind::kProcessStart, {{"epoch", epoch}});
    return;
  }
  if (info.role == NodeRole::kConsumer) {
    consumer_up_[static_cast<std::size_t>(node)] = true;
    record_.log.add(now, info.name, EventKind::kProcessStart, {{"epoch", epoch}});
    return;
  }
  std::unique_ptr<NodeActor> actor;
  switch (info.role) {
    case NodeRole::kNameServer:
      actor = std::make_unique<NameServerActor>(
          net_, node, epoch, scenario_.profile, scenario_.nameservers,
          kv_[static_cast<std::size_t>(node)], routes_, info.name, record_.log,
          record_.nameserver_requests);
      break;
    case NodeRole::kBroker: {
      const auto& group = scenario_.broker_groups[info.group];
      BrokerIdentity identity{info.name,      group.cluster,    group.name,
                              info.broker_id, info.broker_addr, info.ha_server_addr};
      // Java: TopicConfigManager's DataVersion is created at first start and persisted.
      auto stored = persisted_topics_.find(node);
      if (stored == persisted_topics_.end()) {
        auto table = broker_topic_table(scenario_.profile, group, scenario_.topics);
        table.data_version.timestamp = now;
        stored = persisted_topics_.emplace(node, std::move(table)).first;
      }
      auto topics = stored->second;
      actor = std::make_unique<BrokerActor>(
          net_, node, epoch, scenario_.profile, identity, group.config, std::move(topics),
          record_.topology.nameservers_of(group.nameservers),
          Rng::derive(scenario_.seed, "broker/" + info.name), record_.log);
      break;
    }
    case NodeRole::kProducer:
    case NodeRole::kConsumer:
      return;  // started above
  }
  NodeActor* raw = actor.get();
  Slot& slot = current_[static_cast<std::size_t>(node)];
  slot.node = raw;
  slot.actor = sg4::Actor::create(info.name, net_.host(node).host, [raw] { raw->run(); });
  slot.actor->daemonize();
  graveyard_.push_back(std::move(actor));
  record_.log.add(now, info.name, EventKind::kProcessStart, {{"epoch", epoch}});
}

// A process that ended: its actor is killed and its connections close as `kind` says.
void Incarnations::end(NodeId node, DownKind kind) {
  if (consumer_up_[static_cast<std::size_t>(node)]) {
    consumer_up_[static_cast<std::size_t>(node)] = false;  // it has no connections in Net
    return;
  }
  Slot& slot = current_[static_cast<std::size_t>(node)];
  if (slot.node == nullptr) return;
  if (auto* ns = dynamic_cast<NameServerActor*>(slot.node)) {
    kv_[static_cast<std::size_t>(node)] = ns->server().kv_config_manager();  // kvConfig.json
  }
  if (slot.actor) slot.actor->kill();
  slot = Slot{};
  net_.process_ended(node, kind);
}

namespace {

// Java: TopicConfig#equals (every field the request carries).
bool same_topic_config(const core::TopicConfig& a, const core::TopicConfig& b) {
  return a.topic_name == b.topic_name && a.read_queue_nums == b.read_queue_nums &&
         a.write_queue_nums == b.write_queue_nums && a.perm == b.perm &&
         a.topic_filter_type == b.topic_filter_type && a.topic_sys_flag == b.topic_sys_flag &&
         a.order == b.order && a.attributes == b.attributes;
}

}  // namespace

bool Incarnations::update_topic(NodeId node, const core::TopicConfig& config) {
  auto* broker = dynamic_cast<BrokerActor*>(current(node));
  const std::int64_t now = now_ms();
  if (broker == nullptr || net_.history().state_at(node, now).process != ProcessState::kUp)
    return false;
  // The broker handles the request when it arrives; a process that dies before then never
  // stores the topic.
  broker->post([this, node, broker, config] {
    core::TopicConfigSerializeWrapper& table = persisted_topics_.at(node);
    auto current = table.topic_config_table.find(config.topic_name);
    if (scenario_.profile == core::Profile::kV5 && current != table.topic_config_table.end() &&
        same_topic_config(current->second, config))
      return;  // Java 5.x: updateAndCreateTopic answers SUCCESS and changes nothing
    table.topic_config_table[config.topic_name] = config;  // TopicConfigManager#updateTopicConfig
    table.data_version.timestamp = now_ms();               // DataVersion#nextVersion
    ++table.data_version.counter;
    broker->update_topic(config, table.data_version);
  });
  return true;
}

NodeActor* Incarnations::current(NodeId node) const {
  return current_[static_cast<std::size_t>(node)].node;
}

bool Incarnations::running(NodeId node) const {
  return current(node) != nullptr || consumer_up_[static_cast<std::size_t>(node)];
}

sg4::ActorPtr Incarnations::actor(NodeId node) const {
  return current_[static_cast<std::size_t>(node)].actor;
}

void Incarnations::forget(NodeId node) { current_[static_cast<std::size_t>(node)] = Slot{}; }

}  // namespace nssim::sim

// File: the consumer co-simulation's event loop and incarnations (see consumer_engine.h).
#include "sim/consumer/consumer_engine.h"

#include <algorithm>

#include "common/invariant.h"
#include "sim/broker/client_tables.h"

namespace nssim::sim {

namespace {

// A process start or end of a node, read back from NetworkHistory.
struct ProcessChange {
  std::int64_t t_ms = 0;
  std::uint32_t epoch = 0;
  bool started = false;
  DownKind kind = DownKind::kNone;
};

std::vector<ProcessChange> process_changes(const NetworkHistory& network, NodeId node) {
  std::vector<ProcessChange> changes;
  std::vector<std::int64_t> instants = network.change_times_between(node, node);
  instants.insert(instants.begin(), 0);
  bool up = false;
  std::uint32_t epoch = 0;
  for (const std::int64_t t : instants) {
    const NodeState state = network.state_at(node, t);
    const bool now_up = state.host_up && state.process != ProcessState::kDown;
    if (up && (!now_up || state.epoch != epoch)) {
      const auto end = network.incarnation_end(node, epoch);
      changes.push_back({t, epoch, false, end ? end->second : DownKind::kPoweroff});
      up = false;
    }
    if (now_up && !up) {
      epoch = state.epoch;
      changes.push_back({t, epoch, true, DownKind::kNone});
      up = true;
    }
  }
  return changes;
}

}  // namespace

ConsumerRecord run_consumers(const ConsumerInputs& inputs) { return ConsumerEngine(inputs).run(); }

ConsumerEngine::ConsumerEngine(const ConsumerInputs& inputs)
    : inputs_(inputs), network_(inputs.network) {
  const Topology& topology = inputs.topology;
  for (const NodeId node : topology.brokers) {
    const TopologyNode& info = topology.nodes[static_cast<std::size_t>(node)];
    BrokerSide broker;
    broker.node = node;
    broker.broker_name = inputs.scenario.broker_groups[info.group].name;
    broker.broker_id = info.broker_id;
    broker_by_address_[info.broker_addr] = brokers_.size();
    broker_of_node_[node] = brokers_.size();
    brokers_.push_back(std::move(broker));
  }
  // Every queue each group subscribes to, in (group, queue) order, so that indices do not depend
  // on when a consumer first meets a queue.
  for (const ConsumerSpec& spec : inputs.scenario.consumers) {
    for (const auto& [key, messages] : inputs.stored.queues()) {
      if (std::find(spec.topics.begin(), spec.topics.end(), key.topic) != spec.topics.end()) {
        queue_index(spec.group, key);
      }
    }
  }
}

std::uint32_t ConsumerEngine::queue_index(const std::string& group, const QueueKey& key) {
  const auto [it, inserted] = queue_indices_.try_emplace({group, key}, 0);
  if (inserted) {
    it->second = static_cast<std::uint32_t>(record_.queues.size());
    record_.queues.push_back({group, key});
  }
  return it->second;
}

// An action that a pause deferred runs at the resume and may schedule what follows from its
// planned instant: that lands at the present.
void ConsumerEngine::at(std::int64_t t_ms, Action action) {
  events_.push(Event{std::max(t_ms, now_ms_), next_seq_++, std::move(action)});
}

std::int64_t ConsumerEngine::resumed_at(NodeId node, std::int64_t t_ms) const {
  for (const std::int64_t change : network_.change_times_between(node, node)) {
    if (change > t_ms && network_.state_at(node, change).process != ProcessState::kPaused) {
      return change;
    }
  }
  return kNever;
}

void ConsumerEngine::on_instance(std::size_t i, std::int64_t t_ms,
                                 std::function<void(Instance&)> action) {
  at(t_ms, [this, i, t_ms, action = std::move(action)]() mutable {
    Instance& instance = *instances_[i];
    if (!instance.alive) return;
    if (network_.state_at(instance.node, t_ms).process == ProcessState::kPaused) {
      const std::int64_t resume = resumed_at(instance.node, t_ms);
      if (resume != kNever) on_instance(i, resume, std::move(action));
      return;
    }
    action(instance);
  });
}

void ConsumerEngine::on_broker(std::size_t b, std::uint32_t epoch, std::int64_t t_ms,
                               std::function<void(BrokerSide&)> action) {
  at(t_ms, [this, b, epoch, t_ms, action = std::move(action)]() mutable {
    BrokerSide& broker = brokers_[b];
    if (broker.epoch != epoch) return;
    if (network_.state_at(broker.node, t_ms).process == ProcessState::kPaused) {
      const std::int64_t resume = resumed_at(broker.node, t_ms);
      if (resume != kNever) on_broker(b, epoch, resume, std::move(action));
      return;
    }
    action(broker);
  });
}

ConsumerRecord ConsumerEngine::run() {
  const Topology& topology = inputs_.topology;
  for (std::size_t b = 0; b < brokers_.size(); ++b) {
    for (const ProcessChange& change : process_changes(network_, brokers_[b].node)) {
      at(change.t_ms, [this, b, change] {
        if (change.started) {
          start_broker(b, change.epoch, change.t_ms);
        } else {
          end_broker(b, change.kind, change.t_ms);
        }
      });
    }
  }
  for (const NodeId node : topology.consumers) {
    const std::size_t spec = topology.nodes[static_cast<std::size_t>(node)].consumer_spec;
    for (const ProcessChange& change : process_changes(network_, node)) {
      at(change.t_ms, [this, node, spec, change] {
        if (change.started) {
          start_instance(node, spec, change.epoch, change.t_ms);
        } else if (const auto found = instance_of_.find({node, change.epoch});
                   found != instance_of_.end()) {
          end_instance(found->second, change.kind, change.t_ms);
        }
      });
    }
  }
  const std::int64_t end_ms = inputs_.scenario.duration_ms;
  while (!events_.empty() && events_.top().t_ms <= end_ms) {
    // The top is moved out, not copied: its action may hold a large capture.
    Event event = std::move(const_cast<Event&>(events_.top()));
    events_.pop();
    now_ms_ = event.t_ms;
    event.action();
  }
  now_ms_ = end_ms;
  for (std::size_t i = 0; i < instances_.size(); ++i) {
    if (instances_[i]->alive) end_instance(i, DownKind::kNone, end_ms);
  }
  return std::move(record_);
}

// Java: DefaultMQPushConsumerImpl#start: the client instance starts (its scheduler, pull and
// rebalance threads), then on the starting thread the subscribed topics' routes
// (updateTopicSubscribeInfoWhenSubscriptionChanged), one heartbeat to every broker
// (sendHeartbeatToAllBrokerWithLock) and rebalanceImmediately.
void ConsumerEngine::start_instance(NodeId node, std::size_t spec_index, std::uint32_t epoch,
                                    std::int64_t t_ms) {
  const ConsumerSpec& spec = inputs_.scenario.consumers[spec_index];
  const TopologyNode& info = inputs_.topology.nodes[static_cast<std::size_t>(node)];
  const std::string stream = "consumer/" + info.name + "/" + std::to_string(epoch);
  Rng rng = Rng::derive(inputs_.scenario.seed, stream);
  Rng selector_rng = Rng::derive(inputs_.scenario.seed, stream + "/namesrv");
  NameServerClient nameservers{
      NameServerSelector(inputs_.topology.nameservers_of(spec.nameservers), selector_rng), {}};
  NettyRemotingClient remoting(
      inputs_.scenario.profile, node, network_, inputs_.topology.broker_addresses,
      NettyRemotingClient::Config{spec.config.connect_timeout_millis,
                                  spec.config.client_close_socket_if_timeout},
      std::move(nameservers));
  RebalanceService rebalance(
      inputs_.scenario.profile,
      RebalanceIntervals{spec.config.rebalance_wait_interval, spec.config.rebalance_min_interval},
      t_ms, t_ms);
  const std::size_t i = instances_.size();
  instances_.push_back(
      std::make_unique<Instance>(spec_index, node, std::move(remoting), rng, rebalance));
  Instance& instance = *instances_.back();
  instance.epoch = epoch;
  instance.started_ms = t_ms;
  // Java: clientId = clientIP@instanceName, instanceName pid#nanoTime: a new one per process.
  instance.client_id = info.broker_addr + "@" + std::to_string(1000 + epoch) + "#" +
                       std::to_string(t_ms * 1000000 + static_cast<std::int64_t>(i));
  instance_of_[{node, epoch}] = i;
  record_.consumers.push_back({info.name, spec.group, instance.client_id, t_ms, 0});
  for (const std::string& topic : spec.topics) instance.sub_version[topic] = t_ms;
  // Java: the consume pool is a ThreadPoolExecutor(consumeThreadMin, consumeThreadMax) over an
  // unbounded queue, so it never grows past consumeThreadMin threads.
  for (int thread = 0; thread < spec.config.consume_thread_min; ++thread) {
    instance.consume_free.push(t_ms);
  }
  // Java: MQClientInstance#startScheduledTask, in submission order.
  instance.scheduler.schedule_at_fixed_rate(ScheduledTask::kRoutePoll, t_ms + 10,
                                            spec.config.poll_name_server_interval);
  instance.scheduler.schedule_at_fixed_rate(ScheduledTask::kHeartbeat, t_ms + 1000,
                                            spec.config.heartbeat_broker_interval);
  instance.scheduler.schedule_at_fixed_rate(ScheduledTask::kPersistConsumerOffset, t_ms + 10000,
                                            spec.config.persist_consumer_offset_interval);
  scheduler_idle(i, t_ms);
  rebalance_wait(instance, i);
  start_routes(i, 0, t_ms);
}

void ConsumerEngine::start_routes(std::size_t i, std::size_t topic, std::int64_t t_ms) {
  const std::vector<std::string>& topics = spec_of(*instances_[i]).topics;
  if (topic < topics.size()) {
    route_query(i, topics[topic], t_ms, [this, i, topic](Instance&, bool, std::int64_t end) {
      start_routes(i, topic + 1, end);
    });
    return;
  }
  heartbeat_all(i, t_ms, [this, i](Instance& done, std::int64_t end) {
    done.rebalance.wakeup(end);
    rebalance_wait(done, i);
  });
}

void ConsumerEngine::end_instance(std::size_t i, DownKind kind, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  std::vector<QueueKey> keys;
  for (const auto& [key, held] : instance.held) keys.push_back(key);
  for (const QueueKey& key : keys) drop_held(i, key, t_ms);
  instance.alive = false;
  record_.consumers[i].ended_ms = t_ms;
  if (kind != DownKind::kCrash && kind != DownKind::kShutdown) return;
  // The kernel closes every connection with FIN: each broker sees its channel close.
  // Deviation: a clean shutdown's UNREGISTER_CLIENT and offset persist are not sent; its FIN
  // has the same effect on the brokers' tables (doChannelCloseEvent, CHANGE).
  for (const auto& [address, b] : broker_by_address_) {
    BrokerSide& broker = brokers_[b];
    for (auto& [group, channels] : broker.groups) {
      for (const auto& [channel_key, entry] : channels) {
        if (channel_key.first != i) continue;
        const std::uint64_t channel = channel_key.second;
        if (network_.deliver(instance.node, broker.node, broker.epoch, t_ms) !=
            Delivery::kDelivered) {
          continue;
        }
        const std::int64_t arrival = t_ms + network_.transit_ms(instance.node, broker.node, t_ms);
        on_broker(b, broker.epoch, arrival, [this, i, channel, arrival](BrokerSide& side) {
          remove_channel(side, i, channel, arrival, "channel_close", true);
        });
      }
    }
  }
}

void ConsumerEngine::drop_held(std::size_t i, const QueueKey& key, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  const auto found = instance.held.find(key);
  if (found == instance.held.end()) return;
  Held& held = *found->second;
  held.pq.set_dropped();
  record_.ownerships.push_back(
      {held.queue, static_cast<std::uint32_t>(i), held.owned_from_ms, t_ms});
  instance.held.erase(found);
}

void ConsumerEngine::start_broker(std::size_t b, std::uint32_t epoch, std::int64_t t_ms) {
  BrokerSide& broker = brokers_[b];
  // A new incarnation reads the offsets it last persisted (ConfigManager#load) and knows no
  // consumer until their next heartbeats.
  broker.offsets.restart();
  broker.groups.clear();
  broker.lists.clear();
  broker.sub_versions.clear();
  broker.epoch = epoch;
  broker.started_ms = t_ms;
  flush_offsets(b, epoch, consumer_offset_flush_at(t_ms, 0));
  scan_not_active(b, epoch, housekeeping_scan_at(t_ms, 0));
}

void ConsumerEngine::end_broker(std::size_t b, DownKind kind, std::int64_t) {
  BrokerSide& broker = brokers_[b];
  // Java: BrokerController#shutdown persists the consumer offsets; a crash or power-off keeps
  // only what the last scheduled flush wrote.
  if (kind == DownKind::kShutdown) broker.offsets.persist();
  broker.epoch = 0;
  broker.groups.clear();
  broker.lists.clear();
}

}  // namespace nssim::sim

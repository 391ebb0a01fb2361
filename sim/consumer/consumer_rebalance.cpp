// File: a consumer instance's RebalanceService thread: its waits (RebalanceService, the pure
// rule), and each doRebalance over the subscribed topics: the consumer list from one random
// broker of the topic, AllocateMessageQueueAveragely, then updateProcessQueueTableInRebalance
// (drop with the offset persisted, add from the broker's offset) and messageQueueChanged.
#include <algorithm>
#include <memory>
#include <set>

#include "sim/client/allocate_message_queue.h"
#include "sim/consumer/consumer_engine.h"

namespace nssim::sim {

namespace {

// Java: RemoteBrokerOffsetStore#fetchConsumeOffsetFromBroker's queryConsumerOffset timeout, and
// RebalancePushImpl#dispatchPullRequest's 5.x delay before a new queue's first pull.
constexpr std::int64_t kQueryOffsetTimeoutMs = 5000;
constexpr std::int64_t kFirstPullDelayV5Ms = 500;

}  // namespace

void ConsumerEngine::rebalance_wait(Instance& instance, std::size_t i) {
  if (!instance.rebalance.waiting()) return;
  const std::uint64_t serial = instance.rebalance.wait_serial();
  on_instance(i, instance.rebalance.wait_end_ms(), [this, i, serial](Instance& self) {
    if (!self.rebalance.waiting() || self.rebalance.wait_serial() != serial) return;
    // A wait that a pause of the process outlived ends at its instant; the run starts at the
    // resume (now).
    if (self.rebalance.wait_ended(self.rebalance.wait_end_ms())) {
      rebalance_topic(i, 0, true, now_ms_);
      return;
    }
    rebalance_wait(self, i);
  });
}

// Java: RebalanceImpl#rebalanceByTopic, CLUSTERING, for topic number `topic` of the
// subscriptions; past the last one doRebalance returns.
void ConsumerEngine::rebalance_topic(std::size_t i, std::size_t topic, bool balanced,
                                     std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  const ConsumerSpec& spec = spec_of(instance);
  if (topic >= spec.topics.size()) {
    ++record_.rebalance_runs;
    instance.rebalance.run_ended(t_ms, balanced);
    rebalance_wait(instance, i);
    return;
  }
  const std::string& name = spec.topics[topic];
  const auto route = instance.routes.find(name);
  if (instance.subscribe_info.find(name) == instance.subscribe_info.end() ||
      route == instance.routes.end() || route->second.broker_datas.empty()) {
    rebalance_topic(i, topic + 1, balanced, t_ms);  // mqSet null: the round counts as balanced
    return;
  }
  // Java: MQClientInstance#findBrokerAddrByTopic: a random BrokerData of the cached route, its
  // master or (BrokerData#selectBrokerAddr) a random address.
  const std::vector<core::BrokerData>& brokers = route->second.broker_datas;
  const core::BrokerData& broker = brokers[instance.rng.uniform_u64(brokers.size())];
  if (broker.broker_addrs.empty()) {
    rebalance_topic(i, topic + 1, balanced, t_ms);
    return;
  }
  std::string address;
  if (const auto master = broker.broker_addrs.find(0); master != broker.broker_addrs.end()) {
    address = master->second;
  } else {
    auto pick = broker.broker_addrs.begin();
    std::advance(pick,
                 static_cast<std::ptrdiff_t>(instance.rng.uniform_u64(broker.broker_addrs.size())));
    address = pick->second;
  }
  auto listed = std::make_shared<std::shared_ptr<const std::vector<std::string>>>();
  const std::string group = spec.group;
  sync_call(
      i, address, t_ms, spec.config.mq_client_api_timeout,
      [this, listed, group](BrokerSide& side, std::uint64_t, std::int64_t) {
        *listed = consumer_list(side, group);
      },
      [this, i, topic, balanced, listed](const CallResult& result) {
        Instance& self = *instances_[i];
        // An exception or "no consumer for this group" gives null: nothing changes this round.
        if (result.cause != SendCause::kOk || !*listed || (*listed)->empty()) {
          rebalance_topic(i, topic + 1, balanced, result.end_ms);
          return;
        }
        const std::vector<MessageQueue> allocated = allocate_message_queue_averagely(
            self.subscribe_info.at(spec_of(self).topics[topic]), **listed, self.client_id);
        update_process_queues(i, topic, allocated, balanced, result.end_ms);
      });
}

// Java: RebalanceImpl#updateProcessQueueTableInRebalance: queues no longer allocated, or whose
// pulls stopped for PULL_MAX_IDLE_TIME, are dropped (RebalancePushImpl#
// removeUnnecessaryMessageQueue: persist the offset with a oneway, then forget it); the new ones
// are added one by one.
void ConsumerEngine::update_process_queues(std::size_t i, std::size_t topic,
                                           const std::vector<MessageQueue>& allocated,
                                           bool balanced, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  const ConsumerSpec& spec = spec_of(instance);
  const std::string& name = spec.topics[topic];
  std::set<QueueKey> wanted;
  for (const MessageQueue& queue : allocated)
    wanted.insert({queue.broker_name, name, queue.queue_id});
  std::vector<QueueKey> to_drop;
  for (const auto& [key, held] : instance.held) {
    if (key.topic != name) continue;
    if (!wanted.count(key) || held->pq.pull_expired(t_ms, kPullMaxIdleTimeMs))
      to_drop.push_back(key);
  }
  std::int64_t now = t_ms;
  for (const QueueKey& key : to_drop) {
    drop_held(i, key, now);
    const auto offset = instance.offset_table.find(key);
    const auto names = instance.broker_addr_table.find(key.broker_name);
    if (offset != instance.offset_table.end() && names != instance.broker_addr_table.end() &&
        names->second.count(0)) {
      const OffsetKey offset_key{spec.group, key.topic, key.queue_id};
      const std::int64_t value = offset->second;
      now = oneway_call(instance, i, names->second.at(0), now,
                        [offset_key, value](BrokerSide& side, std::uint64_t, std::int64_t) {
                          side.offsets.commit_offset(offset_key, value);
                        });
    }
    instance.offset_table.erase(key);
  }
  std::vector<QueueKey> to_add;
  for (const QueueKey& key : wanted) {
    if (!instance.held.count(key)) to_add.push_back(key);
  }
  const bool changed = !to_drop.empty();
  if (now == t_ms) {
    add_queues(i, topic, std::move(to_add), 0, changed, balanced, now);
    return;
  }
  on_instance(i, now,
              [this, i, topic, to_add = std::move(to_add), changed, balanced](Instance&) mutable {
                add_queues(i, topic, std::move(to_add), 0, changed, balanced, now_ms_);
              });
}

// Java: for each new queue, removeDirtyOffset then computePullFromWhere, whose
// QUERY_CONSUMER_OFFSET to the master decides the first offset (a queue the broker cannot be
// asked about is not added this round, and the round is not balanced), then a PullRequest.
// Past the last one, a change calls messageQueueChanged: a new subVersion and a heartbeat to
// every broker on this thread.
void ConsumerEngine::add_queues(std::size_t i, std::size_t topic, std::vector<QueueKey> to_add,
                                std::size_t next, bool changed, bool balanced, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  const ConsumerSpec& spec = spec_of(instance);
  if (next >= to_add.size()) {
    if (!changed) {
      rebalance_topic(i, topic + 1, balanced, t_ms);
      return;
    }
    instance.sub_version[spec.topics[topic]] = t_ms;
    heartbeat_all(i, t_ms, [this, i, topic, balanced](Instance&, std::int64_t end) {
      rebalance_topic(i, topic + 1, balanced, end);
    });
    return;
  }
  const QueueKey key = to_add[next];
  instance.offset_table.erase(key);
  const auto names = instance.broker_addr_table.find(key.broker_name);
  if (names == instance.broker_addr_table.end() || !names->second.count(0)) {
    add_queues(i, topic, std::move(to_add), next + 1, changed, false, t_ms);
    return;
  }
  auto found = std::make_shared<std::optional<std::int64_t>>();
  const OffsetKey offset_key{spec.group, key.topic, key.queue_id};
  sync_call(
      i, names->second.at(0), t_ms, kQueryOffsetTimeoutMs,
      [found, offset_key](BrokerSide& side, std::uint64_t, std::int64_t) {
        // Java: ConsumerManageProcessor#queryConsumerOffset: a queue the group never committed
        // whose messages are all still in the store (minOffset 0, none only on disk) answers 0.
        *found = side.offsets.query_offset(offset_key).value_or(0);
      },
      [this, i, topic, to_add = std::move(to_add), next, changed, balanced, key,
       found](const CallResult& result) mutable {
        Instance& self = *instances_[i];
        if (result.cause != SendCause::kOk || !found->has_value()) {
          add_queues(i, topic, std::move(to_add), next + 1, changed, false, result.end_ms);
          return;
        }
        auto held = std::make_shared<Held>();
        held->queue = queue_index(spec_of(self).group, key);
        held->key = key;
        held->next_offset = **found;
        held->owned_from_ms = result.end_ms;
        held->pq.set_last_pull_ms(result.end_ms);
        self.held[key] = held;
        const std::int64_t first_pull = inputs_.scenario.profile == core::Profile::kV5
                                            ? result.end_ms + kFirstPullDelayV5Ms
                                            : result.end_ms;
        on_instance(i, first_pull, [this, i, held](Instance&) { enqueue_pull(i, held, now_ms_); });
        add_queues(i, topic, std::move(to_add), next + 1, true, balanced, result.end_ms);
      });
}

}  // namespace nssim::sim

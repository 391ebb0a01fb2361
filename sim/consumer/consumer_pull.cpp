// File: a consumer instance's PullMessageService thread and its pulls (DefaultMQPushConsumerImpl#
// pullMessage, PullAPIWrapper#pullKernelImpl, async, one per queue at a time), the broker's
// PullMessageProcessor with long polling, and ConsumeMessageConcurrentlyService's pool that runs
// the listener and moves the offset.
#include <algorithm>

#include "sim/consumer/consumer_engine.h"

namespace nssim::sim {

namespace {

// Java: DefaultMQPushConsumerImpl: pullThresholdForQueue (1000 messages),
// consumeConcurrentlyMaxSpan (2000), PULL_TIME_DELAY_MILLS_WHEN_CACHE_FLOW_CONTROL (50 ms) and
// CONSUMER_TIMEOUT_MILLIS_WHEN_SUSPEND (30 s, the async pull's timeout).
constexpr std::size_t kPullThresholdForQueue = 1000;
constexpr std::int64_t kConsumeConcurrentlyMaxSpan = 2000;
constexpr std::int64_t kFlowControlDelayMs = 50;
constexpr std::int64_t kPullTimeoutMs = 30000;
// Java: NettyRemotingClient's timer runs scanResponseTable every 1000 ms from 3000 ms after the
// start; an async request is expired once begin + timeout + 1000 <= now.
constexpr std::int64_t kScanFirstDelayMs = 3000;
constexpr std::int64_t kScanPeriodMs = 1000;
constexpr std::int64_t kPullRequestBytes = 256;

const QueueMessages& no_messages() {
  static const QueueMessages empty;
  return empty;
}

}  // namespace

void ConsumerEngine::enqueue_pull(std::size_t i, const std::shared_ptr<Held>& held,
                                  std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  instance.pull_requests.push(held);
  if (!instance.pull_thread_busy) pull_thread_next(i, t_ms);
}

void ConsumerEngine::pull_thread_next(std::size_t i, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  while (!instance.pull_requests.empty()) {
    const std::shared_ptr<Held> held = instance.pull_requests.front().lock();
    instance.pull_requests.pop();
    if (!held || held->pq.dropped()) continue;
    const std::int64_t free = pull_message(i, held, t_ms);
    if (free > t_ms) {
      instance.pull_thread_busy = true;
      on_instance(i, free, [this, i](Instance& self) {
        self.pull_thread_busy = false;
        pull_thread_next(i, now_ms_);
      });
      return;
    }
  }
  instance.pull_thread_busy = false;
}

std::int64_t ConsumerEngine::pull_message(std::size_t i, const std::shared_ptr<Held>& held,
                                          std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  held->pq.set_last_pull_ms(t_ms);
  if (held->pq.msg_count() > kPullThresholdForQueue ||
      held->pq.max_span() > kConsumeConcurrentlyMaxSpan) {
    on_instance(i, t_ms + kFlowControlDelayMs,
                [this, i, held](Instance&) { enqueue_pull(i, held, now_ms_); });
    return t_ms;
  }
  // Java: MQClientInstance#findBrokerAddressInSubscribe(brokerName, 0, false): the master, else
  // the first address of the name. Deviation: a name missing from the table fails the pull
  // without upstream's route query on the pull thread first.
  const auto names = instance.broker_addr_table.find(held->key.broker_name);
  if (names == instance.broker_addr_table.end() || names->second.empty()) {
    pull_failed(i, held, t_ms, t_ms, "broker_not_exist");
    return t_ms;
  }
  const auto& [broker_id, address] = *names->second.begin();
  const auto b = broker_at(address);
  const ChannelUse use = acquire_channel(i, address, t_ms);
  // 4.9's invokeAsync waits for a running connect on this thread; 5.x's returns at once.
  const bool blocks = inputs_.scenario.profile == core::Profile::kV4_9;
  const std::int64_t free = blocks ? use.ready_ms : t_ms;
  if (use.cause != SendCause::kOk || !b) {
    const std::string cause =
        use.cause == SendCause::kConnectRefused ? "connect_refused" : "connect_timeout";
    on_instance(i, use.ready_ms, [this, i, held, t_ms, cause](Instance&) {
      pull_failed(i, held, t_ms, now_ms_, cause);
    });
    return free;
  }
  const std::int64_t sent = use.ready_ms;
  const std::uint64_t id = instance.next_pull++;
  instance.pulls[id] = Instance::PullInFlight{held, sent, use.channel, false};
  instance.remoting.channel_at(use.channel).add_pending(id);
  std::optional<std::int64_t> commit;
  if (const auto offset = instance.offset_table.find(held->key);
      broker_id == 0 && offset != instance.offset_table.end() && offset->second > 0) {
    commit = offset->second;
  }
  const std::int64_t sub_version = instance.sub_version[held->key.topic];
  const std::int64_t since_scan =
      sent + kPullTimeoutMs + kScanPeriodMs - (instance.started_ms + kScanFirstDelayMs);
  const std::int64_t expired =
      instance.started_ms + kScanFirstDelayMs +
      std::max<std::int64_t>(0, (since_scan + kScanPeriodMs - 1) / kScanPeriodMs) * kScanPeriodMs;
  if (const auto processed = network_.request_arrival(instance.node, use.node, use.epoch, sent,
                                                      sent + kPullTimeoutMs, kPullRequestBytes)) {
    const QueueKey key = held->key;
    const std::int64_t offset = held->next_offset;
    const std::uint64_t channel = use.channel;
    const std::size_t broker = *b;
    on_broker(broker, use.epoch, *processed,
              [this, broker, i, id, channel, key, offset, commit, sub_version,
               at = *processed](BrokerSide& side) {
                touch(side, i, channel, at);
                process_pull(side, broker, i, id, channel, key, offset, commit, sub_version, at);
              });
  }
  // 5.x: the FIN of a broker that went down fails the pull at once (channelInactive ->
  // failFast); 4.9 leaves it to the timeout.
  if (!blocks) {
    if (const auto fin =
            network_.client_sees_close(instance.node, use.node, use.epoch, sent, expired)) {
      on_instance(i, *fin, [this, i, id](Instance&) {
        pull_done(i, id, PullAnswer{"connection_closed"}, now_ms_);
      });
    }
  }
  on_instance(i, expired,
              [this, i, id](Instance&) { pull_done(i, id, PullAnswer{"timeout"}, now_ms_); });
  return free;
}

// Java: PullMessageProcessor#processRequest: the group must be known (a heartbeat reached this
// incarnation), its subscription as new as the pull's; the commit is stored on a master; then
// messages from the pull's offset, or the request parks in PullRequestHoldService.
void ConsumerEngine::process_pull(BrokerSide& broker, std::size_t b, std::size_t i,
                                  std::uint64_t pull, std::uint64_t channel, const QueueKey& key,
                                  std::int64_t offset, std::optional<std::int64_t> commit,
                                  std::int64_t sub_version, std::int64_t t_ms) {
  const Instance& instance = *instances_[i];
  const ConsumerSpec& spec = spec_of(instance);
  const auto group = broker.groups.find(spec.group);
  if (group == broker.groups.end() || group->second.empty()) {
    answer_pull(broker, i, pull, channel, PullAnswer{"subscription_not_exist"}, t_ms);
    return;
  }
  if (const auto version = broker.sub_versions.find({spec.group, key.topic});
      version == broker.sub_versions.end() || version->second < sub_version) {
    answer_pull(broker, i, pull, channel, PullAnswer{"subscription_not_latest"}, t_ms);
    return;
  }
  if (commit && broker.broker_id == 0) {
    broker.offsets.commit_offset(OffsetKey{spec.group, key.topic, key.queue_id}, *commit);
  }
  const auto stored = inputs_.stored.queues().find(key);
  const QueueMessages& queue =
      stored == inputs_.stored.queues().end() ? no_messages() : stored->second;
  const std::int64_t batch = spec.config.pull_batch_size;
  const std::int64_t available = queue.max_offset_at(t_ms);
  if (offset < available) {
    answer_pull(broker, i, pull, channel,
                PullAnswer{"", offset, std::min(offset + batch, available)}, t_ms);
    return;
  }
  const HoldService hold =
      hold_service(inputs_.scenario.profile, broker.broker_id != 0, broker.started_ms);
  const std::int64_t answer_at =
      held_pull_answer_ms(queue, offset, t_ms, spec.config.broker_suspend_max_time_millis, hold);
  on_broker(b, broker.epoch, answer_at,
            [this, i, pull, channel, &queue, offset, batch, answer_at](BrokerSide& side) {
              const std::int64_t now_available = queue.max_offset_at(answer_at);
              answer_pull(
                  side, i, pull, channel,
                  PullAnswer{"", offset, std::min(offset + batch, std::max(offset, now_available))},
                  answer_at);
            });
}

void ConsumerEngine::answer_pull(BrokerSide& broker, std::size_t i, std::uint64_t pull,
                                 std::uint64_t channel, PullAnswer answer, std::int64_t t_ms) {
  const Instance& instance = *instances_[i];
  if (network_.deliver(broker.node, instance.node, instance.epoch, t_ms) != Delivery::kDelivered) {
    return;  // the consumer learns by its timeout or a close
  }
  touch(broker, i, channel, t_ms);
  const std::int64_t arrival = t_ms + network_.transit_ms(broker.node, instance.node, t_ms);
  on_instance(i, arrival, [this, i, pull, answer = std::move(answer)](Instance&) {
    pull_done(i, pull, answer, now_ms_);
  });
}

// Java: PullCallback#onSuccess (FOUND: into the ProcessQueue, consume, pull again at once;
// NO_NEW_MSG: pull again at once, the offset moved if nothing is held) or #onException.
void ConsumerEngine::pull_done(std::size_t i, std::uint64_t pull, const PullAnswer& answer,
                               std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  const auto found = instance.pulls.find(pull);
  if (found == instance.pulls.end() || found->second.done) return;
  const std::shared_ptr<Held> held = found->second.held.lock();
  const std::int64_t sent = found->second.sent_ms;
  const std::uint64_t channel = found->second.channel;
  instance.pulls.erase(found);
  if (NettyRemotingClient::Channel* open = instance.remoting.find_channel(channel)) {
    open->remove_pending(pull);
    instance.remoting.forget_channel_if_idle(channel);
  }
  if (!held || held->pq.dropped()) return;
  if (!answer.error.empty()) {
    pull_failed(i, held, sent, t_ms, answer.error);
    return;
  }
  held->next_offset = answer.to;
  if (answer.to > answer.from) {
    consume(i, held, answer.from, answer.to, t_ms);
  } else if (held->pq.msg_count() == 0) {
    std::int64_t& offset = instance.offset_table[held->key];
    offset = std::max(offset, answer.to);
  }
  const std::int64_t next = t_ms + spec_of(instance).config.pull_interval;
  if (next == t_ms) {
    enqueue_pull(i, held, t_ms);
  } else {
    on_instance(i, next, [this, i, held](Instance&) { enqueue_pull(i, held, now_ms_); });
  }
}

// Java: executePullRequestLater(pullRequest, pullTimeDelayMillsWhenException).
void ConsumerEngine::pull_failed(std::size_t i, const std::shared_ptr<Held>& held,
                                 std::int64_t sent_ms, std::int64_t t_ms,
                                 const std::string& cause) {
  Instance& instance = *instances_[i];
  record_.pull_failures.push_back(
      {held->queue, static_cast<std::uint32_t>(i), sent_ms, t_ms, cause});
  const std::int64_t retry = t_ms + spec_of(instance).config.pull_time_delay_mills_when_exception;
  on_instance(i, retry, [this, i, held](Instance&) { enqueue_pull(i, held, now_ms_); });
}

// Java: ConsumeMessageConcurrentlyService#submitConsumeRequest, one request per message
// (consumeMessageBatchMaxSize 1), FIFO on the pool; ConsumeRequest#run skips a dropped queue;
// processConsumeResult moves the offset (increase only) to what ProcessQueue#removeMessage gives.
void ConsumerEngine::consume(std::size_t i, const std::shared_ptr<Held>& held, std::int64_t from,
                             std::int64_t to, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  std::vector<std::int64_t> offsets;
  for (std::int64_t offset = from; offset < to; ++offset) offsets.push_back(offset);
  held->pq.put_message(offsets);
  const std::int64_t consume_ms = spec_of(instance).consume_ms;
  const auto stored = inputs_.stored.queues().find(held->key);
  for (const std::int64_t offset : offsets) {
    const std::int64_t start = std::max(t_ms, instance.consume_free.top());
    instance.consume_free.pop();
    const std::int64_t end = start + consume_ms;
    instance.consume_free.push(end);
    const std::int64_t stored_ms =
        stored == inputs_.stored.queues().end() ? 0 : stored->second.stored_ms(offset);
    on_instance(i, start, [this, i, held, offset, stored_ms, end](Instance&) {
      if (held->pq.dropped()) return;
      record_.deliveries.push_back(
          {held->queue, static_cast<std::uint32_t>(i), offset, stored_ms, now_ms_});
      on_instance(i, end, [held, offset](Instance& self) {
        if (held->pq.dropped()) return;
        if (const auto commit = held->pq.remove_message({offset})) {
          std::int64_t& value = self.offset_table[held->key];
          value = std::max(value, *commit);
        }
      });
    });
  }
}

}  // namespace nssim::sim

// File: the sync send of DefaultMQProducerImpl: the retry loop of sendDefaultImpl, sendKernelImpl's
// address lookup, and the fault-item update per exception kind. A send without usable publish
// info first makes tryToFindTopicPublishInfo's synchronous route query
// (producer_route_query.cpp).

#include <algorithm>
#include <utility>

#include "sim/client/producer_model_impl.h"

namespace nssim::sim {

namespace {

// The exceptions sendDefaultImpl catches, by the cause the model reports.
bool is_remoting_exception(SendCause cause) {
  switch (cause) {
    case SendCause::kConnectTimeout:
    case SendCause::kConnectRefused:
    case SendCause::kRequestTimeout:
    case SendCause::kConnectionReset:
      return true;
    default:
      return false;
  }
}

}  // namespace

void ProducerModel::Impl::hold_info(Send& send, PublishEntry* entry) {
  release_info(send);
  send.info = entry;
  if (entry != nullptr) ++entry->sends;
}

void ProducerModel::Impl::release_info(Send& send) {
  client.let_go(std::exchange(send.info, nullptr));
}

// Java: DefaultMQProducerImpl#sendDefaultImpl up to its loop. beginTimestampFirst is the arrival,
// so the time a route query takes (producer_route_query.cpp) counts against sendMsgTimeout.
void ProducerModel::Impl::begin_send(SendRef ref, std::int64_t t_ms) {
  const auto& info = ref.producer.impl.info_by_slot[ref.send.topic_slot];
  if (info && info->info.ok()) {
    start_with_publish_info(ref, t_ms);
    return;
  }
  try_to_find_topic_publish_info(ref.send.id, t_ms);
}

void ProducerModel::Impl::start_with_publish_info(SendRef ref, std::int64_t t_ms) {
  auto [producer, send] = ref;
  hold_info(send, producer.impl.info_by_slot[send.topic_slot].get());
  if (send.info == nullptr || !send.info->info.ok()) {
    // MQClientException "No route info of this topic" (NOT_FOUND_TOPIC_EXCEPTION).
    finish_send(ref, t_ms, SendCause::kNoRoute);
    return;
  }
  send.times_total = 1 + producer.spec.config.retry_times_when_send_failed;  // SYNC
  iterate(ref, t_ms);
}

ThreadIndexes ProducerModel::Impl::thread_indexes(SendRef ref) {
  auto [producer, send] = ref;
  SendThread& thread = producer.impl.send_threads.thread(send.thread);
  if (thread.send_which_queue.size() <= send.topic_slot) {
    thread.send_which_queue.resize(producer.impl.topic_slots.size());
  }
  SendThread::IndexValue& value = thread.send_which_queue[send.topic_slot];
  if (value.info_serial != send.info->serial) {
    // Java: ThreadLocalIndex#incrementAndGet finds no value for this thread and draws one. The
    // draw is made here, just before the pick's first increment: 5.x's reset comes only on a
    // retry, after the send's first pick.
    value = {send.info->serial, ThreadLocalIndex::random(profile, choice_rng)};
  }
  return ThreadIndexes{value.value, thread.which_item_worst};
}

// Java: DefaultMQProducerImpl#sendDefaultImpl, the body of `for (; times < timesTotal; times++)`.
// The queue is selected before the budget check, so an attempt that used the whole budget still
// advances the round-robin index.
void ProducerModel::Impl::iterate(SendRef ref, std::int64_t t_ms) {
  auto [producer, send] = ref;
  if (send.times >= send.times_total) {
    finish_send(ref, t_ms, send.exception);
    return;
  }
  const bool reset_index = send.times > 0;  // 5.x; 4.9 has no reset
  const std::string* last_broker = send.mq != nullptr ? &send.mq->broker_name : nullptr;
  PublishEntry& entry = *send.info;
  const MessageQueue& mq = producer.impl.mq_fault_strategy.select_one_message_queue(
      entry.info, thread_indexes(ref), last_broker, reset_index, t_ms, choice_rng, send.mq_picked);
  send.mq = &mq;
  send.mq_broker = &mq == &send.mq_picked ? client.broker_ids.intern(mq.broker_name)
                                          : entry.queue_brokers[static_cast<std::size_t>(
                                                &mq - entry.info.message_queue_list().data())];
  const std::int64_t timeout = producer.spec.config.send_msg_timeout;
  const std::int64_t cost = t_ms - send.record.start_ms;
  if (timeout < cost) {
    // "sendDefaultImpl call timeout", whatever the earlier exception was.
    finish_send(ref, t_ms, SendCause::kSendTimeoutBudget);
    return;
  }
  std::int64_t current_timeout = timeout - cost;
  const std::int64_t max_per_request = producer.spec.config.send_msg_max_timeout_per_request;
  const bool can_retry_again = send.times + 1 < send.times_total;
  if (profile == core::Profile::kV5 && max_per_request > -1 && can_retry_again &&
      current_timeout > max_per_request) {
    current_timeout = max_per_request;
  }
  start_attempt(ref, t_ms, current_timeout);
}

// Java: DefaultMQProducerImpl#sendKernelImpl and MQClientAPIImpl#sendMessage. Their own budget
// checks see no time pass here, so only the address lookup can fail before the remoting call.
void ProducerModel::Impl::start_attempt(SendRef ref, std::int64_t t_ms, std::int64_t timeout_ms) {
  Send& send = ref.send;
  send.attempt_begin_ms = t_ms;
  send.attempt_timeout_ms = timeout_ms;
  AttemptRecord& attempt = send.record.attempts.emplace_back();
  // The interned name: a view that stays valid while the model lives, no copy per attempt.
  attempt.broker_name = client.broker_ids.name(send.mq_broker);
  attempt.broker_id = send.mq_broker;
  attempt.queue_id = send.mq->queue_id;
  attempt.start_ms = t_ms;
  attempt.end_ms = t_ms;
  attempt.cause = SendCause::kOk;
  send.planned_processed_ms = kNotProcessed;
  const std::optional<std::uint32_t> addr = client.find_broker_address_in_publish(send.mq_broker);
  if (!addr) {
    // MQClientException "The broker[...] not exist" (the route refresh it tries first is a no-op
    // while the publish info is ok).
    complete_attempt(ref, t_ms, SendCause::kNoRoute);
    return;
  }
  send.addr = *addr;
  invoke_sync(ref, t_ms);
}

// Java: the catch blocks of sendDefaultImpl (10.5 step 5).
void ProducerModel::Impl::complete_attempt(SendRef ref, std::int64_t t_ms, SendCause cause) {
  auto [producer, send] = ref;
  AttemptRecord& attempt = send.record.attempts.back();
  attempt.end_ms = t_ms;
  attempt.cause = cause;
  attempt.stored = processed_by(send.planned_processed_ms, t_ms);
  attempt.stored_ms = attempt.stored ? send.planned_processed_ms : kNotProcessed;
  const std::string& broker = send.mq->broker_name;
  const std::int64_t latency = t_ms - send.attempt_begin_ms;
  const bool v4_9 = profile == core::Profile::kV4_9;
  if (cause == SendCause::kOk) {
    // Every answer from a live broker is SEND_OK: broker-side errors and store statuses are not
    // modelled, so retryAnotherBrokerWhenNotStoreOK and retryResponseCodes never apply.
    producer.impl.mq_fault_strategy.update_fault_item(broker, latency, /*isolation=*/false,
                                                      /*reachable=*/true, t_ms);
    finish_send(ref, t_ms, SendCause::kOk);
    return;
  }
  if (is_remoting_exception(cause)) {
    producer.impl.mq_fault_strategy.update_fault_item(
        broker, latency, /*isolation=*/true,
        /*reachable=*/!producer.impl.mq_fault_strategy.start_detector_enable(), t_ms);
  } else {
    // MQClientException (kNoRoute): 4.9 isolates, 5.x does not.
    producer.impl.mq_fault_strategy.update_fault_item(broker, latency, /*isolation=*/v4_9,
                                                      /*reachable=*/true, t_ms);
  }
  send.exception = cause;  // "resend at once"
  ++send.times;
  iterate(ref, t_ms);
}

void ProducerModel::Impl::finish_send(SendRef ref, std::int64_t t_ms, SendCause cause) {
  auto [producer, send] = ref;
  send.live = false;
  --producer.impl.live_sends;
  release_info(send);
  producer.impl.send_threads.give_back(send.thread, t_ms);
  SendRecord& record = send.record;
  record.end_ms = t_ms;
  record.cause = cause;
  producer.observer.on_send(record);
  // Cleared now, while it is in cache: the slot is reused only after the producer's other sends,
  // and clearing it then cost a cache miss per send.
  record.attempts.clear();
}

}  // namespace nssim::sim

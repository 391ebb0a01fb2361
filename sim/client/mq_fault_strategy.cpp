// File: MQFaultStrategy of 4.9.8 and 5.3.3, with each version's latency thresholds.
#include "sim/client/mq_fault_strategy.h"

namespace nssim::sim {

namespace {

constexpr std::array<std::int64_t, 7> kLatencyMaxV4_9 = {50, 100, 550, 1000, 2000, 3000, 15000};
constexpr std::array<std::int64_t, 7> kNotAvailableV4_9 = {0,      0,      30000, 60000,
                                                           120000, 180000, 600000};
constexpr std::array<std::int64_t, 7> kLatencyMaxV5 = {50, 100, 550, 1800, 3000, 5000, 15000};
constexpr std::array<std::int64_t, 7> kNotAvailableV5 = {0, 0, 2000, 5000, 6000, 10000, 30000};

}  // namespace

MqFaultStrategy::MqFaultStrategy(core::Profile profile, bool send_latency_fault_enable,
                                 bool start_detector_enable)
    : profile_(profile),
      send_latency_fault_enable_(send_latency_fault_enable),
      start_detector_enable_(start_detector_enable),
      latency_max_(profile == core::Profile::kV4_9 ? kLatencyMaxV4_9 : kLatencyMaxV5),
      not_available_duration_(profile == core::Profile::kV4_9 ? kNotAvailableV4_9
                                                              : kNotAvailableV5),
      latency_fault_tolerance_(profile) {}

MessageQueue MqFaultStrategy::select_one_message_queue(
    const TopicPublishInfo& info, ThreadIndexes thread,
    const std::optional<std::string>& last_broker, bool reset_index, std::int64_t now_ms,
    Rng& rng) {
  MessageQueue picked;
  return select_one_message_queue(info, thread, last_broker ? &*last_broker : nullptr, reset_index,
                                  now_ms, rng, picked);
}

const MessageQueue& MqFaultStrategy::select_one_message_queue(const TopicPublishInfo& info,
                                                              ThreadIndexes thread,
                                                              const std::string* last_broker,
                                                              bool reset_index, std::int64_t now_ms,
                                                              Rng& rng, MessageQueue& picked) {
  if (send_latency_fault_enable_) {
    return profile_ == core::Profile::kV4_9
               ? select_v4_9_latency(info, thread, now_ms, rng, picked)
               : select_v5_latency(info, thread.send_which_queue, last_broker, reset_index, now_ms,
                                   rng);
  }
  // 4.9's selectOneMessageQueue(lastBrokerName) and 5.x's BrokerFilter pass make the same picks.
  return info.select_one_message_queue(thread.send_which_queue, last_broker);
}

const MessageQueue& MqFaultStrategy::select_v4_9_latency(const TopicPublishInfo& info,
                                                         ThreadIndexes thread, std::int64_t now_ms,
                                                         Rng& rng, MessageQueue& picked) {
  const auto& queues = info.message_queue_list();
  const auto n = static_cast<std::int64_t>(queues.size());
  std::int32_t index = thread.send_which_queue.increment_and_get();
  for (std::int64_t i = 0; i < n; ++i) {
    // Java: Math.abs(index++) % size, "if (pos < 0) pos = 0".
    std::int64_t pos = static_cast<std::int64_t>(java_abs(index)) % n;
    index = java_int_add(index, 1);
    if (pos < 0) pos = 0;
    const MessageQueue& mq = queues[static_cast<std::size_t>(pos)];
    if (latency_fault_tolerance_.is_available(mq.broker_name, now_ms)) return mq;
  }
  const auto not_best_broker =
      latency_fault_tolerance_.pick_one_at_least(now_ms, thread.which_item_worst, rng);
  const int write_queue_nums = info.get_queue_id_by_broker(not_best_broker);
  if (write_queue_nums > 0) {
    info.select_one_message_queue(thread.send_which_queue);  // advances it, unused as upstream
    picked = MessageQueue{*not_best_broker,
                          thread.send_which_queue.increment_and_get() % write_queue_nums};
    return picked;
  }
  // Java: remove(null) throws inside the try and falls through to the same plain pick.
  if (not_best_broker) latency_fault_tolerance_.remove(*not_best_broker);
  return info.select_one_message_queue(thread.send_which_queue);
}

const MessageQueue& MqFaultStrategy::select_v5_latency(const TopicPublishInfo& info,
                                                       ThreadLocalIndex& index,
                                                       const std::string* last_broker,
                                                       bool reset_index, std::int64_t now_ms,
                                                       Rng& rng) {
  if (reset_index) index.reset(rng);
  const auto not_last = [&](const MessageQueue& mq) {
    return last_broker == nullptr || mq.broker_name != *last_broker;
  };
  if (const MessageQueue* mq = info.select_one_message_queue(index, [&](const MessageQueue& q) {
        return latency_fault_tolerance_.is_available(q.broker_name, now_ms) && not_last(q);
      })) {
    return *mq;
  }
  if (const MessageQueue* mq = info.select_one_message_queue(index, [&](const MessageQueue& q) {
        return latency_fault_tolerance_.is_reachable(q.broker_name) && not_last(q);
      })) {
    return *mq;
  }
  return info.select_one_message_queue(index);
}

void MqFaultStrategy::update_fault_item(const std::string& broker_name,
                                        std::int64_t current_latency, bool isolation,
                                        bool reachable, std::int64_t now_ms) {
  if (!send_latency_fault_enable_) return;
  const std::int64_t assumed =
      isolation ? (profile_ == core::Profile::kV4_9 ? 30000 : 10000) : current_latency;
  latency_fault_tolerance_.update_fault_item(
      broker_name, current_latency, compute_not_available_duration(assumed), reachable, now_ms);
}

std::int64_t MqFaultStrategy::compute_not_available_duration(std::int64_t current_latency) const {
  for (std::size_t i = latency_max_.size(); i-- > 0;) {
    if (current_latency >= latency_max_[i]) return not_available_duration_[i];
  }
  return 0;
}

}  // namespace nssim::sim

// File: MQFaultStrategy of both profiles: which queue a send attempt uses (with or without
// sendLatencyFaultEnable) and how an attempt's latency or failure isolates its broker.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "nameserver_core/profile.h"
#include "sim/client/latency_fault_tolerance.h"
#include "sim/client/publish_info.h"
#include "sim/scenario/rng.h"

namespace nssim::sim {

// The calling thread's values of the ThreadLocalIndex objects a pick advances: the publish info's
// sendWhichQueue, and LatencyFaultToleranceImpl's whichItemWorst (drawn on its first use).
struct ThreadIndexes {
  ThreadLocalIndex& send_which_queue;
  std::optional<ThreadLocalIndex>& which_item_worst;
};

class MqFaultStrategy {
 public:
  MqFaultStrategy(core::Profile profile, bool send_latency_fault_enable,
                  bool start_detector_enable);

  // Java: MQFaultStrategy#selectOneMessageQueue. Requires info.ok().
  // 4.9, latency off: TopicPublishInfo#selectOneMessageQueue(lastBrokerName).
  // 4.9, latency on: the first available broker from ++index (lastBrokerName ignored), else a
  //   broker from pickOneAtLeast with a queue id from the index, else a plain pick.
  // 5.x: a filter excluding lastBrokerName; latency on: the index is reset on retries
  //   (reset_index), then available-and-not-last, reachable-and-not-last, then a plain pick.
  MessageQueue select_one_message_queue(const TopicPublishInfo& info, ThreadIndexes thread,
                                        const std::optional<std::string>& last_broker,
                                        bool reset_index, std::int64_t now_ms, Rng& rng);
  // The same without copies, for the send path: the queue returned is one of info's, or
  // `picked` when 4.9's pickOneAtLeast branch makes one up. last_broker may be null (none).
  const MessageQueue& select_one_message_queue(const TopicPublishInfo& info, ThreadIndexes thread,
                                               const std::string* last_broker, bool reset_index,
                                               std::int64_t now_ms, Rng& rng, MessageQueue& picked);
  // Java: MQFaultStrategy#updateFaultItem: a no-op unless sendLatencyFaultEnable. Isolation
  // assumes a latency of 30000 ms (4.9) or 10000 ms (5.x). `reachable` is 5.x's.
  void update_fault_item(const std::string& broker_name, std::int64_t current_latency,
                         bool isolation, bool reachable, std::int64_t now_ms);
  // Java: MQFaultStrategy#computeNotAvailableDuration.
  std::int64_t compute_not_available_duration(std::int64_t current_latency) const;

  bool send_latency_fault_enable() const { return send_latency_fault_enable_; }
  bool start_detector_enable() const { return start_detector_enable_; }
  const LatencyFaultTolerance& latency_fault_tolerance() const { return latency_fault_tolerance_; }

 private:
  const MessageQueue& select_v4_9_latency(const TopicPublishInfo& info, ThreadIndexes thread,
                                          std::int64_t now_ms, Rng& rng, MessageQueue& picked);
  const MessageQueue& select_v5_latency(const TopicPublishInfo& info, ThreadLocalIndex& index,
                                        const std::string* last_broker, bool reset_index,
                                        std::int64_t now_ms, Rng& rng);

  core::Profile profile_;
  bool send_latency_fault_enable_;
  bool start_detector_enable_;
  std::array<std::int64_t, 7> latency_max_;
  std::array<std::int64_t, 7> not_available_duration_;
  LatencyFaultTolerance latency_fault_tolerance_;
};

}  // namespace nssim::sim

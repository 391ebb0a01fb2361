// File: every message the brokers stored, per queue, in store order: what the consumers of a run
// can pull (sim/consumer). Filled from the producers' stored attempts when a scenario has
// consumers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sim/broker/queue_messages.h"

namespace nssim::sim {

// One broker queue: MessageQueue (brokerName, topic, queueId).
struct QueueKey {
  std::string broker_name;
  std::string topic;
  int queue_id = 0;
  friend bool operator<(const QueueKey& a, const QueueKey& b) {
    return std::tie(a.topic, a.broker_name, a.queue_id) <
           std::tie(b.topic, b.broker_name, b.queue_id);
  }
  friend bool operator==(const QueueKey& a, const QueueKey& b) { return !(a < b) && !(b < a); }
};

class StoredMessages {
 public:
  void add(std::string_view broker_name, std::string_view topic, int queue_id,
           std::int64_t stored_ms) {
    pending_[QueueKey{std::string(broker_name), std::string(topic), queue_id}].push_back(stored_ms);
  }
  // Sorts each queue's store times and builds the queues; add no more after it.
  void finish();
  const std::map<QueueKey, QueueMessages>& queues() const { return queues_; }

 private:
  std::map<QueueKey, std::vector<std::int64_t>> pending_;
  std::map<QueueKey, QueueMessages> queues_;
};

}  // namespace nssim::sim

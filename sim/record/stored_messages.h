// File: every message the brokers stored in a run, per queue (brokerName, topic, queueId), in
// store order: what the consumer model pulls. Filled from the producers' send records (each
// stored attempt is one copy), only when the scenario has consumers.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "sim/broker/queue_messages.h"

namespace nssim::sim {

// One broker queue: MessageQueue (brokerName, topic, queueId), ordered by topic first.
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
  // Every topic's messages, or only those of `topics` (the ones some consumer subscribes to: a
  // run keeps no message nobody will pull).
  StoredMessages() = default;
  explicit StoredMessages(std::set<std::string, std::less<>> topics) : topics_(std::move(topics)) {}

  // One copy of a message stored in queue (broker_name, topic, queue_id) at stored_ms, the
  // instant the broker processed the send. Reports come in any order across producers.
  void add(std::string_view broker_name, std::string_view topic, int queue_id,
           std::int64_t stored_ms);
  // Sorts each queue's store times and builds queues(); add is refused after it.
  void finish();
  bool finished() const { return finished_; }
  // Every queue that stored at least one message (empty before finish()).
  const std::map<QueueKey, QueueMessages>& queues() const { return queues_; }
  // How many copies were stored in all.
  std::int64_t total() const { return total_; }

 private:
  std::optional<std::set<std::string, std::less<>>> topics_;
  std::map<QueueKey, std::vector<std::int64_t>> pending_;
  std::map<QueueKey, QueueMessages> queues_;
  std::int64_t total_ = 0;
  bool finished_ = false;
};

}  // namespace nssim::sim

// File: StoredMessages (see stored_messages.h).
#include "sim/record/stored_messages.h"

#include <algorithm>

#include "common/invariant.h"

namespace nssim::sim {

void StoredMessages::add(std::string_view broker_name, std::string_view topic, int queue_id,
                         std::int64_t stored_ms) {
  NSSIM_CHECK(!finished_, "no message is stored after the producers finished");
  if (topics_ && topics_->find(topic) == topics_->end()) return;
  pending_[QueueKey{std::string(broker_name), std::string(topic), queue_id}].push_back(stored_ms);
  ++total_;
}

void StoredMessages::finish() {
  NSSIM_CHECK(!finished_, "StoredMessages::finish runs once");
  for (auto& [key, times] : pending_) {
    std::sort(times.begin(), times.end());
    QueueMessages& queue = queues_[key];
    for (const std::int64_t t : times) queue.append(t);
  }
  pending_.clear();
  finished_ = true;
}

}  // namespace nssim::sim

// File: StoredMessages (see stored_messages.h).
#include "sim/record/stored_messages.h"

#include <algorithm>

namespace nssim::sim {

void StoredMessages::finish() {
  for (auto& [key, times] : pending_) {
    std::sort(times.begin(), times.end());
    QueueMessages& queue = queues_[key];
    for (const std::int64_t t : times) queue.append(t);
  }
  pending_.clear();
}

}  // namespace nssim::sim

// File: ProcessQueue (see process_queue.h).
#include "sim/client/process_queue.h"

namespace nssim::sim {

std::size_t ProcessQueue::put_message(const std::vector<std::int64_t>& offsets) {
  std::size_t added = 0;
  for (const std::int64_t offset : offsets) {
    if (held_.insert(offset).second) {
      ++added;
      queue_offset_max_ = offset;
    }
  }
  return added;
}

std::optional<std::int64_t> ProcessQueue::remove_message(const std::vector<std::int64_t>& offsets) {
  if (held_.empty()) return std::nullopt;
  for (const std::int64_t offset : offsets) held_.erase(offset);
  if (held_.empty()) return queue_offset_max_ + 1;
  return *held_.begin();
}

}  // namespace nssim::sim

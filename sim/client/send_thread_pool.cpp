// File: Executors#newCachedThreadPool's hand-off and keep-alive, for a producer's sends.
#include "sim/client/send_thread_pool.h"

#include <cstddef>

namespace nssim::sim {

std::uint32_t CachedThreadPool::take(std::int64_t t_ms) {
  std::size_t ended = 0;
  while (ended < idle_.size() && idle_[ended].second + kCachedThreadPoolKeepAliveMs <= t_ms) {
    free_ids_.push_back(idle_[ended].first);  // ThreadPoolExecutor#processWorkerExit
    ++ended;
  }
  idle_.erase(idle_.begin(), idle_.begin() + static_cast<std::ptrdiff_t>(ended));
  if (!idle_.empty()) {
    const std::uint32_t last_idle = idle_.back().first;
    idle_.pop_back();
    return last_idle;
  }
  if (free_ids_.empty()) {
    threads_.emplace_back();
    return static_cast<std::uint32_t>(threads_.size() - 1);
  }
  const std::uint32_t id = free_ids_.back();
  free_ids_.pop_back();
  threads_[id] = SendThread{};
  return id;
}

}  // namespace nssim::sim

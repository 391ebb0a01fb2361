// File: QueueMessages and held_pull_answer_ms (see queue_messages.h).
#include "sim/broker/queue_messages.h"

#include <algorithm>

namespace nssim::sim {

std::int64_t QueueMessages::max_offset_at(std::int64_t t_ms) const {
  return std::upper_bound(stored_ms_.begin(), stored_ms_.end(), t_ms) - stored_ms_.begin();
}

namespace {

// The first check of the hold service at or after t_ms: waitForRunning(5000) from its start.
std::int64_t first_check_at_or_after(const HoldService& hold, std::int64_t t_ms) {
  if (t_ms <= hold.started_ms) return hold.started_ms + kHoldServiceCheckIntervalMs;
  const std::int64_t since = t_ms - hold.started_ms;
  const std::int64_t checks =
      (since + kHoldServiceCheckIntervalMs - 1) / kHoldServiceCheckIntervalMs;
  return hold.started_ms + std::max<std::int64_t>(1, checks) * kHoldServiceCheckIntervalMs;
}

}  // namespace

std::int64_t held_pull_answer_ms(const QueueMessages& queue, std::int64_t pull_offset,
                                 std::int64_t suspended_ms, std::int64_t timeout_ms,
                                 const HoldService& hold) {
  const std::int64_t arrival = queue.stored_ms(pull_offset);
  NSSIM_CHECK(arrival > suspended_ms, "a pull with a message to take is not held");
  const std::int64_t expiry = suspended_ms + timeout_ms;
  const std::int64_t by_check = first_check_at_or_after(hold, std::min(arrival, expiry));
  return hold.notified_on_arrival ? std::min(arrival, by_check) : by_check;
}

}  // namespace nssim::sim

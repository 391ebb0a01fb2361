// File: the rule of a one-thread ScheduledThreadPoolExecutor whose tasks run at a fixed rate, the
// one copy behind both of nssim's simulated executors (sim/client/client_scheduler.h, the client
// instance's scheduler thread; sim/world/serial_executor.h, the brokers' executors).
#pragma once

#include <algorithm>
#include <cstdint>

namespace nssim {

// Java: DelayedWorkQueue#take: the task whose next run is due first; among equal dues the one
// submitted first (ScheduledFutureTask#compareTo breaks ties by sequenceNumber), which is the
// first in `[first, last)` when tasks are kept in submission order. `due_of(task)` is its next
// run's due time. `last` when there is no task.
template <typename Iterator, typename DueOf>
Iterator next_task_due(Iterator first, Iterator last, DueOf due_of) {
  // min_element keeps the first of equal elements.
  return std::min_element(
      first, last, [&due_of](const auto& a, const auto& b) { return due_of(a) < due_of(b); });
}

// Java: ScheduledFutureTask#setNextRunTime for scheduleAtFixedRate: the next run is due one
// period after this run's due time, not after its start or end, so late runs bunch up back to
// back and none is skipped.
constexpr std::int64_t next_fixed_rate_due(std::int64_t due_ms, std::int64_t period_ms) {
  return due_ms + period_ms;
}

}  // namespace nssim

// File: ClientScheduler (see client_scheduler.h).
#include "sim/client/client_scheduler.h"

#include <algorithm>

#include "common/invariant.h"

namespace nssim::sim {

void ClientScheduler::schedule_at_fixed_rate(ScheduledTask task, std::int64_t first_due_ms,
                                             std::int64_t period_ms) {
  // Java: scheduleAtFixedRate throws IllegalArgumentException for period <= 0; the scenario
  // loader only accepts positive intervals.
  NSSIM_CHECK(period_ms > 0, "a fixed-rate task needs a positive period");
  tasks_.push_back(Periodic{task, first_due_ms, period_ms});
}

ScheduledRun ClientScheduler::take(std::int64_t idle_ms) {
  NSSIM_CHECK(!tasks_.empty(), "the scheduler has no task to take");
  // min_element keeps the first of equal dues: the task submitted first.
  const auto next = std::min_element(
      tasks_.begin(), tasks_.end(),
      [](const Periodic& a, const Periodic& b) { return a.next_due_ms < b.next_due_ms; });
  const ScheduledRun run{next->task, next->next_due_ms, std::max(next->next_due_ms, idle_ms),
                         /*end_ms=*/0};
  next->next_due_ms += next->period_ms;
  return run;
}

}  // namespace nssim::sim

// File: ClientScheduler (see client_scheduler.h).
#include "sim/client/client_scheduler.h"

#include <algorithm>

#include "common/fixed_rate_rule.h"
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
  const auto next = next_task_due(tasks_.begin(), tasks_.end(),
                                  [](const Periodic& task) { return task.next_due_ms; });
  const ScheduledRun run{next->task, next->next_due_ms, std::max(next->next_due_ms, idle_ms),
                         /*end_ms=*/0};
  next->next_due_ms = next_fixed_rate_due(next->next_due_ms, next->period_ms);
  return run;
}

}  // namespace nssim::sim

// File: SerialExecutor (see serial_executor.h).
#include "sim/world/serial_executor.h"

#include "common/fixed_rate_rule.h"

namespace nssim::sim {

SerialExecutor::SerialExecutor(Schedule schedule, Now now)
    : schedule_(std::move(schedule)), now_(std::move(now)) {}

void SerialExecutor::schedule_at_fixed_rate(std::int64_t first_ms, std::int64_t period_ms,
                                            Task task) {
  tasks_.push_back(Periodic{std::move(task), first_ms, period_ms});
  schedule_(first_ms, [this] { poke(); });
}

void SerialExecutor::submit(Task task) {
  const std::int64_t now = now_();
  tasks_.push_back(Periodic{std::move(task), now, 0});
  schedule_(now, [this] { poke(); });
}

// Runs the task due first if it is due and the thread is free (ties: the task scheduled first).
// Tasks live in a list, so a running task may submit another without moving itself.
void SerialExecutor::poke() {
  if (busy_ || shut_down_) return;
  const auto due = next_task_due(tasks_.begin(), tasks_.end(),
                                 [](const Periodic& task) { return task.next_ms; });
  if (due == tasks_.end() || due->next_ms > now_()) return;
  busy_ = true;
  if (due->period_ms == 0) {
    const Task task = std::move(due->task);
    tasks_.erase(due);
    task([this] {
      busy_ = false;
      poke();
    });
    return;
  }
  due->task([this, due] {
    busy_ = false;
    due->next_ms = next_fixed_rate_due(due->next_ms, due->period_ms);
    schedule_(due->next_ms, [this] { poke(); });
    poke();
  });
}

}  // namespace nssim::sim

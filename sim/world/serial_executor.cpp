// File: SerialExecutor (see serial_executor.h).
#include "sim/world/serial_executor.h"

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

// Runs the earliest due task if the thread is free; ties go to the task scheduled first. Tasks
// live in a list, so a running task may submit another without moving itself.
void SerialExecutor::poke() {
  if (busy_ || shut_down_) return;
  const std::int64_t now = now_();
  auto due = tasks_.end();
  for (auto it = tasks_.begin(); it != tasks_.end(); ++it) {
    if (it->next_ms <= now && (due == tasks_.end() || it->next_ms < due->next_ms)) due = it;
  }
  if (due == tasks_.end()) return;
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
    due->next_ms += due->period_ms;
    schedule_(due->next_ms, [this] { poke(); });
    poke();
  });
}

}  // namespace nssim::sim

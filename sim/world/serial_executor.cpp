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

// Runs the earliest due task if the thread is free; ties go to the task scheduled first.
void SerialExecutor::poke() {
  if (busy_ || shut_down_) return;
  const std::int64_t now = now_();
  Periodic* due = nullptr;
  for (auto& periodic : tasks_) {
    if (periodic.next_ms <= now && (due == nullptr || periodic.next_ms < due->next_ms)) {
      due = &periodic;
    }
  }
  if (due == nullptr) return;
  busy_ = true;
  const std::size_t index = static_cast<std::size_t>(due - tasks_.data());
  due->task([this, index] {
    busy_ = false;
    Periodic& done = tasks_[index];
    done.next_ms += done.period_ms;
    schedule_(done.next_ms, [this] { poke(); });
    poke();
  });
}

}  // namespace nssim::sim

// File: a single-threaded ScheduledThreadPoolExecutor as simulated time sees it. A task occupies
// the one thread until it reports done (its network calls may take seconds), and fixed-rate
// tasks keep their schedule: a late run does not shift the later ones, so missed runs follow
// each other at once. Brokers and clients run their periodic RocketMQ tasks on these.
#pragma once

#include <cstdint>
#include <functional>
#include <list>

namespace nssim::sim {

class SerialExecutor {
 public:
  using Done = std::function<void()>;
  using Task = std::function<void(Done)>;
  using Schedule = std::function<void(std::int64_t t_ms, std::function<void()>)>;
  using Now = std::function<std::int64_t()>;

  SerialExecutor(Schedule schedule, Now now);

  // Java: scheduleAtFixedRate(task, initialDelay, period): first run at first_ms.
  void schedule_at_fixed_rate(std::int64_t first_ms, std::int64_t period_ms, Task task);
  // Java: execute(task): runs once, queued behind tasks that were due earlier.
  void submit(Task task);
  // Java: shutdown(): nothing new starts; a running task finishes.
  void shutdown() { shut_down_ = true; }

 private:
  struct Periodic {
    Task task;
    std::int64_t next_ms;
    std::int64_t period_ms;  // 0: a submitted task that runs once
  };
  void poke();

  Schedule schedule_;
  Now now_;
  std::list<Periodic> tasks_;
  bool busy_ = false;
  bool shut_down_ = false;
};

}  // namespace nssim::sim

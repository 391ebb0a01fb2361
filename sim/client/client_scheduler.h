// File: the client instance's one scheduler thread, MQClientInstance's
// MQClientFactoryScheduledThread (Executors#newSingleThreadScheduledExecutor, every task
// registered with scheduleAtFixedRate), as a pure rule: which run the thread takes next and when.
// The model's event loop runs the taken run and tells it nothing back: a run holds the thread
// until it returns, and the loop asks for the next one at that instant.
//
// The tasks the model registers (MQClientInstance#startScheduledTask, in its submission order):
// updateTopicRouteInfoFromNameServer (first delay 10 ms, pollNameServerInterval) and
// cleanOfflineBroker + sendHeartbeatToAllBrokerWithLock (1000 ms, heartbeatBrokerInterval), and
// in a consumer's instance persistAllConsumerOffset (10 s, persistConsumerOffsetInterval;
// sim/consumer/consumer_scheduler.cpp). Not modelled: fetchNameServerAddr (registered only
// without namesrvAddr, and nssim's clients always have one) and adjustThreadPool (in memory, no
// cost). sim/world/serial_executor.h is the SimGrid world's callback-driven executor of the same
// rule (common/fixed_rate_rule.h), for the brokers' periodic tasks.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/record/client_schedule.h"

namespace nssim::sim {

class ClientScheduler {
 public:
  // Java: ScheduledExecutorService#scheduleAtFixedRate(task, initialDelay, period), the first run
  // due at first_due_ms. Tasks keep their submission order, which breaks ties between equal dues.
  void schedule_at_fixed_rate(ScheduledTask task, std::int64_t first_due_ms,
                              std::int64_t period_ms);
  // Java: ScheduledThreadPoolExecutor's DelayedWorkQueue#take for a thread idle from idle_ms on:
  // the run with the smallest (due time, submission order), starting at its due time or at
  // idle_ms if it was due earlier (end_ms is the caller's, at its return). That task's next run
  // is due one period after this one's due time, not after its start (ScheduledFutureTask#
  // setNextRunTime): late runs bunch up back to back and none is skipped. Setting it at the take
  // rather than at the return is the same, as only this thread takes runs.
  ScheduledRun take(std::int64_t idle_ms);
  bool empty() const { return tasks_.empty(); }

 private:
  struct Periodic {
    ScheduledTask task;
    std::int64_t next_due_ms;
    std::int64_t period_ms;
  };
  std::vector<Periodic> tasks_;  // in submission order
};

}  // namespace nssim::sim

// File: a client instance's RebalanceService thread as a pure rule: when its waits end and when
// it runs doRebalance, under each profile's loop, for an event loop that tells it of wake-ups
// and of each run's end.
//
// Java: RebalanceService#run on ServiceThread#waitForRunning / #wakeup. A wait returns at once
// when a wake-up came since the last one (hasNotified: wake-ups while the thread runs, or several
// during one wait, coalesce into one), else after its interval or at the first wake-up.
//   4.9: wait(waitInterval), doRebalance, again: the interval counts from the end of a run.
//   5.x (5.2.0, apache/rocketmq #7644): wait(realWaitInterval); if less than minInterval has
//        passed since the last run ended (or since the service was built, before the first run),
//        wait the rest and ask again; else doRebalance, and realWaitInterval becomes waitInterval
//        when every group and topic was balanced, minInterval when one was not.
#pragma once

#include <cstdint>

#include "nameserver_core/profile.h"

namespace nssim::sim {

// Java: the system properties rocketmq.client.rebalance.waitInterval (20000 ms, both lines) and
// rocketmq.client.rebalance.minInterval (1000 ms, 5.x only).
struct RebalanceIntervals {
  std::int64_t wait_interval_ms = 20000;
  std::int64_t min_interval_ms = 1000;
};

class RebalanceService {
 public:
  // The service as MQClientInstance builds it at created_ms (5.x's lastRebalanceTimestamp); its
  // thread starts waiting at started_ms (MQClientInstance#start), with the first interval.
  RebalanceService(core::Profile profile, RebalanceIntervals intervals, std::int64_t created_ms,
                   std::int64_t started_ms);

  // When the running wait ends unless a wake-up ends it first; only while waiting().
  std::int64_t wait_end_ms() const { return wait_end_ms_; }
  bool waiting() const { return waiting_; }
  // Changes each time wait_end_ms() does: an event loop keeps it with the event it schedules
  // there and ignores events whose value is stale.
  std::uint64_t wait_serial() const { return wait_serial_; }

  // Java: RebalanceService#wakeup (MQClientInstance#rebalanceImmediately) at t_ms: a waiting
  // thread's wait ends now (wait_end_ms() becomes t_ms); a running thread's next wait will
  // return at once.
  void wakeup(std::int64_t t_ms);
  // The wait ended at t_ms (== wait_end_ms()): true when doRebalance runs now; false when 5.x's
  // minInterval sends the thread back to wait (wait_end_ms() gives the new end).
  bool wait_ended(std::int64_t t_ms);
  // doRebalance returned at t_ms; `balanced` is its result (5.x; 4.9's is ignored). The thread
  // waits again.
  void run_ended(std::int64_t t_ms, bool balanced);

 private:
  void begin_wait(std::int64_t t_ms, std::int64_t interval_ms);

  core::Profile profile_;
  RebalanceIntervals intervals_;
  std::int64_t last_rebalance_ms_;  // 5.x lastRebalanceTimestamp
  std::int64_t real_wait_ms_;       // 5.x realWaitInterval; 4.9 always waitInterval
  bool notified_ = false;           // ServiceThread#hasNotified
  bool waiting_ = false;
  std::int64_t wait_end_ms_ = 0;
  std::uint64_t wait_serial_ = 0;
};

}  // namespace nssim::sim

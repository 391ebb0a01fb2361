// File: RebalanceService (see rebalance_service.h).
#include "sim/client/rebalance_service.h"

#include "common/invariant.h"

namespace nssim::sim {

RebalanceService::RebalanceService(core::Profile profile, RebalanceIntervals intervals,
                                   std::int64_t created_ms, std::int64_t started_ms)
    : profile_(profile),
      intervals_(intervals),
      last_rebalance_ms_(created_ms),
      real_wait_ms_(intervals.wait_interval_ms) {
  begin_wait(started_ms, real_wait_ms_);
}

// Java: ServiceThread#waitForRunning: hasNotified.compareAndSet(true, false) returns at once.
void RebalanceService::begin_wait(std::int64_t t_ms, std::int64_t interval_ms) {
  waiting_ = true;
  wait_end_ms_ = notified_ ? t_ms : t_ms + interval_ms;
  notified_ = false;
  ++wait_serial_;
}

// Java: ServiceThread#wakeup: hasNotified.compareAndSet(false, true) then waitPoint.countDown().
void RebalanceService::wakeup(std::int64_t t_ms) {
  if (!waiting_) {
    notified_ = true;
    return;
  }
  if (wait_end_ms_ <= t_ms) return;  // the wait already ends now
  wait_end_ms_ = t_ms;
  ++wait_serial_;
}

bool RebalanceService::wait_ended(std::int64_t t_ms) {
  NSSIM_CHECK(waiting_ && t_ms == wait_end_ms_, "a rebalance wait ended at another instant");
  waiting_ = false;
  if (profile_ == core::Profile::kV5) {
    const std::int64_t since_last = t_ms - last_rebalance_ms_;
    if (since_last < intervals_.min_interval_ms) {
      real_wait_ms_ = intervals_.min_interval_ms - since_last;
      begin_wait(t_ms, real_wait_ms_);
      return false;
    }
  }
  return true;
}

void RebalanceService::run_ended(std::int64_t t_ms, bool balanced) {
  NSSIM_CHECK(!waiting_, "a rebalance run ended while its thread was waiting");
  if (profile_ == core::Profile::kV5) {
    real_wait_ms_ = balanced ? intervals_.wait_interval_ms : intervals_.min_interval_ms;
    last_rebalance_ms_ = t_ms;
  }
  begin_wait(t_ms, real_wait_ms_);
}

}  // namespace nssim::sim

// ClientScheduler: the one MQClientFactoryScheduledThread's choice of run (smallest due, then
// submission order) and scheduleAtFixedRate's dues (previous due + period: no drift, late runs
// back to back, none skipped), driven by a thread whose runs cost what each test says.
#include "sim/client/client_scheduler.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace nssim::sim {
namespace {

constexpr ScheduledTask kRt = ScheduledTask::kRoutePoll;
constexpr ScheduledTask kHb = ScheduledTask::kHeartbeat;

// The thread takes runs until one would start after until_ms; each costs cost(run).
std::vector<ScheduledRun> drive(ClientScheduler& scheduler, std::int64_t until_ms,
                                const std::function<std::int64_t(const ScheduledRun&)>& cost) {
  std::vector<ScheduledRun> runs;
  std::int64_t idle_ms = 0;
  for (;;) {
    ScheduledRun run = scheduler.take(idle_ms);
    if (run.start_ms > until_ms) return runs;
    run.end_ms = run.start_ms + cost(run);
    idle_ms = run.end_ms;
    runs.push_back(run);
  }
}

ClientScheduler upstream_tasks() {
  ClientScheduler scheduler;
  scheduler.schedule_at_fixed_rate(kRt, 10, 30000);
  scheduler.schedule_at_fixed_rate(kHb, 1000, 30000);
  return scheduler;
}

// Two tasks due at one instant run in submission order, whichever was registered with the
// smaller period; the one submitted second waits for the first to return.
TEST(ClientScheduler, EqualDuesRunInSubmissionOrder) {
  for (const bool rt_first : {true, false}) {
    ClientScheduler scheduler;
    scheduler.schedule_at_fixed_rate(rt_first ? kRt : kHb, 500, 1000);
    scheduler.schedule_at_fixed_rate(rt_first ? kHb : kRt, 500, 2000);
    const auto runs = drive(scheduler, 2600, [](const ScheduledRun&) { return 7; });
    ASSERT_EQ(runs.size(), 5u);  // 500, 500, 1500, 2500, 2500
    EXPECT_EQ(runs[0].task, rt_first ? kRt : kHb);
    EXPECT_EQ(runs[0].start_ms, 500);
    EXPECT_EQ(runs[1].task, rt_first ? kHb : kRt);
    EXPECT_EQ(runs[1].due_ms, 500);
    EXPECT_EQ(runs[1].start_ms, 507);
    EXPECT_EQ(runs[3].task, runs[0].task);
    EXPECT_EQ(runs[3].start_ms, 2500);
    EXPECT_EQ(runs[4].start_ms, 2507);
  }
}

// Cheap runs start exactly at their dues, k periods after the first: no drift from the runs' cost.
TEST(ClientScheduler, CheapRunsStartOnTheGrid) {
  ClientScheduler scheduler = upstream_tasks();
  const auto runs = drive(scheduler, 600000, [](const ScheduledRun&) { return 3; });
  ASSERT_EQ(runs.size(), 40u);  // 20 of each in 600 s
  std::int64_t k_rt = 0;
  std::int64_t k_hb = 0;
  for (const ScheduledRun& run : runs) {
    const std::int64_t expected = run.task == kRt ? 10 + 30000 * k_rt++ : 1000 + 30000 * k_hb++;
    EXPECT_EQ(run.due_ms, expected);
    EXPECT_EQ(run.start_ms, expected);
  }
}

// One 100 s heartbeat run (from 1000 to 101000) holds the thread over three route-poll dues
// (30010, 60010, 90010) and three heartbeat dues (31000, 61000, 91000): all six run back to back
// when it returns, 5 ms each, in due order, none skipped; the next dues keep the grid.
TEST(ClientScheduler, LateRunsBunchUpAndNoneIsSkipped) {
  ClientScheduler scheduler = upstream_tasks();
  const auto runs = drive(scheduler, 130000, [](const ScheduledRun& run) {
    return run.task == kHb && run.due_ms == 1000 ? 100000 : 5;
  });
  std::vector<std::int64_t> dues;
  std::vector<std::int64_t> starts;
  for (const ScheduledRun& run : runs) {
    dues.push_back(run.due_ms);
    starts.push_back(run.start_ms);
  }
  EXPECT_EQ(dues, (std::vector<std::int64_t>{10, 1000, 30010, 31000, 60010, 61000, 90010, 91000,
                                             120010, 121000}));
  EXPECT_EQ(starts, (std::vector<std::int64_t>{10, 1000, 101000, 101005, 101010, 101015, 101020,
                                               101025, 120010, 121000}));
}

// A heartbeat run that always costs more than the period (36 s per 30 s): the route polls between
// them fall behind by 6 s more every period, and the backlog never lets a run be dropped.
TEST(ClientScheduler, ASaturatedThreadFallsFurtherBehindEveryPeriod) {
  ClientScheduler scheduler = upstream_tasks();
  const auto runs =
      drive(scheduler, 400000, [](const ScheduledRun& run) { return run.task == kHb ? 36000 : 0; });
  std::int64_t k = 0;
  for (const ScheduledRun& run : runs) {
    if (run.task != kRt) continue;
    // Route poll k (k >= 1) waits for heartbeats 0..k-1: 1000 + 36000 k, i.e. 6000 k - 29010
    // after its due once positive.
    EXPECT_EQ(run.due_ms, 10 + 30000 * k);
    EXPECT_EQ(run.start_ms, k == 0 ? 10 : 1000 + 36000 * k);
    ++k;
  }
  EXPECT_GE(k, 10);
}

}  // namespace
}  // namespace nssim::sim

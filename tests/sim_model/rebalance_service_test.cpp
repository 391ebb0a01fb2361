// RebalanceService: 4.9 waits waitInterval from the end of each run; 5.x keeps minInterval
// between runs and retries after it while unbalanced; wake-ups end a wait, and coalesce.
#include "sim/client/rebalance_service.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace nssim::sim {
namespace {

using core::Profile;

// Runs the service's waits until a run would start after until_ms, each run costing cost_ms
// and returning `balanced`; wakeups (sorted) reach it at their instants. Returns the runs'
// start instants.
std::vector<std::int64_t> runs(RebalanceService& service, std::int64_t until_ms,
                               std::int64_t cost_ms, std::vector<std::int64_t> wakeups = {},
                               bool balanced = true) {
  std::vector<std::int64_t> starts;
  std::size_t next_wakeup = 0;
  for (;;) {
    while (next_wakeup < wakeups.size() && wakeups[next_wakeup] <= service.wait_end_ms()) {
      service.wakeup(wakeups[next_wakeup++]);
    }
    const std::int64_t t = service.wait_end_ms();
    if (t > until_ms) return starts;
    if (!service.wait_ended(t)) continue;
    starts.push_back(t);
    const std::int64_t end = t + cost_ms;
    while (next_wakeup < wakeups.size() && wakeups[next_wakeup] < end) {
      service.wakeup(wakeups[next_wakeup++]);  // the thread is running: kept for its next wait
    }
    service.run_ended(end, balanced);
  }
}

TEST(RebalanceService, WaitsTwentySecondsFromTheEndOfEachRunUnder49) {
  RebalanceService service(Profile::kV4_9, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(service, 70000, 500), (std::vector<std::int64_t>{20000, 40500, 61000}));
}

TEST(RebalanceService, AWakeupEndsTheWaitAtOnce) {
  for (const Profile profile : {Profile::kV4_9, Profile::kV5}) {
    RebalanceService service(profile, RebalanceIntervals{}, 0, 0);
    // The consumer's start (rebalanceImmediately) 1.5 s in, a NOTIFY 30 s in.
    EXPECT_EQ(runs(service, 40000, 100, {1500, 30000}),
              (std::vector<std::int64_t>{1500, 21600, 30000}));
  }
}

TEST(RebalanceService, AWakeupDuringARunMakesTheNextWaitReturnAtOnce) {
  RebalanceService service(Profile::kV4_9, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(service, 30000, 3000, {100, 2000}), (std::vector<std::int64_t>{100, 3100, 26100}));
}

TEST(RebalanceService, WakeupsDuringOneWaitCoalesceIntoOneRun) {
  RebalanceService service(Profile::kV4_9, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(service, 25000, 0, {700, 700}), (std::vector<std::int64_t>{700, 20700}));
}

TEST(RebalanceService, FiveXKeepsMinIntervalAfterTheLastRunEnded) {
  // A NOTIFY 400 ms after a run ended waits out the rest of minInterval: the run starts exactly
  // 1000 ms after the previous one ended, not before, not after.
  RebalanceService service(Profile::kV5, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(service, 27000, 200, {5000, 5600}),
            (std::vector<std::int64_t>{5000, 6200, 26400}));
  // And before the first run, from the service's construction.
  RebalanceService young(Profile::kV5, RebalanceIntervals{}, 10000, 10000);
  EXPECT_EQ(runs(young, 12000, 0, {10300}), (std::vector<std::int64_t>{11000}));
}

TEST(RebalanceService, FiveXRunsAtExactlyMinIntervalAndFourNineAtOnce) {
  RebalanceService v5(Profile::kV5, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(v5, 6000, 0, {5000, 5999}), (std::vector<std::int64_t>{5000, 6000}));
  RebalanceService v5_at(Profile::kV5, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(v5_at, 6000, 0, {5000, 6000}), (std::vector<std::int64_t>{5000, 6000}));
  RebalanceService v49(Profile::kV4_9, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(v49, 6000, 0, {5000, 5999}), (std::vector<std::int64_t>{5000, 5999}));
}

TEST(RebalanceService, FiveXRetriesEverySecondWhileUnbalancedAndFourNineDoesNot) {
  RebalanceService v5(Profile::kV5, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(v5, 3300, 100, {0}, /*balanced=*/false),
            (std::vector<std::int64_t>{1000, 2100, 3200}));
  RebalanceService v49(Profile::kV4_9, RebalanceIntervals{}, 0, 0);
  EXPECT_EQ(runs(v49, 3300, 100, {0}, /*balanced=*/false), (std::vector<std::int64_t>{0}));
}

TEST(RebalanceService, TheWaitIntervalIsTheScenarios) {
  RebalanceService service(Profile::kV4_9, RebalanceIntervals{5000, 1000}, 0, 0);
  EXPECT_EQ(runs(service, 12000, 0), (std::vector<std::int64_t>{5000, 10000}));
}

}  // namespace
}  // namespace nssim::sim

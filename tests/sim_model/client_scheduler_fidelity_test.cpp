// The route poll's delay on the client's one scheduler thread (spec
// rocketmq-consumers-and-client-scheduler.md 3.3), from ProducerModel's own runs: the poll (Rt)
// due at T0 + 10 ms + 30 s k, the heartbeat run (Hb) at T0 + 1 s + 30 s j, one thread. An Hb run
// costs H = 3 s b_s + RTTs, b_s the silent masters (each a whole mqClientApiTimeout on an open
// channel, or a whole connect timeout without one, seen 1 ms late). Rt k is due 29.01 s after
// Hb k-1, so
//   not saturated (H <= 30 s): delta_k = max(0, H - 29.01 s);
//   saturated (H > 30 s): from the first silent Hb run (Hb j0) on the thread never idles again,
//     Rt and Hb alternate back to back, and Rt j0+1+n starts at
//     delta = (H - 29.01 s) + n (H + C - 30 s), C an Rt run's cost (one NameServer round trip).
// H and C are bounded from the harness (0.5 ms per link: a request and its answer take 3 ms, a
// connect 2 ms), so every start is asserted inside [formula with the least H and C, formula with
// the most]. No sends: only the scheduler uses the channels.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "producer_harness.h"

namespace nssim::sim {
namespace {

using testing::Harness;
using testing::kProfiles;

constexpr std::int64_t kStartMs = 1000;
constexpr std::int64_t kPeriodMs = 30000;
constexpr std::int64_t kRtFirstDueMs = kStartMs + 10;
constexpr std::int64_t kHbAfterRtMs = 990;  // Hb k-1 is due 29.01 s before Rt k
// A request and its answer to a live broker or NameServer, with a connect if the channel is new,
// in the harness's latencies (they take 3 and 5 ms; the bound leaves room).
constexpr std::int64_t kRttMinMs = 1;
constexpr std::int64_t kRttMaxMs = 6;
constexpr std::int64_t kOverrunMs = 1;  // kTimedWaitOverrunMs

// An Hb run's cost with `silent` silent masters and `live` live ones, at least and at most.
std::int64_t h_min(int silent, int live) { return silent * (3000 + kOverrunMs) + live * kRttMinMs; }
std::int64_t h_max(int silent, int live) { return silent * (3000 + kOverrunMs) + live * kRttMaxMs; }

// `groups` broker groups "g00"...; the first `silent` of them powered off at silent_at_ms.
struct Fleet {
  Fleet(core::Profile profile, int groups, int silent, std::int64_t silent_at_ms,
        std::int64_t until_ms, std::int64_t timeout_ms = 3000)
      : h(profile, names(groups)) {
    h.spec.rate_per_s = 0.0;
    h.spec.config.connect_timeout_millis = timeout_ms;
    h.spec.config.mq_client_api_timeout = timeout_ms;
    h.answers(0, h.route, 0);
    for (int i = 0; i < silent; ++i) h.net.power_off(h.broker.at(names(groups)[i]), silent_at_ms);
    h.start(kStartMs, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(until_ms);
  }
  static std::vector<std::string> names(int groups) {
    std::vector<std::string> out;
    for (int i = 0; i < groups; ++i) out.push_back((i < 10 ? "g0" : "g") + std::to_string(i));
    return out;
  }
  // Route poll k's start minus its due time, for every Rt run reported.
  std::vector<std::int64_t> rt_delays() const {
    std::vector<std::int64_t> out;
    std::int64_t k = 0;
    for (const ScheduledRun& run : h.recorder.runs) {
      if (run.task != ScheduledTask::kRoutePoll) continue;
      EXPECT_EQ(run.due_ms, kRtFirstDueMs + kPeriodMs * k++);  // the fixed-rate grid, no drift
      out.push_back(run.start_ms - run.due_ms);
    }
    return out;
  }
  Harness h;
};

// (a) No silent master, or one: H is a few round trips, or 3 s and a few, far below 29.01 s, so
// every route poll starts exactly when due, and so does every heartbeat run.
TEST(ClientSchedulerFidelity, NoneOrOneSilentMasterLeavesThePollOnTime) {
  for (auto profile : kProfiles) {
    for (const int silent : {0, 1}) {
      Fleet f(profile, 2, silent, 5000, 300000);
      const auto delays = f.rt_delays();
      ASSERT_EQ(delays.size(), 10u);
      for (std::int64_t d : delays) EXPECT_EQ(d, 0);
      for (const ScheduledRun& run : f.h.recorder.runs) EXPECT_EQ(run.start_ms, run.due_ms);
      // Hb runs after the power-off: 3 s for the silent master, plus the live one's round trip.
      for (const ScheduledRun& run : f.h.recorder.runs) {
        if (run.task != ScheduledTask::kHeartbeat || run.start_ms < 5000) continue;
        EXPECT_GE(run.end_ms - run.start_ms, h_min(silent, 2 - silent));
        EXPECT_LE(run.end_ms - run.start_ms, h_max(silent, 2 - silent));
      }
    }
  }
}

// (b) Nine silent masters among ten groups: H <= 9 * 3001 ms + 6 ms = 27.015 s < 29.01 s, so the
// poll is still never late, though each Hb run holds the thread for 27 s of every 30.
TEST(ClientSchedulerFidelity, NineSilentMastersDoNotDelayThePoll) {
  for (auto profile : kProfiles) {
    Fleet f(profile, 10, 9, 5000, 300000);
    const auto delays = f.rt_delays();
    ASSERT_EQ(delays.size(), 10u);
    for (std::int64_t d : delays) EXPECT_EQ(d, 0);
    std::int64_t longest = 0;
    for (const ScheduledRun& run : f.h.recorder.runs) {
      if (run.task == ScheduledTask::kHeartbeat)
        longest = std::max(longest, run.end_ms - run.start_ms);
    }
    EXPECT_GE(longest, h_min(9, 1));
    EXPECT_LE(longest, h_max(9, 1));
  }
}

// The boundary of the formula, exactly: every group silent from before the start (no channel ever
// opens, no live round trip), so H = 10 (T + 1 ms) with T the connect timeout. T = 2900 ms makes
// H = 29.01 s: the Hb run returns at the instant the poll is due, which starts on time. T = 2901
// makes H = 29.02 s: the poll starts 10 ms late, each period (H < 30 s: not saturated).
TEST(ClientSchedulerFidelity, TheDelayStartsExactlyWhereHExceeds29010Ms) {
  for (auto profile : kProfiles) {
    for (const std::int64_t timeout : {2900, 2901}) {
      Fleet f(profile, 10, 10, 500, 200000, timeout);
      const auto delays = f.rt_delays();
      ASSERT_GE(delays.size(), 6u);
      EXPECT_EQ(delays[0], 0);
      const std::int64_t h_ms = 10 * (timeout + kOverrunMs);
      for (std::size_t k = 1; k < delays.size(); ++k) {
        EXPECT_EQ(delays[k], std::max<std::int64_t>(0, h_ms - (kPeriodMs - kHbAfterRtMs)))
            << "timeout " << timeout << " run " << k;
      }
    }
  }
}

// (c) Ten or twelve of eleven or thirteen masters powered off at 5 s (after the first Hb run opened
// every channel): from Hb 1 (due 32 s) on each Hb run costs H = b_s * 3001 ms + the live master's
// round trip (request timeouts on the open channels, which close them; later runs wait each
// connect timeout instead, as long), more than a period: saturated. Rt 0 and Rt 1 are on time;
// Rt 2 starts (H - 29.01 s) late (12 silent: about 7 s) and each later one (H + C - 30 s) (about
// 6 s) later than the one before, none skipped: Rt 12 (due 361 s) is about 67 s late.
TEST(ClientSchedulerFidelity, TwelveSilentMastersSaturateTheThread) {
  for (auto profile : kProfiles) {
    for (const int silent : {10, 12}) {
      Fleet f(profile, silent + 1, silent, 5000, 400000);
      const auto delays = f.rt_delays();
      ASSERT_GE(delays.size(), 8u);
      EXPECT_EQ(delays[0], 0);
      EXPECT_EQ(delays[1], 0);
      const std::int64_t least = h_min(silent, 1);
      const std::int64_t most = h_max(silent, 1);
      for (std::size_t k = 2; k < delays.size(); ++k) {
        const auto n = static_cast<std::int64_t>(k - 2);
        const std::int64_t low =
            (least - (kPeriodMs - kHbAfterRtMs)) + n * (least + kRttMinMs - kPeriodMs);
        const std::int64_t high =
            (most - (kPeriodMs - kHbAfterRtMs)) + n * (most + kRttMaxMs - kPeriodMs);
        EXPECT_GE(delays[k], low) << "silent " << silent << " run " << k;
        EXPECT_LE(delays[k], high) << "silent " << silent << " run " << k;
      }
      // Every Hb run from Hb 1 on starts when the poll before it returns: the thread never idles.
      const auto& runs = f.h.recorder.runs;
      for (std::size_t i = 1; i < runs.size(); ++i) {
        if (runs[i].due_ms > 32000) {
          EXPECT_EQ(runs[i].start_ms, runs[i - 1].end_ms);
        }
      }
    }
  }
}

}  // namespace
}  // namespace nssim::sim

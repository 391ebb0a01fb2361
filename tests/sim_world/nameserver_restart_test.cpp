// A NameServer restart with producers that start after it (apache/rocketmq#5322): the restarted
// NameServer's tables are empty until the first broker re-registers, so those producers have no
// route and every send asks it (DefaultMQProducerImpl#tryToFindTopicPublishInfo: the topic, then
// TBW102) and fails with "No route info". Since each send asks, the failures stop as soon as the
// NameServer answers with the route, not at the next 30 s route poll. Producers that were running
// keep their cached routes and lose nothing. Both profiles.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kCrashMs = 120000;
constexpr std::int64_t kRestartMs = 180000;
constexpr std::int64_t kLateStartMs = kRestartMs + 100;
constexpr double kLateRatePerS = 5;  // each late producer sends every 200 ms

Scenario restart_with_late_producers(core::Profile profile, std::uint64_t seed) {
  Scenario s = small_cluster(profile, seed);
  s.duration_ms = 300000;
  s.nameservers.count = 1;
  ProducerSpec late = s.producers.front();
  late.name_prefix = "late";
  late.rate_per_s = kLateRatePerS;
  late.start = StartSpec{kLateStartMs, kLateStartMs};
  s.producers.push_back(late);
  FaultSpec fault;
  fault.kind = FaultKind::kKill;
  fault.at_ms = kCrashMs;
  fault.duration_ms = kRestartMs - kCrashMs;
  fault.nodes = {"ns-0"};
  s.faults.push_back(fault);
  return s;
}

class NameServerRestart : public ::testing::TestWithParam<core::Profile> {};

// The last send that fails does so because its TBW102 query was processed before the first
// re-registration R (at R the route is in force); its answer crosses back in
// ceil(0.5 ms + 0.5 ms) = 1 ms, so it ends at R at the latest. Each late producer sends every
// 200 ms and a failing send takes two round trips (3 ms each), so the last failure ends less
// than 200 + 6 ms before R.
TEST_P(NameServerRestart, NoRouteFailuresEndWithTheFirstReRegistration) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto result = run_isolated(restart_with_late_producers(GetParam(), seed));
    ASSERT_FALSE(result.contains("error")) << result.dump();
    ASSERT_EQ(result["nameserver_restarts"].size(), 1u) << result.dump();
    const auto& restart = result["nameserver_restarts"][0];
    EXPECT_EQ(restart["nameserver"], "ns-0");
    EXPECT_EQ(restart["restart_ms"], kRestartMs);
    const std::int64_t registered = restart["first_registration_ms"].get<std::int64_t>();
    EXPECT_GT(registered, kRestartMs);
    EXPECT_LE(registered, kRestartMs + kRelearnWithinMs);
    const auto& early = result["sends_by_producer_group"][0];
    const auto& late = result["sends_by_producer_group"][1];
    ASSERT_EQ(late["producer_group"], "late");
    EXPECT_EQ(early["failed"]["total"], 0) << "seed " << seed;
    if (registered <= kLateStartMs) continue;  // the route was back before they started
    EXPECT_GT(late["failed"]["no_route"], 0) << "seed " << seed;
    EXPECT_EQ(late["failed"]["total"], late["failed"]["no_route"]) << "seed " << seed;
    EXPECT_EQ(restart["no_route"]["failed"], late["failed"]["no_route"]) << "seed " << seed;
    const std::int64_t after =
        restart["no_route"]["after_first_registration_ms"].get<std::int64_t>();
    EXPECT_LE(after, 0) << "seed " << seed;
    EXPECT_GT(after, -(200 + 6)) << "seed " << seed;
  }
}

INSTANTIATE_TEST_SUITE_P(Simulator, NameServerRestart,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

// serverChannelMaxIdleTimeSeconds = 0 turns the idle close off, as a time of 0 does for Netty's
// IdleStateHandler: connections stay open, routes are served, and a silent broker is removed by
// the scan alone (BROKER_CHANNEL_EXPIRED_TIME), never by an idle close.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

class IdleCloseOff : public ::testing::TestWithParam<core::Profile> {};

TEST_P(IdleCloseOff, ASilentBrokerIsRemovedByTheScanAlone) {
  Scenario s = with_fault(small_cluster(GetParam(), 1), FaultKind::kPoweroff, 240000);
  s.nameservers.server_channel_max_idle_time_seconds = 0;
  const auto result = run_isolated(s);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_EQ(result["sends"]["failed"]["no_route"], 0);
  const auto& drops = result["outages"].at(0)["nameservers"];
  ASSERT_EQ(drops.size(), 3u);
  for (const auto& drop : drops) {
    EXPECT_EQ(drop["path"], "scan_expiry") << drop.dump();
    // P = 30 s before the fault at the latest, T = 120 s, S = 10 s (4.9) or 5 s (5.x).
    EXPECT_GT(drop["delay_ms"].get<std::int64_t>(), 120000 - 30000) << drop.dump();
    EXPECT_LE(drop["delay_ms"].get<std::int64_t>(), 120000 + 10000 + 1) << drop.dump();
  }
  EXPECT_EQ(result["outages"].at(0)["predicted"]["nameserver_removal_ms"]["min_ms"], 90000);
}

INSTANTIATE_TEST_SUITE_P(Simulator, IdleCloseOff,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

// Predictions only where their rules can fire within the fault: a 60 s pause ends before the
// earliest removal (detect - P = 90 s with the defaults), so no NameServer may drop the broker and
// no removal or stale-route window is predicted, only why; a 300 s pause outlasts the latest
// removal and gets both windows. Each NameServer's outcome still uses the rules' latest removal.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kPauseAtMs = 240000;

class PredictionScope : public ::testing::TestWithParam<core::Profile> {};

TEST_P(PredictionScope, APauseShorterThanTheEarliestRemovalGetsNoPredictedWindow) {
  const auto result =
      run_isolated(with_fault(small_cluster(GetParam(), 1), FaultKind::kPause, kPauseAtMs, 60000));
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const auto& outage = result["outages"].at(0);
  const auto& predicted = outage["predicted"];
  EXPECT_TRUE(predicted["nameserver_removal_ms"].is_null()) << predicted.dump();
  EXPECT_TRUE(predicted["producer_stale_route_ms"].is_null()) << predicted.dump();
  EXPECT_EQ(predicted["not_predicted"], "fault_ends_before_earliest_removal");
  EXPECT_EQ(predicted["earliest_removal_ms"], 90000);
  for (const auto& ns : outage["nameservers"]) {
    EXPECT_EQ(ns["outcome"], "kept_within_rules") << ns.dump();
  }
  // The producers held the stale route for the pause and never dropped it.
  EXPECT_EQ(outage["producers"]["stale_route_ms"]["count"], 0);
  EXPECT_GT(outage["producers"]["stale_route_ms"]["never"].get<int>(), 0);
  EXPECT_GE(outage["route_health"]["stale"]["max"].get<std::int64_t>(), 59000);
  EXPECT_LE(outage["route_health"]["stale"]["max"].get<std::int64_t>(), 61000);
}

TEST_P(PredictionScope, APauseOutlastingTheLatestRemovalGetsBothWindows) {
  const auto result =
      run_isolated(with_fault(small_cluster(GetParam(), 1), FaultKind::kPause, kPauseAtMs, 300000));
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const auto& predicted = result["outages"].at(0)["predicted"];
  EXPECT_FALSE(predicted.contains("not_predicted")) << predicted.dump();
  EXPECT_EQ(predicted["nameserver_removal_ms"]["min_ms"], 90000);
  EXPECT_GE(predicted["nameserver_removal_ms"]["max_ms"].get<std::int64_t>(), 120000);
  EXPECT_LE(predicted["nameserver_removal_ms"]["max_ms"].get<std::int64_t>(), 130000);
  EXPECT_EQ(predicted["producer_stale_route_ms"]["min_ms"], 90000);
}

INSTANTIATE_TEST_SUITE_P(Simulator, PredictionScope,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

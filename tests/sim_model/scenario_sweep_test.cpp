// The scenario's "sweep" block: seeds and expectations over the distribution, each as written
// and each malformed one refused with its path.
#include <gtest/gtest.h>

#include "scenario_error_helpers.h"

namespace nssim::sim {
namespace {

using scenario_testing::error_with;
using scenario_testing::minimal;

TEST(ScenarioSweep, SeedsAndStatisticsAreRead) {
  auto doc = minimal();
  doc["sweep"] = {{"seeds", 200},
                  {"expect",
                   {"outages[0].producers.stale_route_ms.max:p99 <= 150000",
                    "sends.failed.total:mean < predicted.x"}}};
  const Scenario s = parse_scenario(doc.dump(), "x.json", {});
  ASSERT_TRUE(s.sweep);
  EXPECT_EQ(s.sweep->seeds, 200);
  ASSERT_EQ(s.sweep->expect.size(), 2u);
  EXPECT_EQ(s.sweep->expect[0].figure, "outages[0].producers.stale_route_ms.max");
  EXPECT_EQ(s.sweep->expect[0].stat, "p99");
  EXPECT_EQ(s.sweep->expect[0].op, "<=");
  EXPECT_EQ(s.sweep->expect[0].value, "150000");
  EXPECT_EQ(s.sweep->expect[1].stat, "mean");
  EXPECT_EQ(s.sweep->expect[1].value, "predicted.x");
  EXPECT_TRUE(s.expect.empty());
}

TEST(ScenarioSweep, NoBlockNoSweep) {
  EXPECT_FALSE(parse_scenario(minimal().dump(), "x.json", {}).sweep);
}

TEST(ScenarioSweep, MalformedBlocksNameTheirPath) {
  EXPECT_EQ(error_with("sweep", R"({"seeds": 0})"), "x.json: sweep.seeds: must be > 0");
  EXPECT_EQ(error_with("sweep", R"({"seed": 5})").rfind("x.json: sweep.seed: unknown field", 0),
            0u);
  EXPECT_EQ(error_with("sweep", R"({"expect": ["a.b:p95 < 1"]})"),
            "x.json: sweep.expect[0]: unknown statistic 'p95' (expected one of n never min p50 "
            "p90 p99 max mean)");
  EXPECT_EQ(error_with("sweep", R"({"expect": ["a.b < 1"]})")
                .rfind("x.json: sweep.expect[0]: expected '<figure>:<stat> <op> <value>'", 0),
            0u);
  EXPECT_EQ(
      error_with("sweep", R"({"expect": ["a.b:max < lots"]})"),
      "x.json: sweep.expect[0]: the value must be a number or a predicted.* figure, got 'lots'");
}

TEST(ScenarioSweep, RunExpectationsTakeNoStatistic) {
  EXPECT_EQ(error_with("expect", R"(["a.b:max < 1"])")
                .rfind("x.json: expect[0]: expected '<figure> <op> <value>'", 0),
            0u);
}

}  // namespace
}  // namespace nssim::sim

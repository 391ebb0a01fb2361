// sweep.json from a plan and records: records are sliced by grid point, each figure's extremes
// name their seed and command, and sweep expectations hold or fail on both sides of their bound
// with the worst seed named.
#include "reports/sweep/sweep_document.h"

#include <gtest/gtest.h>

#include <map>

#include "reports/sweep/sweep_files.h"

namespace nssim::reports {
namespace {

using nlohmann::json;

SweepPlan plan_of(std::vector<SweepExpectationInput> expectations) {
  SweepPlan plan;
  plan.nssim_version = "test";
  plan.scenario = {{"name", "s"}, {"file", "s.json"}, {"profile", "5.x"}};
  plan.first_seed = 10;
  plan.last_seed = 12;
  plan.grid = {{"producers[0].config.pollNameServerInterval", {"5000", "30000"}}};
  plan.points = {{"poll=5000", {"5000"}, "5.x", "nssim run s.json --set poll=5000"},
                 {"poll=30000", {"30000"}, "5.x", "nssim run s.json --set poll=30000"}};
  plan.expectations = std::move(expectations);
  return plan;
}

// Point 0 stale max: 100, 300, 200 for seeds 10, 11, 12; point 1 adds 1000.
std::vector<SeedRecord> records() {
  std::vector<SeedRecord> list;
  for (std::size_t point = 0; point < 2; ++point) {
    const double values[] = {100, 300, 200};
    for (std::uint64_t i = 0; i < 3; ++i) {
      SeedRecord r;
      r.point = point;
      r.seed = 10 + i;
      r.verdict = i == 1 ? "fail" : "pass";
      r.figures["outages[0].producers.stale_route_ms.max"] = values[i] + 1000.0 * point;
      r.figures["sends.failed.total"] = i == 2 ? std::nullopt : std::optional<double>(5);
      r.outages = json::array(
          {{{"index", 0},
            {"predicted", {{"producer_stale_route_ms", {{"min_ms", 0}, {"max_ms", 250}}}}}}});
      list.push_back(r);
    }
  }
  return list;
}

SweepExpectationInput expect(const std::string& figure, const std::string& stat,
                             const std::string& op, const std::string& value) {
  return {figure, stat, op, value, figure + ":" + stat + " " + op + " " + value};
}

const char* kStale = "outages[0].producers.stale_route_ms.max";

TEST(SweepDocument, FiguresAreSlicedByPointWithTheirExtremeSeeds) {
  const json sweep = build_sweep(plan_of({}), records());
  EXPECT_EQ(sweep["schema"], "nssim.sweep/1");
  EXPECT_EQ(sweep["runs"], 6);
  EXPECT_EQ(sweep["seeds"], (json{{"first", 10}, {"last", 12}, {"count", 3}}));
  ASSERT_EQ(sweep["points"].size(), 2u);
  const json& stale0 = sweep["points"][0]["figures"][kStale];
  EXPECT_EQ(stale0["min"], 100);
  EXPECT_EQ(stale0["max"], 300);
  EXPECT_EQ(stale0["p50"], 200);
  EXPECT_EQ(stale0["max_seed"], 11);
  EXPECT_EQ(stale0["min_seed"], 10);
  EXPECT_EQ(stale0["max_command"], "nssim run s.json --set poll=5000 --seed 11");
  EXPECT_EQ(sweep["points"][1]["figures"][kStale]["max"], 1300);
  const json& failed = sweep["points"][0]["figures"]["sends.failed.total"];
  EXPECT_EQ(failed["n"], 2);
  EXPECT_EQ(failed["never"], 1);
  EXPECT_EQ(sweep["points"][0]["run_verdicts"],
            (json{{"pass", 2}, {"fail", 1}, {"no_expectations", 0}}));
  EXPECT_EQ(sweep["verdict"], "no_expectations");
}

json only_expectation(const SweepExpectationInput& input) {
  return build_sweep(plan_of({input}), records())["points"][0]["expectations"][0];
}

TEST(SweepDocument, UpperBoundsHoldAtTheirEdgeAndNameTheLargestSeed) {
  EXPECT_TRUE(only_expectation(expect(kStale, "max", "<=", "300"))["passed"]);
  const json failed = only_expectation(expect(kStale, "max", "<", "300"));
  EXPECT_FALSE(failed["passed"]);
  EXPECT_EQ(failed["measured"], 300);
  EXPECT_EQ(failed["worst_seed"], 11);
  EXPECT_EQ(failed["message"], std::string(kStale) + ":max = 300, expected < 300 (off by 0)");
}

TEST(SweepDocument, LowerBoundsHoldAtTheirEdgeAndNameTheSmallestSeed) {
  EXPECT_TRUE(only_expectation(expect(kStale, "min", ">=", "100"))["passed"]);
  const json failed = only_expectation(expect(kStale, "min", ">", "100"));
  EXPECT_FALSE(failed["passed"]);
  EXPECT_EQ(failed["worst_seed"], 10);
}

TEST(SweepDocument, EveryOperatorCanFail) {
  for (const auto& [op, holds, fails] :
       std::vector<std::tuple<std::string, std::string, std::string>>{{"==", "200", "201"},
                                                                      {"!=", "201", "200"},
                                                                      {"<", "201", "200"},
                                                                      {"<=", "200", "199"},
                                                                      {">", "199", "200"},
                                                                      {">=", "200", "201"}}) {
    EXPECT_TRUE(only_expectation(expect(kStale, "p50", op, holds))["passed"]) << op << holds;
    EXPECT_FALSE(only_expectation(expect(kStale, "p50", op, fails))["passed"]) << op << fails;
  }
}

TEST(SweepDocument, NeverCountsPointAtASeedWithoutAValue) {
  const json failed = only_expectation(expect("sends.failed.total", "never", "==", "0"));
  EXPECT_FALSE(failed["passed"]);
  EXPECT_EQ(failed["measured"], 1);
  EXPECT_EQ(failed["worst_seed"], 12);
}

TEST(SweepDocument, PredictedValuesResolveInTheSameOutage) {
  const json e =
      only_expectation(expect(kStale, "max", "<=", "predicted.producer_stale_route_ms.max_ms"));
  EXPECT_EQ(e["expected"], 250);
  EXPECT_FALSE(e["passed"]);
}

TEST(SweepDocument, UnknownFiguresFailWithAMessage) {
  const json e = only_expectation(expect("outages[3].sends.ok", "p99", "<", "1"));
  EXPECT_FALSE(e["passed"]);
  EXPECT_EQ(e["message"], "outages[3].sends.ok is not a figure of this sweep");
}

TEST(SweepDocument, TheVerdictFailsWhenAnyPointFails) {
  // max <= 300 holds at point 0 (300) and fails at point 1 (1300).
  const json sweep = build_sweep(plan_of({expect(kStale, "max", "<=", "300")}), records());
  EXPECT_TRUE(sweep["points"][0]["expectations"][0]["passed"]);
  EXPECT_FALSE(sweep["points"][1]["expectations"][0]["passed"]);
  EXPECT_EQ(sweep["verdict"], "fail");
  EXPECT_EQ(sweep_verdict(sweep), "fail");
  const JunitSuite suite = junit_suite_from_sweep(sweep);
  ASSERT_EQ(suite.cases.size(), 2u);
  EXPECT_FALSE(suite.cases[1].passed);
  EXPECT_NE(suite.cases[1].name.find("[poll=30000]"), std::string::npos);
  EXPECT_NE(suite.cases[1].detail.find("--seed 11"), std::string::npos);
}

TEST(SweepDocument, EveryJunitCaseCarriesItsStatisticBoundSeedsAndWorstSeed) {
  const json sweep = build_sweep(plan_of({expect(kStale, "max", "<=", "300")}), records());
  for (const JunitCase& c : junit_suite_from_sweep(sweep).cases) {
    std::map<std::string, std::string> properties(c.properties.begin(), c.properties.end());
    EXPECT_EQ(properties["figure"], kStale);
    EXPECT_EQ(properties["statistic"], "max");
    EXPECT_EQ(properties["expected"], "<= 300");
    EXPECT_FALSE(properties["measured"].empty());
    EXPECT_NE(properties["worst_command"].find("--seed "), std::string::npos);
    EXPECT_EQ(properties.count("seeds"), 1U);
  }
  const std::string xml = render_junit({junit_suite_from_sweep(sweep)});
  EXPECT_NE(xml.find("<property name=\"statistic\" value=\"max\"/>"), std::string::npos);
  EXPECT_NE(xml.find("<system-out>figure: "), std::string::npos);
}

TEST(SweepDocument, ThePlanSurvivesAShardFile) {
  const SweepPlan plan = plan_of({expect(kStale, "max", "<=", "300")});
  const auto back = plan_from_json(plan_json(plan));
  ASSERT_TRUE(back);
  EXPECT_EQ(build_sweep(*back, records()), build_sweep(plan, records()));
  EXPECT_FALSE(plan_from_json(json{{"points", json::array()}}));
}

// nssim sweep decides before it runs which names of --out belong to its group: the list must be
// the files a sweep gives.
TEST(SweepFiles, NamesKnownBeforeASweepAreTheFilesItGives) {
  const json sweep = build_sweep(plan_of({}), records());
  std::vector<std::string> names;
  for (const auto& file : render_sweep_files(sweep, records())) names.push_back(file.name);
  EXPECT_EQ(names, sweep_file_names());
}

}  // namespace
}  // namespace nssim::reports

// The explore block's refusals, one per error, each with the exact one-line message; and what a
// valid block resolves to.
#include <gtest/gtest.h>

#include "scenario_error_helpers.h"

namespace nssim::sim {
namespace {

using nlohmann::json;
using scenario_testing::error_of;
using scenario_testing::minimal;

json block() {
  return json::parse(R"({
    "kinds": {"kill": 2, "pause": 1},
    "targets": ["broker-a", "broker-b-0", "nameservers"],
    "faults": {"min": 1, "max": 3},
    "max_overlap": 2,
    "at_ms": {"min_ms": 60000, "max_ms": 300000},
    "duration_ms": {"min_ms": 5000, "max_ms": 120000}
  })");
}

std::string explore_error(const json& explore) {
  json doc = minimal();
  doc["explore"] = explore;
  return error_of(doc);
}

// The error of block() with targets[index] replaced by `name`.
std::string target_error(std::size_t index, const char* name) {
  json explore = block();
  explore["targets"][index] = name;
  return explore_error(explore);
}

TEST(ScenarioExplore, ValidBlockResolvesTargetsAndKinds) {
  json doc = minimal();
  doc["explore"] = block();
  const Scenario s = parse_scenario(doc.dump(), "x.json", {});
  ASSERT_TRUE(s.explore);
  ASSERT_EQ(s.explore->kinds.size(), 2u);
  EXPECT_EQ(s.explore->kinds[0].first, FaultKind::kKill);
  EXPECT_EQ(s.explore->kinds[0].second, 2.0);
  ASSERT_EQ(s.explore->targets.size(), 3u);
  EXPECT_EQ(s.explore->targets[0].form, ExploreTargetForm::kGroup);
  EXPECT_EQ(s.explore->targets[0].nodes, (std::vector<std::string>{"broker-a-0", "broker-a-1"}));
  EXPECT_EQ(s.explore->targets[2].form, ExploreTargetForm::kNameServers);
  EXPECT_EQ(s.explore->max_overlap, 2);
  EXPECT_TRUE(s.faults.empty());
}

TEST(ScenarioExplore, MaxOverlapDefaultsToMaxFaults) {
  json explore = block();
  explore.erase("max_overlap");
  json doc = minimal();
  doc["explore"] = explore;
  EXPECT_EQ(parse_scenario(doc.dump(), "x.json", {}).explore->max_overlap, 3);
}

TEST(ScenarioExplore, RefusesFaultsBeside) {
  json doc = minimal();
  doc["explore"] = block();
  doc["faults"] = json::array();
  EXPECT_EQ(error_of(doc),
            "x.json: explore: give faults or explore, not both (explore draws the faults)");
}

TEST(ScenarioExplore, RefusesAnEmptySpace) {
  json explore = block();
  explore["kinds"] = json::object();
  EXPECT_EQ(explore_error(explore), "x.json: explore.kinds: must name at least one fault kind");
  explore = block();
  explore["targets"] = json::array();
  EXPECT_EQ(explore_error(explore), "x.json: explore.targets: must name at least one target");
  explore = block();
  explore.erase("targets");
  EXPECT_EQ(explore_error(explore), "x.json: explore.targets: is required");
}

TEST(ScenarioExplore, RefusesUnknownKinds) {
  json explore = block();
  explore["kinds"]["kil"] = 1;
  EXPECT_EQ(explore_error(explore),
            "x.json: explore.kinds.kil: unknown kind 'kil' (did you mean kill?)");
  explore = block();
  explore["kinds"]["kill"] = 0;
  EXPECT_EQ(explore_error(explore), "x.json: explore.kinds.kill: must be > 0");
}

TEST(ScenarioExplore, RefusesUnknownTargets) {
  EXPECT_EQ(target_error(1, "broker-z-0"),
            "x.json: explore.targets[1]: no node, group or keyword named 'broker-z-0' (did you "
            "mean broker-a-0?)");
  EXPECT_EQ(target_error(2, "broker-a"), "x.json: explore.targets[2]: 'broker-a' is listed twice");
}

TEST(ScenarioExplore, RefusesTargetsNoKindTakes) {
  EXPECT_EQ(target_error(1, "producers"),
            "x.json: explore.targets[1]: 'producers' is a target of none of the kinds drawn "
            "(kill or pause)");
  EXPECT_EQ(target_error(1, "app-0"),
            "x.json: explore.targets[1]: 'app-0' is a target of none of the kinds drawn (kill "
            "or pause)");
}

TEST(ScenarioExplore, RefusesKindsNoTargetTakes) {
  json explore = block();
  explore["kinds"]["wipeWritePerm"] = 1;
  explore["targets"] = {"broker-b-0"};
  EXPECT_EQ(explore_error(explore),
            "x.json: explore.kinds.wipeWritePerm: no target takes it (it needs a broker group in "
            "targets)");
  explore = block();
  explore["kinds"] = {{"partition", 1}};
  explore["targets"] = {"broker-a", "broker-a-0"};
  EXPECT_EQ(explore_error(explore),
            "x.json: explore.kinds.partition: needs two targets with no node in common, one per "
            "side");
}

TEST(ScenarioExplore, RefusesImpossibleOverlaps) {
  json explore = block();
  explore["max_overlap"] = 4;
  EXPECT_EQ(explore_error(explore), "x.json: explore.max_overlap: must be <= 3");
  explore = block();
  explore["faults"] = {{"min", 3}, {"max", 3}};
  explore["max_overlap"] = 1;
  explore["at_ms"] = {{"min_ms", 60000}, {"max_ms", 69999}};
  EXPECT_EQ(explore_error(explore),
            "x.json: explore.max_overlap: 3 faults, at most 1 at a time, need starts 10000 ms "
            "apart; at_ms spans 9999 ms");
  explore["at_ms"]["max_ms"] = 70000;
  EXPECT_EQ(explore_error(explore), "(loaded)");
}

TEST(ScenarioExplore, RefusesRangesOutsideTheRun) {
  json explore = block();
  explore["at_ms"]["max_ms"] = 600000;
  EXPECT_EQ(explore_error(explore), "x.json: explore.at_ms.max_ms: must be <= 599999");
  explore = block();
  explore["duration_ms"]["max_ms"] = 600001;
  EXPECT_EQ(explore_error(explore), "x.json: explore.duration_ms.max_ms: must be <= 600000");
  explore["duration_ms"]["max_ms"] = 600000;
  EXPECT_EQ(explore_error(explore), "(loaded)");
  explore = block();
  explore["duration_ms"]["min_ms"] = 200000;
  EXPECT_EQ(explore_error(explore), "x.json: explore.duration_ms.max_ms: must be >= min_ms");
  explore = block();
  explore["faults"] = {{"min", 2}, {"max", 1}};
  explore.erase("max_overlap");
  EXPECT_EQ(explore_error(explore), "x.json: explore.faults.max: must be >= min");
}

TEST(ScenarioExplore, LatencyNeedsItsRange) {
  json explore = block();
  explore["kinds"]["latency"] = 1;
  EXPECT_EQ(explore_error(explore),
            "x.json: explore: needs latency_ms {min, max} to draw latency faults");
  explore["latency_ms"] = {{"min", 500}, {"max", 100}};
  EXPECT_EQ(explore_error(explore), "x.json: explore.latency_ms.max: must be >= min");
  explore = block();
  explore["latency_ms"] = {{"min", 1}, {"max", 2}};
  EXPECT_EQ(explore_error(explore),
            "x.json: explore.latency_ms: not used: latency is not among the kinds");
}

}  // namespace
}  // namespace nssim::sim

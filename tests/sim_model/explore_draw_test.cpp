// The explore draw: deterministic per run seed, swarm-shaped (each run draws from a subset of
// the kinds), and every drawn schedule is one the loader takes, within the block's counts and
// overlap.
#include "sim/scenario/explore_draw.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "scenario_error_helpers.h"

namespace nssim::sim {
namespace {

using nlohmann::json;

constexpr std::size_t kRuns = 400;

nlohmann::ordered_json document() {
  nlohmann::ordered_json doc = nlohmann::ordered_json::parse(scenario_testing::minimal().dump());
  doc["explore"] = nlohmann::ordered_json::parse(R"({
    "kinds": {"kill": 1, "poweroff": 1, "pause": 1, "partition": 1, "latency": 1,
              "wipeWritePerm": 1, "updateTopic": 1},
    "targets": ["broker-a", "broker-b-0", "ns-1", "nameservers", "producers"],
    "faults": {"min": 2, "max": 4},
    "max_overlap": 2,
    "at_ms": {"min_ms": 60000, "max_ms": 300000},
    "duration_ms": {"min_ms": 5000, "max_ms": 120000},
    "latency_ms": {"min": 100, "max": 900}
  })");
  return doc;
}

Scenario explored() { return parse_scenario(document().dump(), "x.json", {}); }

TEST(ExploreDraw, SameRunSameScheduleOtherRunOther) {
  const Scenario s = explored();
  const auto seed = explore_run_seed(s.seed, 7);
  EXPECT_EQ(seed, explore_run_seed(s.seed, 7));
  EXPECT_NE(seed, explore_run_seed(s.seed, 8));
  EXPECT_NE(seed, explore_run_seed(s.seed + 1, 7));
  EXPECT_EQ(draw_faults(s, seed).faults.dump(), draw_faults(s, seed).faults.dump());
  EXPECT_NE(draw_faults(s, seed).faults.dump(),
            draw_faults(s, explore_run_seed(s.seed, 8)).faults.dump());
}

TEST(ExploreDraw, EachRunDrawsOnlyTheKindsItEnabled) {
  const Scenario s = explored();
  std::map<std::string, std::size_t> enabled_runs;
  std::size_t subsets = 0;
  for (std::size_t run = 0; run < kRuns; ++run) {
    const ExploreDraw draw = draw_faults(s, explore_run_seed(s.seed, run));
    ASSERT_FALSE(draw.enabled.empty());
    if (draw.enabled.size() < s.explore->kinds.size()) ++subsets;
    std::set<std::string> names;
    for (FaultKind kind : draw.enabled) {
      names.insert(fault_kind_name(kind));
      ++enabled_runs[fault_kind_name(kind)];
    }
    for (const auto& fault : draw.faults) {
      EXPECT_EQ(names.count(fault["kind"].get<std::string>()), 1u) << fault.dump();
    }
  }
  EXPECT_GT(subsets, kRuns * 9 / 10);  // all 7 kinds at once: 1 run in 128
  for (const auto& [kind, runs] : enabled_runs) {
    // Each kind is enabled with probability 1/2 (a little more: a run with none enables one).
    EXPECT_GE(runs, kRuns * 4 / 10) << kind;
    EXPECT_LE(runs, kRuns * 6 / 10) << kind;
  }
  EXPECT_EQ(enabled_runs.size(), s.explore->kinds.size());
}

TEST(ExploreDraw, SchedulesLoadWithinCountsAndOverlap) {
  const Scenario s = explored();
  for (std::size_t run = 0; run < kRuns; ++run) {
    const auto seed = explore_run_seed(s.seed, run);
    const ExploreDraw draw = draw_faults(s, seed);
    ASSERT_LE(draw.faults.size(), 4u);
    ASSERT_GE(draw.faults.size(), 1u);
    const Scenario candidate =
        parse_scenario(candidate_document(document(), draw.faults, seed).dump(), "x.json", {});
    EXPECT_EQ(candidate.seed, seed);
    EXPECT_FALSE(candidate.explore);
    ASSERT_EQ(candidate.faults.size(), draw.faults.size());
    for (const auto& fault : candidate.faults) {
      EXPECT_GE(fault.at_ms, 60000);
      EXPECT_LE(fault.at_ms, 300000);
      if (!fault.duration_ms) continue;
      EXPECT_GE(*fault.duration_ms, 5000);
      EXPECT_LE(*fault.duration_ms, 120000);
      std::size_t running = 0;
      for (const auto& other : candidate.faults) {
        if (other.duration_ms && other.at_ms <= fault.at_ms &&
            fault.at_ms < other.at_ms + *other.duration_ms) {
          ++running;
        }
      }
      EXPECT_LE(running, 2u) << draw.faults.dump();
    }
  }
}

}  // namespace
}  // namespace nssim::sim

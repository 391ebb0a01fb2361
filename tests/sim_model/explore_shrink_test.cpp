// Shrinking: 1-minimal in faults, durations and starts halved while the failure stays, overlapping
// faults merged, the cluster reduced to what the faults name, the run cut to just past the last
// heal, the refused candidates free, the budget kept.
#include "sim/scenario/explore_shrink.h"

#include <gtest/gtest.h>

namespace nssim::sim {
namespace {

using Json = nlohmann::ordered_json;

Json fault(const char* kind, std::int64_t at, std::int64_t duration) {
  return Json{{"kind", kind}, {"at_ms", at}, {"duration_ms", duration}, {"node", "x"}};
}

Json eight_faults() {
  Json faults = Json::array();
  for (const char* kind : {"kill", "pause", "latency", "kill", "poweroff", "pause", "kill", "x"}) {
    faults.push_back(fault(kind, 100000, 40000));
  }
  return faults;
}

// A scenario as shrink_scenario takes it: the faults and what the passes read around them.
Json scenario(Json faults) { return Json{{"duration_ms", 420000}, {"faults", std::move(faults)}}; }

ShrinkOptions budget(std::size_t max_runs) {
  ShrinkOptions options;
  options.max_runs = max_runs;
  return options;
}

ShrinkResult shrink(const Json& faults, std::size_t max_runs,
                    const std::function<std::optional<bool>(const Json& faults)>& still_fails) {
  return shrink_scenario(scenario(faults), budget(max_runs),
                         [&](const Json& document) { return still_fails(document["faults"]); });
}

bool has(const Json& faults, const char* kind) {
  for (const auto& f : faults) {
    if (f["kind"] == kind) return true;
  }
  return false;
}

TEST(ExploreShrink, DropsToTheOneFaultNeeded) {
  const auto result =
      shrink(eight_faults(), kDefaultShrinkRuns,
             [](const Json& f) -> std::optional<bool> { return has(f, "poweroff"); });
  ASSERT_EQ(result.document["faults"].size(), 1u);
  EXPECT_EQ(result.document["faults"][0]["kind"], "poweroff");
  EXPECT_FALSE(result.budget_spent);
  EXPECT_EQ(result.runs, result.steps.size());
}

TEST(ExploreShrink, ResultIsOneMinimal) {
  // Fails only with a poweroff and a latency fault together.
  const auto both = [](const Json& f) -> std::optional<bool> {
    return has(f, "poweroff") && has(f, "latency");
  };
  const auto result = shrink(eight_faults(), kDefaultShrinkRuns, both);
  ASSERT_EQ(result.document["faults"].size(), 2u);
  for (std::size_t i = 0; i < result.document["faults"].size(); ++i) {
    Json without = result.document["faults"];
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
    EXPECT_FALSE(*both(without));
  }
}

TEST(ExploreShrink, HalvesDurationsAndStartsWhileTheFailureStays) {
  // Fails while the kill lasts at least 10 s and starts at 30 s or later.
  const auto long_kill = [](const Json& f) -> std::optional<bool> {
    for (const auto& x : f) {
      if (x["duration_ms"].get<std::int64_t>() >= 10000 && x["at_ms"].get<std::int64_t>() >= 30000)
        return true;
    }
    return false;
  };
  const auto result =
      shrink(Json::array({fault("kill", 100000, 40000)}), kDefaultShrinkRuns, long_kill);
  ASSERT_EQ(result.document["faults"].size(), 1u);
  // 40000 -> 20000 -> 10000 kept, 5000 not; 100000 -> 50000 kept, 25000 not.
  EXPECT_EQ(result.document["faults"][0]["duration_ms"], 10000);
  EXPECT_EQ(result.document["faults"][0]["at_ms"], 50000);
}

TEST(ExploreShrink, RefusedCandidatesCostNoRunAndTheBudgetHolds) {
  std::size_t judged = 0;
  const auto refuse_odd = [&judged](const Json& f) -> std::optional<bool> {
    if (f.size() % 2 == 1) return std::nullopt;
    ++judged;
    return has(f, "poweroff");
  };
  const auto result = shrink(eight_faults(), kDefaultShrinkRuns, refuse_odd);
  EXPECT_EQ(result.runs, judged);
  std::size_t limited = 0;
  const auto cut = shrink(eight_faults(), 3, [&limited](const Json& f) -> std::optional<bool> {
    ++limited;
    return has(f, "poweroff");
  });
  EXPECT_EQ(limited, 3u);
  EXPECT_EQ(cut.runs, 3u);
  EXPECT_TRUE(cut.budget_spent);
}

std::int64_t producers_in(const Json& document) {
  std::int64_t count = 0;
  for (const auto& set : document["producers"]) count += set.value("count", std::int64_t{1});
  return count;
}

TEST(ExploreShrink, FortyProducersShrinkToTheFewThatStillFail) {
  Json document = scenario(Json::array({fault("poweroff", 100000, 40000)}));
  document["producers"] = Json::array(
      {{{"name_prefix", "producer"}, {"count", 40}, {"rate_per_s", 8}, {"topics", {"TopicTest"}}}});
  // Fails with the fault while at least 5 producers send (a planted load threshold); the rate
  // does not matter.
  const auto result = shrink_scenario(document, budget(kDefaultShrinkRuns), [](const Json& d) {
    return std::optional<bool>(!d["faults"].empty() && producers_in(d) >= 5);
  });
  // 40 -> 1 refused, 40 -> 20 -> 10 -> 5 kept, 5 -> 2 refused.
  EXPECT_EQ(producers_in(result.document), 5);
  EXPECT_EQ(result.document["producers"][0]["rate_per_s"], 1);
  std::vector<std::pair<std::string, bool>> counts;
  for (const auto& step : result.steps) {
    if (step.change.rfind("producers[0].count", 0) == 0)
      counts.emplace_back(step.change, step.kept);
  }
  const std::vector<std::pair<std::string, bool>> expected = {
      {"producers[0].count 40 -> 1", false}, {"producers[0].count 40 -> 20", true},
      {"producers[0].count 20 -> 10", true}, {"producers[0].count 10 -> 5", true},
      {"producers[0].count 5 -> 2", false},  {"producers[0].count 5 -> 1", false},
      {"producers[0].count 5 -> 2", false}};
  EXPECT_EQ(counts, expected);
}

TEST(ExploreShrink, RunEndsJustPastTheLastHealPlusTheSettle) {
  ShrinkOptions options = budget(kDefaultShrinkRuns);
  options.settle_ms = 64000;
  const Json document = scenario(Json::array({fault("kill", 60000, 30000)}));
  const auto any = shrink_scenario(
      document, options, [](const Json& d) { return std::optional<bool>(!d["faults"].empty()); });
  // The kill's at_ms and duration_ms halve to 1875 ms each (each step at least a second), so the
  // last heal is at 3750 ms: the run ends at 67750 ms, rounded up to a second.
  EXPECT_EQ(any.document["duration_ms"], 68000);
  // A property that needs the run to reach 200 s: the floor is refused, bisection finds 200 s.
  const auto needs_200s = shrink_scenario(document, options, [](const Json& d) {
    return std::optional<bool>(!d["faults"].empty() &&
                               d["duration_ms"].get<std::int64_t>() >= 200000);
  });
  EXPECT_EQ(needs_200s.document["duration_ms"], 200000);
  // The bisection of 266 s takes 9 runs (the floor and 8 halvings), run once: the next round
  // finds the scenario as it left it.
  std::size_t bisection = 0;
  for (const auto& step : needs_200s.steps) bisection += step.change.rfind("duration_ms ", 0) == 0;
  EXPECT_EQ(bisection, 9u);
}

Json partition(std::int64_t at, std::int64_t duration, const char* to) {
  return Json{{"kind", "partition"},
              {"at_ms", at},
              {"duration_ms", duration},
              {"from", {"producers"}},
              {"to", {to}}};
}

TEST(ExploreShrink, OverlappingFaultsOfOneKindAndTargetMerge) {
  // Fails while producers are cut from broker-a-0 throughout [110 s, 150 s]: both partitions are
  // needed (ddmin keeps them), one partition over both windows is enough.
  const auto covered = [](const Json& d) {
    std::int64_t reached = 110000;
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& f : d["faults"]) {
        const std::int64_t at = f["at_ms"].get<std::int64_t>();
        if (f["to"][0] == "broker-a-0" && at <= reached) {
          reached = std::max(reached, at + f["duration_ms"].get<std::int64_t>());
        }
      }
    }
    return std::optional<bool>(reached >= 150000);
  };
  const Json faults =
      Json::array({partition(100000, 40000, "broker-a-0"), partition(120000, 40000, "broker-a-0"),
                   partition(125000, 40000, "broker-b-0")});
  const auto result = shrink_scenario(scenario(faults), budget(kDefaultShrinkRuns), covered);
  const Json& shrunk = result.document["faults"];
  ASSERT_EQ(shrunk.size(), 1u);
  EXPECT_EQ(shrunk[0]["to"][0], "broker-a-0");
  EXPECT_EQ(shrunk[0]["at_ms"], 100000);
  EXPECT_EQ(shrunk[0]["duration_ms"], 60000);
  const auto merge = std::find_if(result.steps.begin(), result.steps.end(), [](const auto& step) {
    return step.change == "merge faults 0 and 1";
  });
  ASSERT_NE(merge, result.steps.end());
  EXPECT_TRUE(merge->kept);
  // Partitions to different nodes never merge, whatever their windows.
  for (const auto& step : result.steps) EXPECT_EQ(step.change.find("and 2"), std::string::npos);
}

TEST(ExploreShrink, ClusterKeepsWhatTheFaultsName) {
  Json document =
      scenario(Json::array({fault("pause", 100000, 40000), partition(100000, 40000, "ns-1")}));
  document["faults"][0]["node"] = "broker-b-0";
  document["nameservers"] = {{"count", 5}};
  document["broker_groups"] =
      Json::array({{{"name", "broker-a"}}, {{"name", "broker-b"}}, {{"name", "broker-c"}}});
  document["topics"] =
      Json::array({{{"name", "T1"}, {"groups", {"broker-a", "broker-c"}}}, {{"name", "T2"}}});
  document["producers"] = Json::array({{{"topics", {"T1", "T2"}}}});
  // Fails whatever the cluster: every reduction that loads is kept.
  const auto result = shrink_scenario(document, budget(kDefaultShrinkRuns), [](const Json& d) {
    return std::optional<bool>(d["faults"].size() == 2);
  });
  const Json& shrunk = result.document;
  // broker-c goes (and leaves T1's groups), broker-b is named, broker-a is T1's last group.
  EXPECT_EQ(shrunk["broker_groups"], Json::array({{{"name", "broker-a"}}, {{"name", "broker-b"}}}));
  EXPECT_EQ(shrunk["topics"], Json::array({{{"name", "T1"}, {"groups", {"broker-a"}}}}));
  EXPECT_EQ(shrunk["producers"][0]["topics"], Json::array({"T1"}));
  EXPECT_EQ(shrunk["nameservers"]["count"], 2);  // ns-1 is named
}

}  // namespace
}  // namespace nssim::sim

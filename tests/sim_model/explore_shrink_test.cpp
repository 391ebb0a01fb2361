// Shrinking: 1-minimal in faults, durations and starts lowered to the lowest that still fails,
// the schedule moved earlier as one, overlapping faults pulled apart where the overlap does not
// matter and kept where it does, overlapping faults of one kind and target merged, the cluster
// reduced to what the faults name, the run cut to just past the last heal, the refused candidates
// free, the budget kept.
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

TEST(ExploreShrink, LowersDurationsAndStartsToTheLowestThatStillFails) {
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
  // 40000 -> 20000 -> 10000 kept, 5000, 7500 and 8750 not (9375 is less than a second's step).
  EXPECT_EQ(result.document["faults"][0]["duration_ms"], 10000);
  // The start halved toward 0 while it fails, then bisected between the last start that held and
  // the last that failed, each step at least a second: within 2 s of 30 s.
  EXPECT_EQ(result.document["faults"][0]["at_ms"], 31250);
  std::vector<std::pair<std::string, bool>> starts;
  for (const auto& step : result.steps) {
    if (step.change.rfind("faults[0].at_ms", 0) == 0) starts.emplace_back(step.change, step.kept);
  }
  // The second round (the run was cut to just past the heal) bisects again from 0 and keeps
  // nothing, so the third does not come.
  const std::vector<std::pair<std::string, bool>> expected = {
      {"faults[0].at_ms 100000 -> 50000", true}, {"faults[0].at_ms 50000 -> 25000", false},
      {"faults[0].at_ms 50000 -> 37500", true},  {"faults[0].at_ms 37500 -> 31250", true},
      {"faults[0].at_ms 31250 -> 28125", false}, {"faults[0].at_ms 31250 -> 29687", false},
      {"faults[0].at_ms 31250 -> 15625", false}, {"faults[0].at_ms 31250 -> 23437", false},
      {"faults[0].at_ms 31250 -> 27343", false}, {"faults[0].at_ms 31250 -> 29296", false}};
  EXPECT_EQ(starts, expected);
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

TEST(ExploreShrink, StartsStopWhereTheClusterHasStarted) {
  ShrinkOptions options = budget(kDefaultShrinkRuns);
  Scenario started;
  started.broker_groups.resize(2);
  started.broker_groups[1].start = {5000, 20000};
  started.producers.resize(1);
  started.producers[0].start = {15000, 30000};
  options.earliest_start_ms = started_by_ms(started);
  ASSERT_EQ(options.earliest_start_ms, 30000);  // the producers' window ends last
  // Fails with a kill and a pause, wherever they fall.
  const auto both = [](const Json& d) {
    return std::optional<bool>(has(d["faults"], "kill") && has(d["faults"], "pause"));
  };
  // One fault: its start bisected from 100 s toward 30 s, each step at least a second:
  // 65000, 47500, 38750, 34375, 32187, 31093 kept, 30546 less than a step below.
  const Json kill = fault("kill", 100000, 30000);
  const auto one = shrink_scenario(scenario(Json::array({kill})), options, [](const Json& d) {
    return std::optional<bool>(!d["faults"].empty());
  });
  EXPECT_EQ(one.document["faults"][0]["at_ms"], 31093);
  // Two apart: each duration halved to 1875, the schedule moved as one by the same steps as the
  // one fault (the first start to 31093, the second to 111093); then the second start bisected
  // toward the first's end (32968), no nearer than a second's step: 34188.
  const auto two =
      shrink_scenario(scenario(Json::array({kill, fault("pause", 180000, 30000)})), options, both);
  ASSERT_EQ(two.document["faults"].size(), 2u);
  EXPECT_EQ(two.document["faults"][0]["at_ms"], 31093);
  EXPECT_EQ(two.document["faults"][1]["at_ms"], 34188);
  // A fault that already starts earlier stays.
  const auto early =
      shrink_scenario(scenario(Json::array({fault("kill", 20000, 30000)})), options,
                      [](const Json& d) { return std::optional<bool>(!d["faults"].empty()); });
  EXPECT_EQ(early.document["faults"][0]["at_ms"], 20000);
}

TEST(ExploreShrink, ACandidateProposedAgainIsNotRunAgain) {
  std::size_t judged = 0;
  const StillFails kept_once = [&judged](const Json&) {
    ++judged;
    return std::optional<bool>(judged == 1);
  };
  shrink::ShrinkSession session(scenario(eight_faults()), kDefaultShrinkRuns, kept_once);
  const Json fewer = scenario(Json::array({fault("kill", 100000, 40000)}));
  EXPECT_TRUE(session.try_candidate(fewer, "drop 7"));
  // Back to a scenario tried before (the passes went round in a circle): no run, not kept.
  EXPECT_FALSE(session.try_candidate(fewer, "drop 7 again"));
  EXPECT_EQ(judged, 1u);
  EXPECT_EQ(session.take().runs, 1u);
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
  // 60000 bisected down to within a second's step of the 50000 the property needs.
  EXPECT_EQ(shrunk[0]["duration_ms"], 50625);
  const auto merge = std::find_if(result.steps.begin(), result.steps.end(), [](const auto& step) {
    return step.change == "merge faults 0 and 1";
  });
  ASSERT_NE(merge, result.steps.end());
  EXPECT_TRUE(merge->kept);
  // Partitions to different nodes never merge, whatever their windows.
  for (const auto& step : result.steps) EXPECT_EQ(step.change.find("and 2"), std::string::npos);
}

// A pause of broker-a-0 from 100 s for 40 s and a power-off of broker-b-0 from 120 s for 40 s:
// two kinds, so they never merge, and overlapping.
Json two_overlapping() {
  Json faults = Json::array({fault("pause", 100000, 40000), fault("poweroff", 120000, 40000)});
  faults[0]["node"] = "broker-a-0";
  faults[1]["node"] = "broker-b-0";
  return faults;
}

std::int64_t end_of(const Json& fault) {
  return fault["at_ms"].get<std::int64_t>() + fault["duration_ms"].get<std::int64_t>();
}

// Whether the shrink kept the first candidate it tried with `change`; nullopt when it tried none.
std::optional<bool> kept(const ShrinkResult& result, const std::string& change) {
  for (const auto& step : result.steps) {
    if (step.change == change) return step.kept;
  }
  return std::nullopt;
}

TEST(ExploreShrink, OverlapThatDoesNotMatterIsPulledApart) {
  // Fails with both faults, wherever they fall.
  const auto result = shrink(two_overlapping(), kDefaultShrinkRuns, [](const Json& f) {
    return std::optional<bool>(has(f, "pause") && has(f, "poweroff"));
  });
  const Json& shrunk = result.document["faults"];
  ASSERT_EQ(shrunk.size(), 2u);
  // The pause's duration goes no shorter than still reaches the power-off's start (20001 ms
  // keeps them overlapping): 21250; the power-off's to 1250. Then the power-off starts where the
  // pause ends, and the failure stays: the overlap did not matter.
  EXPECT_EQ(kept(result, "faults[1].at_ms 120000 -> 121250 (apart from faults[0])"), true);
  // Apart, the schedule moves earlier as one (100000 -> 1562 by halving), then the next round
  // shortens the pause, no longer held by the overlap (21250 -> 1328), and pulls the power-off's
  // start toward the pause's end (2890), no nearer than a second's step: 22812 -> 4135.
  EXPECT_EQ(shrunk[0]["at_ms"], 1562);
  EXPECT_EQ(shrunk[0]["duration_ms"], 1328);
  EXPECT_EQ(shrunk[1]["at_ms"], 4135);
  EXPECT_EQ(shrunk[1]["duration_ms"], 1250);
  EXPECT_GE(shrunk[1]["at_ms"].get<std::int64_t>(), end_of(shrunk[0]));
  EXPECT_FALSE(result.budget_spent);
}

TEST(ExploreShrink, OverlapThatMattersIsKeptAndShiftedEarlier) {
  // Fails only while the two faults overlap (for at least a second).
  const auto overlapping = [](const Json& f) {
    if (f.size() != 2) return std::optional<bool>(false);
    const std::int64_t from =
        std::max(f[0]["at_ms"].get<std::int64_t>(), f[1]["at_ms"].get<std::int64_t>());
    const std::int64_t to = std::min(end_of(f[0]), end_of(f[1]));
    return std::optional<bool>(to - from >= 1000);
  };
  const auto result = shrink(two_overlapping(), kDefaultShrinkRuns, overlapping);
  const Json& shrunk = result.document["faults"];
  ASSERT_EQ(shrunk.size(), 2u);
  // Pulled apart, it holds: the step says the overlap matters.
  EXPECT_EQ(kept(result, "faults[1].at_ms 120000 -> 121250 (apart from faults[0])"), false);
  // The schedule moved earlier as one keeps the overlap: 100000 -> 1562 by halving.
  EXPECT_EQ(kept(result, "every fault's at_ms -50000 (the first 100000 -> 50000)"), true);
  // Then each start and duration moves only as far as the overlap stays (the power-off's start
  // from 21562 to 1641, the pause's duration from 21250 to 1403), and the overlap still lasts a
  // second or more: [1641, 2891) ms. Pulled apart again there, it holds again.
  EXPECT_EQ(shrunk[0]["at_ms"], 1562);
  EXPECT_EQ(shrunk[0]["duration_ms"], 1403);
  EXPECT_EQ(shrunk[1]["at_ms"], 1641);
  EXPECT_EQ(shrunk[1]["duration_ms"], 1250);
  EXPECT_EQ(kept(result, "faults[1].at_ms 1641 -> 2965 (apart from faults[0])"), false);
  EXPECT_FALSE(result.budget_spent);
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

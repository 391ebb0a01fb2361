// Shrinking: 1-minimal in faults, durations and starts halved while the failure stays, the
// refused candidates free, the budget kept.
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

bool has(const Json& faults, const char* kind) {
  for (const auto& f : faults) {
    if (f["kind"] == kind) return true;
  }
  return false;
}

TEST(ExploreShrink, DropsToTheOneFaultNeeded) {
  const auto result =
      shrink_faults(eight_faults(), kDefaultShrinkRuns,
                    [](const Json& f) -> std::optional<bool> { return has(f, "poweroff"); });
  ASSERT_EQ(result.faults.size(), 1u);
  EXPECT_EQ(result.faults[0]["kind"], "poweroff");
  EXPECT_FALSE(result.budget_spent);
  EXPECT_EQ(result.runs, result.steps.size());
}

TEST(ExploreShrink, ResultIsOneMinimal) {
  // Fails only with a poweroff and a latency fault together.
  const StillFails both = [](const Json& f) -> std::optional<bool> {
    return has(f, "poweroff") && has(f, "latency");
  };
  const auto result = shrink_faults(eight_faults(), kDefaultShrinkRuns, both);
  ASSERT_EQ(result.faults.size(), 2u);
  for (std::size_t i = 0; i < result.faults.size(); ++i) {
    Json without = result.faults;
    without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
    EXPECT_FALSE(*both(without));
  }
}

TEST(ExploreShrink, HalvesDurationsAndStartsWhileTheFailureStays) {
  // Fails while the kill lasts at least 10 s and starts at 30 s or later.
  const StillFails long_kill = [](const Json& f) -> std::optional<bool> {
    for (const auto& x : f) {
      if (x["duration_ms"].get<std::int64_t>() >= 10000 && x["at_ms"].get<std::int64_t>() >= 30000)
        return true;
    }
    return false;
  };
  const auto result =
      shrink_faults(Json::array({fault("kill", 100000, 40000)}), kDefaultShrinkRuns, long_kill);
  ASSERT_EQ(result.faults.size(), 1u);
  // 40000 -> 20000 -> 10000 kept, 5000 not; 100000 -> 50000 kept, 25000 not.
  EXPECT_EQ(result.faults[0]["duration_ms"], 10000);
  EXPECT_EQ(result.faults[0]["at_ms"], 50000);
}

TEST(ExploreShrink, RefusedCandidatesCostNoRunAndTheBudgetHolds) {
  std::size_t judged = 0;
  const StillFails refuse_odd = [&judged](const Json& f) -> std::optional<bool> {
    if (f.size() % 2 == 1) return std::nullopt;
    ++judged;
    return has(f, "poweroff");
  };
  const auto result = shrink_faults(eight_faults(), kDefaultShrinkRuns, refuse_odd);
  EXPECT_EQ(result.runs, judged);
  std::size_t limited = 0;
  const auto cut =
      shrink_faults(eight_faults(), 3, [&limited](const Json& f) -> std::optional<bool> {
        ++limited;
        return has(f, "poweroff");
      });
  EXPECT_EQ(limited, 3u);
  EXPECT_EQ(cut.runs, 3u);
  EXPECT_TRUE(cut.budget_spent);
}

}  // namespace
}  // namespace nssim::sim

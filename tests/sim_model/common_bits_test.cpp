// The header-only pieces in common/: the one nearest-rank rule, uniform draws by rejection, and
// NSSIM_CHECK.
#include <gtest/gtest.h>

#include <vector>

#include "common/invariant.h"
#include "common/nearest_rank.h"
#include "common/random_bits.h"

namespace nssim {
namespace {

TEST(NearestRank, IsCeilOfPTimesNOverAHundredAtLeastOne) {
  EXPECT_EQ(nearest_rank(1, 50), 1U);
  EXPECT_EQ(nearest_rank(2, 50), 1U);
  EXPECT_EQ(nearest_rank(3, 50), 2U);
  // p99 of 99, 100 and 101 values: the 99th (the maximum of 99), the 99th, the 100th.
  EXPECT_EQ(nearest_rank(99, 99), 99U);
  EXPECT_EQ(nearest_rank(100, 99), 99U);
  EXPECT_EQ(nearest_rank(101, 99), 100U);
  EXPECT_EQ(nearest_rank(100, 100), 100U);
  EXPECT_EQ(nearest_rank(1000, 1), 10U);
  EXPECT_EQ(at_nearest_rank(std::vector<int>{10, 20, 30, 40}, 50), 20);
}

TEST(UniformBelow, RejectsTheLowResiduesAndStaysBelowTheBound) {
  // Three values below the threshold 2^64 mod 3 = 1 are rejected: 0 is, 1 and 5 are not.
  const std::vector<std::uint64_t> draws = {0, 1, 5};
  std::size_t next = 0;
  const auto source = [&] { return draws[next++]; };
  EXPECT_EQ(uniform_below(3, source), 1U);  // 0 rejected, then 1 % 3
  EXPECT_EQ(next, 2U);
  EXPECT_EQ(uniform_below(3, source), 2U);  // 5 % 3
  std::uint64_t state = 42;
  for (int i = 0; i < 1000; ++i) EXPECT_LT(uniform_below(7, [&] { return splitmix64(state); }), 7U);
}

TEST(Fnv1a, MatchesThePublishedVectors) {
  EXPECT_EQ(fnv1a(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a("a"), 0xaf63dc4c8601ec8cULL);
}

TEST(NssimCheckDeathTest, NamesTheFileLineAndWhat) {
  EXPECT_DEATH(NSSIM_CHECK(1 + 1 == 3, "arithmetic holds"),
               "common_bits_test\\.cpp:[0-9]+: invariant failed: arithmetic holds");
}

}  // namespace
}  // namespace nssim

// The simulator's random numbers: pinned values (a change of generator must be deliberate),
// ranges, and independence of named streams.
#include "sim/scenario/rng.h"

#include <gtest/gtest.h>

#include <set>

namespace nssim::sim {
namespace {

// The first two values are the reference xoshiro256** outputs for a splitmix64(1) seeding.
TEST(Rng, GoldenValuesArePinned) {
  Rng rng(1);
  EXPECT_EQ(rng.next_u64(), 0xb3f2af6d0fc710c5ULL);
  EXPECT_EQ(rng.next_u64(), 0x853b559647364ceaULL);
  EXPECT_EQ(Rng::derive(1, "start/ns-0").uniform_int(0, 4999), 4751);
}

TEST(Rng, DerivedStreamsDiffer) {
  Rng a = Rng::derive(7, "producer/producer-0");
  Rng b = Rng::derive(7, "producer/producer-1");
  EXPECT_NE(a.next_u64(), b.next_u64());
}

TEST(Rng, UniformIntStaysInRangeAndCoversIt) {
  Rng rng(3);
  std::set<std::int64_t> seen;
  for (int i = 0; i < 1000; ++i) {
    const auto v = rng.uniform_int(-2, 2);
    ASSERT_GE(v, -2);
    ASSERT_LE(v, 2);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 5u);
}

TEST(Rng, UniformRealIsHalfOpen) {
  Rng rng(5);
  for (int i = 0; i < 10000; ++i) {
    const double u = rng.uniform_01();
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
  }
}

TEST(Rng, ExponentialMeanMatchesRate) {
  Rng rng(11);
  double sum = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) sum += rng.exponential(10.0);
  EXPECT_NEAR(sum / n, 0.1, 0.002);
}

TEST(Rng, ShuffleIsAPermutation) {
  Rng rng(9);
  std::vector<int> items{0, 1, 2, 3, 4, 5, 6, 7};
  rng.shuffle(items);
  EXPECT_EQ(std::set<int>(items.begin(), items.end()).size(), 8u);
}

}  // namespace
}  // namespace nssim::sim

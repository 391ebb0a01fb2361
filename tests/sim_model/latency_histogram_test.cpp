// LatencyHistogram gives exactly the nearest-rank percentiles of a sorted list of its values.
#include "sim/record/latency_histogram.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "common/nearest_rank.h"
#include "sim/scenario/rng.h"

namespace nssim::sim {
namespace {

TEST(LatencyHistogram, EmptyHasZeroesLikeAnEmptyList) {
  const LatencyHistogram empty;
  EXPECT_EQ(empty.count(), 0);
  EXPECT_EQ(empty.percentile(50), 0);
  EXPECT_EQ(empty.max(), 0);
}

TEST(LatencyHistogram, RanksAreThoseOfTheSortedList) {
  // 1..100 once each: p50 is the 50th value, p99 the 99th, p1 the first.
  LatencyHistogram h;
  for (int ms = 100; ms >= 1; --ms) h.add(ms);
  EXPECT_EQ(h.percentile(50), 50);
  EXPECT_EQ(h.percentile(99), 99);
  EXPECT_EQ(h.percentile(1), 1);
  EXPECT_EQ(h.percentile(100), 100);
  EXPECT_EQ(h.max(), 100);
}

TEST(LatencyHistogram, MatchesPercentileOverManyRandomLists) {
  Rng rng(7);
  for (int list = 0; list < 200; ++list) {
    LatencyHistogram h;
    std::vector<std::int64_t> values;
    const auto size = 1 + static_cast<int>(rng.next_u64() % 300);
    for (int i = 0; i < size; ++i) {
      const auto ms = static_cast<std::int64_t>(rng.next_u64() % (list % 2 == 0 ? 10 : 7000));
      h.add(ms);
      values.push_back(ms);
    }
    std::sort(values.begin(), values.end());
    for (const int p : {1, 50, 90, 99, 100}) {
      EXPECT_EQ(h.percentile(p), at_nearest_rank(values, p)) << "list " << list << ", p" << p;
    }
    EXPECT_EQ(h.max(), values.back());
    EXPECT_EQ(h.count(), size);
  }
}

}  // namespace
}  // namespace nssim::sim

// The distribution of a figure over seeds: nearest-rank percentiles at their exact ranks, runs
// without a value counted apart, the first run of each extreme, and histogram bins.
#include "reports/sweep/sweep_stats.h"

#include <gtest/gtest.h>

namespace nssim::reports {
namespace {

std::vector<std::optional<double>> one_to(int n) {
  std::vector<std::optional<double>> values;
  for (int i = n; i >= 1; --i) values.push_back(i);  // descending: sorting is the stats' job
  return values;
}

TEST(SweepStats, PercentilesAreNearestRank) {
  const Distribution d = distribution_of(one_to(100));
  EXPECT_EQ(d.n, 100u);
  EXPECT_EQ(d.p50, 50);
  EXPECT_EQ(d.p90, 90);
  EXPECT_EQ(d.p99, 99);
  EXPECT_EQ(d.min, 1);
  EXPECT_EQ(d.max, 100);
  EXPECT_DOUBLE_EQ(d.mean, 50.5);
}

TEST(SweepStats, NearestRankRoundsTheRankUp) {
  // 10 values: p50 is rank 5, p90 rank 9, p99 rank ceil(9.9) = 10.
  const Distribution d = distribution_of(one_to(10));
  EXPECT_EQ(d.p50, 5);
  EXPECT_EQ(d.p90, 9);
  EXPECT_EQ(d.p99, 10);
  // 101 values: p99 is rank ceil(99.99) = 100, not the max.
  EXPECT_EQ(distribution_of(one_to(101)).p99, 100);
  EXPECT_EQ(distribution_of(one_to(1)).p50, 1);
}

TEST(SweepStats, RunsWithoutAValueCountAsNever) {
  const Distribution d = distribution_of({std::nullopt, 7.0, std::nullopt, 3.0});
  EXPECT_EQ(d.n, 2u);
  EXPECT_EQ(d.never, 2u);
  EXPECT_EQ(d.min, 3);
  EXPECT_EQ(d.max, 7);
  EXPECT_EQ(statistic(d, "never"), 2.0);
  EXPECT_EQ(statistic(d, "n"), 2.0);
  EXPECT_EQ(statistic(d, "mean"), 5.0);
}

TEST(SweepStats, AllNeverHasOnlyCounts) {
  const Distribution d = distribution_of({std::nullopt, std::nullopt});
  EXPECT_EQ(d.n, 0u);
  EXPECT_EQ(statistic(d, "never"), 2.0);
  EXPECT_FALSE(statistic(d, "p99").has_value());
  EXPECT_FALSE(statistic(d, "max").has_value());
}

TEST(SweepStats, ExtremesNameTheirFirstRun) {
  const Distribution d = distribution_of({5.0, 9.0, 1.0, 9.0, 1.0});
  EXPECT_EQ(d.max_run, 1u);
  EXPECT_EQ(d.min_run, 2u);
}

TEST(SweepStats, StatisticsByName) {
  const Distribution d = distribution_of(one_to(100));
  EXPECT_EQ(statistic(d, "min"), 1.0);
  EXPECT_EQ(statistic(d, "p50"), 50.0);
  EXPECT_EQ(statistic(d, "p90"), 90.0);
  EXPECT_EQ(statistic(d, "p99"), 99.0);
  EXPECT_EQ(statistic(d, "max"), 100.0);
  EXPECT_FALSE(statistic(d, "p95").has_value());
}

TEST(SweepStats, WholeValuesGetWholeBinsThatCountEveryRun) {
  // 110000 .. 146000: span 36001 values over 40 bins -> width 901, 40 bins.
  const Distribution d = distribution_of({110000.0, 146000.0, 110900.0, 110901.0});
  EXPECT_EQ(d.histogram.lo, 110000);
  EXPECT_EQ(d.histogram.width, 901);
  ASSERT_EQ(d.histogram.counts.size(), 40u);
  EXPECT_EQ(d.histogram.counts.front(), 2);  // 110000 and 110900 are in [110000, 110901)
  EXPECT_EQ(d.histogram.counts[1], 1);       // 110901
  EXPECT_EQ(d.histogram.counts.back(), 1);   // the max lands in the last bin
}

TEST(SweepStats, SmallRangesGetOneBinPerValue) {
  const Distribution d = distribution_of({0.0, 1.0, 1.0, 3.0});
  EXPECT_EQ(d.histogram.width, 1);
  EXPECT_EQ(d.histogram.counts, (std::vector<std::int64_t>{1, 2, 0, 1}));
  const Distribution constant = distribution_of({4.0, 4.0});
  EXPECT_EQ(constant.histogram.counts, (std::vector<std::int64_t>{2}));
}

TEST(SweepStats, FractionalValuesSpanFortyBins) {
  const Distribution d = distribution_of({0.0, 0.5, 1.0});
  EXPECT_DOUBLE_EQ(d.histogram.width, 1.0 / 40);
  ASSERT_EQ(d.histogram.counts.size(), 40u);
  EXPECT_EQ(d.histogram.counts.front(), 1);
  EXPECT_EQ(d.histogram.counts[20], 1);
  EXPECT_EQ(d.histogram.counts.back(), 1);
}

}  // namespace
}  // namespace nssim::reports

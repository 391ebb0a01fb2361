// File: the distribution of one figure over a sweep's seeds: counts, nearest-rank percentiles,
// the mean, a histogram, and which seeds gave the extremes. Pure arithmetic on values in run
// order, so the same runs give the same numbers whatever order they finished in.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace nssim::reports {

// Bins a histogram has at most; sweep.html draws them as bars.
inline constexpr std::size_t kHistogramBins = 40;

struct Histogram {
  double lo = 0;     // bin k covers [lo + k * width, lo + (k + 1) * width)
  double width = 1;  // whole for whole-valued figures
  std::vector<std::int64_t> counts;
};

struct Distribution {
  std::size_t n = 0;      // runs with a value
  std::size_t never = 0;  // runs where the figure is null ("never") or absent
  // The rest are set when n > 0.
  double min = 0, p50 = 0, p90 = 0, p99 = 0, max = 0, mean = 0;
  Histogram histogram;
  std::size_t min_run = 0;  // position (in the values given) of the first run with the min
  std::size_t max_run = 0;  // ... and the max
};

// The distribution of `values` (one per run, in run order; nullopt for a run without a value).
Distribution distribution_of(const std::vector<std::optional<double>>& values);

// A statistic by the name a sweep expectation uses (n, never, min, p50, p90, p99, max, mean);
// nullopt when it has no value (n == 0 for all but n and never).
std::optional<double> statistic(const Distribution& distribution, const std::string& name);

}  // namespace nssim::reports

// File: distribution_of and its statistics (see sweep_stats.h).
#include "reports/sweep/sweep_stats.h"

#include <algorithm>
#include <cmath>

#include "common/nearest_rank.h"

namespace nssim::reports {

namespace {

bool all_whole(const std::vector<double>& sorted) {
  return std::all_of(sorted.begin(), sorted.end(),
                     [](double v) { return v == std::floor(v) && std::fabs(v) < 9.0e15; });
}

Histogram histogram_of(const std::vector<double>& sorted) {
  Histogram histogram;
  const double lo = sorted.front();
  const double span = sorted.back() - lo;
  histogram.lo = lo;
  const double bins = static_cast<double>(kHistogramBins);
  if (all_whole(sorted)) {
    // Whole-valued figures get whole-valued bins, so a bin never splits one value's runs.
    histogram.width = std::max(1.0, std::ceil((span + 1) / bins));
  } else {
    histogram.width = span > 0 ? span / bins : 1.0;
  }
  const auto count = static_cast<std::size_t>(std::floor(span / histogram.width)) + 1;
  histogram.counts.assign(std::min(count, kHistogramBins), 0);
  for (const double v : sorted) {
    auto bin = static_cast<std::size_t>(std::floor((v - lo) / histogram.width));
    ++histogram.counts[std::min(bin, histogram.counts.size() - 1)];  // max lands in the last
  }
  return histogram;
}

}  // namespace

Distribution distribution_of(const std::vector<std::optional<double>>& values) {
  Distribution d;
  std::vector<double> sorted;
  double sum = 0;
  for (std::size_t run = 0; run < values.size(); ++run) {
    if (!values[run]) {
      ++d.never;
      continue;
    }
    const double v = *values[run];
    if (sorted.empty() || v < d.min) {
      d.min = v;
      d.min_run = run;
    }
    if (sorted.empty() || v > d.max) {
      d.max = v;
      d.max_run = run;
    }
    sorted.push_back(v);
    sum += v;
  }
  d.n = sorted.size();
  if (d.n == 0) return d;
  std::sort(sorted.begin(), sorted.end());
  d.p50 = at_nearest_rank(sorted, 50);
  d.p90 = at_nearest_rank(sorted, 90);
  d.p99 = at_nearest_rank(sorted, 99);
  d.mean = sum / static_cast<double>(d.n);
  d.histogram = histogram_of(sorted);
  return d;
}

std::optional<double> statistic(const Distribution& d, const std::string& name) {
  if (name == "n") return static_cast<double>(d.n);
  if (name == "never") return static_cast<double>(d.never);
  if (d.n == 0) return std::nullopt;
  if (name == "min") return d.min;
  if (name == "p50") return d.p50;
  if (name == "p90") return d.p90;
  if (name == "p99") return d.p99;
  if (name == "max") return d.max;
  if (name == "mean") return d.mean;
  return std::nullopt;
}

}  // namespace nssim::reports

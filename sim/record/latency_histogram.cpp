// File: LatencyHistogram (see latency_histogram.h).
#include "sim/record/latency_histogram.h"

#include <algorithm>

#include "common/nearest_rank.h"

namespace nssim::sim {

void LatencyHistogram::add(std::int64_t ms) {
  const auto index = static_cast<std::size_t>(std::max<std::int64_t>(ms, 0));
  if (index >= counts_.size()) counts_.resize(index + 1, 0);
  ++counts_[index];
  ++total_;
}

std::int64_t LatencyHistogram::percentile(int p) const {
  if (total_ == 0) return 0;
  const auto rank = static_cast<std::int64_t>(nearest_rank(static_cast<std::size_t>(total_), p));
  std::int64_t seen = 0;
  for (std::size_t ms = 0; ms < counts_.size(); ++ms) {
    seen += counts_[ms];
    if (seen >= rank) return static_cast<std::int64_t>(ms);
  }
  return max();
}

std::int64_t LatencyHistogram::max() const {
  return total_ == 0 ? 0 : static_cast<std::int64_t>(counts_.size()) - 1;
}

}  // namespace nssim::sim

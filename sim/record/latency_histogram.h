// File: the durations of many sends kept as exact counts per millisecond, so that an outage window
// with millions of sends costs memory in its longest duration, not in its number of sends, and its
// percentiles are the same numbers a sorted list of every duration gives.
#pragma once

#include <cstdint>
#include <vector>

namespace nssim::sim {

class LatencyHistogram {
 public:
  void add(std::int64_t ms);  // ms >= 0
  std::int64_t count() const { return total_; }
  // Nearest rank over every added value, as at_nearest_rank (common/nearest_rank.h) does over a
  // sorted list of them; 0 when none was added.
  std::int64_t percentile(int p) const;
  std::int64_t max() const;

 private:
  std::vector<std::int64_t> counts_;  // index: duration in ms
  std::int64_t total_ = 0;
};

}  // namespace nssim::sim

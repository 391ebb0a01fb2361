// File: the rank of a nearest-rank percentile, the one definition behind every p50/p90/p99 nssim
// reports (a run's distributions, a latency histogram, a sweep's and a compare's statistics).
#pragma once

#include <cstddef>
#include <vector>

namespace nssim {

// The 1-based rank of the p-th percentile (0 < p <= 100) of n > 0 sorted values:
// ceil(p / 100 * n), at least 1, so p99 of fewer than 100 values is their maximum.
constexpr std::size_t nearest_rank(std::size_t n, int p) {
  const std::size_t rank = (static_cast<std::size_t>(p) * n + 99) / 100;
  return rank < 1 ? 1 : rank;
}

// The p-th nearest-rank percentile of non-empty sorted values.
template <typename T>
const T& at_nearest_rank(const std::vector<T>& sorted, int p) {
  return sorted[nearest_rank(sorted.size(), p) - 1];
}

}  // namespace nssim

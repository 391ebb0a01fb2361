// File: distribution_json (see distribution.h).
#include "sim/analysis/distribution.h"

#include <algorithm>

#include "common/nearest_rank.h"

namespace nssim::sim {

nlohmann::json distribution_json(std::vector<std::int64_t> values, std::size_t never) {
  std::sort(values.begin(), values.end());
  nlohmann::json stats = {{"count", values.size()}, {"never", never}};
  if (values.empty()) {
    stats["min"] = stats["p50"] = stats["p99"] = stats["max"] = nullptr;
  } else {
    stats["min"] = values.front();
    stats["p50"] = at_nearest_rank(values, 50);
    stats["p99"] = at_nearest_rank(values, 99);
    stats["max"] = values.back();
  }
  return stats;
}

}  // namespace nssim::sim

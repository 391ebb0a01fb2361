// File: distribution_json, the {count, never, min, p50, p99, max} block every per-subject figure of
// result.json is written as (stale routes, recovery, admin follow-ups).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

namespace nssim::sim {

// The block of `values` (null figures when there are none; percentiles by nearest rank, as
// everywhere in nssim: common/nearest_rank.h); `never` counts the subjects that have no value.
nlohmann::json distribution_json(std::vector<std::int64_t> values, std::size_t never);

}  // namespace nssim::sim

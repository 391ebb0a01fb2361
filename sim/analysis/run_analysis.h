// File: from what a run recorded to what it means: per outage, when each NameServer dropped the
// broker and by which path, how long each producer kept a stale route, what happened to the sends
// in the window, how the broker came back, plus the intervals in which NameServers disagreed and
// the bounds RocketMQ's rules predict (spec section 11). The result is the run's result.json.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/network/network_history.h"
#include "sim/record/event_log.h"
#include "sim/record/send_stats.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

// Version of the result.json layout; documented in reports/README.md.
inline constexpr const char* kResultSchema = "nssim.result/1";

nlohmann::json analyze_run(const Scenario& scenario, const Topology& topology,
                           const std::vector<Event>& events, const SendStats& sends,
                           const NetworkHistory& network);

// Nearest-rank percentile of a sorted list; 0 for an empty one.
std::int64_t percentile(const std::vector<std::int64_t>& sorted, double p);

// {count, never, min, p50, p99, max} of `values` (null figures when there are none); `never`
// counts the subjects that have no value.
nlohmann::json distribution_json(std::vector<std::int64_t> values, std::size_t never);

}  // namespace nssim::sim

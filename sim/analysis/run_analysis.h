// File: from what a run recorded to what it means: per outage, when each NameServer dropped the
// broker and by which path, how long each producer kept a stale route, what happened to the sends
// in the window, how the broker came back, plus the intervals in which NameServers disagreed and
// the bounds RocketMQ's rules predict (spec section 11). The result is the run's result.json.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/record/world_record.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

// Version of the result.json layout; documented in reports/README.md.
inline constexpr const char* kResultSchema = "nssim.result/1";

// The one analysis of a run, used by `nssim run`, every run of a sweep (so `check` and `compare`)
// and the tests: result.json, with the command line that repeats the run.
nlohmann::json analyze_run(const Scenario& scenario, const WorldRecord& record);

}  // namespace nssim::sim

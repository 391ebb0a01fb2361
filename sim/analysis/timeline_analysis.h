// File: the time-resolved part of a run's analysis, the data behind the report's pictures: each
// node's process state over the run (process_spans.h), when each NameServer held each broker in
// its routes (route_replay.h), every detection. Derived from the event log, so the world records
// nothing extra for it.
#pragma once

#include <nlohmann/json.hpp>
#include <vector>

#include "sim/analysis/route_replay.h"
#include "sim/record/event_log.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

// The "timelines" object of result.json (schema in reports/README.md).
nlohmann::json timelines_json(const Scenario& scenario, const Topology& topology,
                              const std::vector<Event>& events, const RouteReplay& replay);

}  // namespace nssim::sim

// File: one simulated run: builds the SimGrid platform and the nodes of a scenario, plays the
// fault timeline, and hands back what was recorded. SimGrid allows one simulation per process,
// so run_world may be called once per process.
#pragma once

#include <vector>

#include "sim/record/trace_sink.h"
#include "sim/record/world_record.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

// The windows in which sends are counted per outage: one per fault, from its start to its end
// (or the scenario's end).
std::vector<TimeWindow> fault_windows(const Scenario& scenario);

// `trace` (optional) receives every producer's sends and route updates as the run goes on;
// nothing else the run records depends on it.
WorldRecord run_world(const Scenario& scenario, TraceSink* trace = nullptr);

}  // namespace nssim::sim

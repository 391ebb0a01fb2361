// File: one simulated run: builds the SimGrid platform and the nodes of a scenario, plays the
// fault timeline, and hands back what was recorded. SimGrid allows one simulation per process,
// so run_world may be called once per process.
#pragma once

#include <memory>

#include "sim/network/network_history.h"
#include "sim/record/event_log.h"
#include "sim/record/send_stats.h"
#include "sim/record/trace_sink.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

struct WorldRecord {
  Topology topology;
  EventLog log;
  std::unique_ptr<SendStats> sends;
  // Every node's states and every path's cuts over the run, as the transport rules saw them; the
  // analysis judges route health by it (NodeId = index into topology.nodes).
  std::unique_ptr<NetworkHistory> network;
  std::int64_t end_ms = 0;  // the scenario's end; the simulation ran on to flush in-flight sends
};

// The windows in which sends are counted per outage: one per fault, from its start to its end
// (or the scenario's end).
std::vector<TimeWindow> fault_windows(const Scenario& scenario);

// `trace` (optional) receives every producer's sends and route updates as the run goes on;
// nothing else the run records depends on it.
WorldRecord run_world(const Scenario& scenario, TraceSink* trace = nullptr);

}  // namespace nssim::sim

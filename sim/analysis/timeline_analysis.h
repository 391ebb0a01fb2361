// File: the time-resolved part of a run's analysis, the data behind the report's pictures: each
// node's process state over the run, when each NameServer held each broker in its routes, every
// detection. Derived from the event
// log and the outages, so the world records nothing extra for it.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/record/event_log.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

// One stretch of a node's life: "not_started", "up", "paused" or "down"; `fault` is the index of
// the fault that caused a paused or down stretch.
struct ProcessSpan {
  std::string state;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  std::optional<std::size_t> fault;
};

// Whether a fault of this kind ("kill", "pause"...) ends the process it acts on.
bool fault_stops_process(const std::string& kind);

// Consecutive spans covering [0, duration_ms] for `node`. A process is down from the fault that
// stops it (kill, poweroff, shutdown) until its next process_start; paused between a pause
// fault's begin and end.
std::vector<ProcessSpan> process_spans(const std::vector<Event>& events, const std::string& node,
                                       std::int64_t duration_ms);
// The same for each of `nodes`, in one walk over the events.
std::map<std::string, std::vector<ProcessSpan>> process_spans_of(
    const std::vector<Event>& events, const std::vector<std::string>& nodes,
    std::int64_t duration_ms);

// The "timelines" object of result.json (schema in reports/README.md).
nlohmann::json timelines_json(const Scenario& scenario, const Topology& topology,
                              const std::vector<Event>& events);

}  // namespace nssim::sim

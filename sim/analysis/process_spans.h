// File: each node's process state over a run (not started, up, paused, down), read from its
// process_start events and the faults that act on it: what the timeline draws and what the
// route replay (route_replay.h) takes a NameServer's life from.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/record/event_log.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

enum class SpanState : std::uint8_t { kNotStarted, kUp, kPaused, kDown };
// "not_started", "up", "paused", "down": the timeline's state names (reports/README.md).
const char* span_state_name(SpanState state);

// One stretch of a node's life; `fault` is the file index of the fault that caused a paused or
// down stretch.
struct ProcessSpan {
  SpanState state = SpanState::kNotStarted;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  std::optional<std::size_t> fault;
};

// Whether a fault of this kind ends the process it acts on (kill, poweroff, shutdown).
bool fault_stops_process(FaultKind kind);

// Consecutive spans covering [0, duration_ms] for `node`. A process is down from the fault that
// stops it (kill, poweroff, shutdown) until its next process_start; paused between a pause
// fault's begin and end.
std::vector<ProcessSpan> process_spans(const std::vector<Event>& events, const std::string& node,
                                       std::int64_t duration_ms);
// The same for each of `nodes`, in one walk over the events.
std::map<std::string, std::vector<ProcessSpan>> process_spans_of(
    const std::vector<Event>& events, const std::vector<std::string>& nodes,
    std::int64_t duration_ms);

}  // namespace nssim::sim

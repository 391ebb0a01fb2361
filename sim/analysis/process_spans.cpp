// File: process_spans (see process_spans.h).
#include "sim/analysis/process_spans.h"

#include "common/invariant.h"

namespace nssim::sim {

namespace {

void append_span(std::vector<ProcessSpan>& spans, ProcessSpan next) {
  ProcessSpan& last = spans.back();
  if (last.state == next.state && last.fault == next.fault) return;
  last.end_ms = next.start_ms;
  if (last.end_ms == last.start_ms) spans.pop_back();
  if (!spans.empty() && spans.back().state == next.state && spans.back().fault == next.fault)
    return;  // the stretch that was cut to nothing sat between two equal ones
  spans.push_back(std::move(next));
}

}  // namespace

const char* span_state_name(SpanState state) {
  switch (state) {
    case SpanState::kNotStarted:
      return "not_started";
    case SpanState::kUp:
      return "up";
    case SpanState::kPaused:
      return "paused";
    case SpanState::kDown:
      return "down";
  }
  return "unknown";
}

bool fault_stops_process(FaultKind kind) {
  return kind == FaultKind::kKill || kind == FaultKind::kPoweroff || kind == FaultKind::kShutdown;
}

std::map<std::string, std::vector<ProcessSpan>> process_spans_of(
    const std::vector<Event>& events, const std::vector<std::string>& nodes,
    std::int64_t duration_ms) {
  std::map<std::string, std::vector<ProcessSpan>> by_node;
  for (const std::string& node : nodes) {
    by_node[node] = {{SpanState::kNotStarted, 0, 0, std::nullopt}};
  }
  // One walk over the events for every node: a walk per node made timelines cost nodes x events.
  for (const auto& event : events) {
    if (event.t_ms > duration_ms) break;
    if (event.kind == EventKind::kProcessStart) {
      if (const auto spans = by_node.find(event.node); spans != by_node.end()) {
        append_span(spans->second, {SpanState::kUp, event.t_ms, 0, std::nullopt});
      }
      continue;
    }
    if (event.kind != EventKind::kFaultBegin && event.kind != EventKind::kFaultEnd) continue;
    if (!event.fields.contains("nodes")) continue;
    const std::optional<FaultKind> kind = parse_fault_kind(event.fields.value("kind", ""));
    NSSIM_CHECK(kind, "a fault event names a fault kind (FaultPlayer::log writes it)");
    const auto fault = event.fields["fault"].get<std::size_t>();
    const bool begins = event.kind == EventKind::kFaultBegin;
    for (const auto& name : event.fields["nodes"]) {
      const auto found = by_node.find(name.get<std::string>());
      if (found == by_node.end()) continue;
      std::vector<ProcessSpan>& spans = found->second;
      if (begins && fault_stops_process(*kind) && spans.back().state != SpanState::kDown) {
        append_span(spans, {SpanState::kDown, event.t_ms, 0, fault});
      } else if (*kind == FaultKind::kPause && begins && spans.back().state == SpanState::kUp) {
        append_span(spans, {SpanState::kPaused, event.t_ms, 0, fault});
      } else if (*kind == FaultKind::kPause && !begins &&
                 spans.back().state == SpanState::kPaused) {
        append_span(spans, {SpanState::kUp, event.t_ms, 0, std::nullopt});
      }
    }
  }
  for (auto& [node, spans] : by_node) spans.back().end_ms = duration_ms;
  return by_node;
}

std::vector<ProcessSpan> process_spans(const std::vector<Event>& events, const std::string& node,
                                       std::int64_t duration_ms) {
  return process_spans_of(events, {node}, duration_ms)[node];
}

}  // namespace nssim::sim

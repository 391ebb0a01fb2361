// File: the text of trace.jsonl's lines (reports/README.md describes every kind and field): one
// JSON object per line, keys in a fixed order with t_ms and kind first, so that the same reports
// always give the same bytes. The writer and the size estimate share it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "sim/record/send_record.h"
#include "sim/record/trace_sink.h"

namespace nssim::sim {

struct TraceProducer {
  std::string name;
  std::string group;  // the producer group: its producer set's name_prefix
};

// Appends `s` as a JSON string (quotes, backslashes and control characters escaped).
void append_json_string(std::string& out, std::string_view s);

// One "attempt" line, for attempt `retry` of `send`, newline included.
void append_attempt_line(std::string& out, const TraceProducer& producer, const SendRecord& send,
                         std::size_t retry);
// The "send_without_attempt" line of a send that ended before any attempt.
void append_send_line(std::string& out, const TraceProducer& producer, const SendRecord& send);
// One "route_update" line.
void append_route_line(std::string& out, const TraceProducer& producer, const RouteUpdate& update);

}  // namespace nssim::sim

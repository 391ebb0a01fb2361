// File: trace.jsonl's line texts (see trace_lines.h). Written by hand rather than through
// nlohmann::json: a traced run writes millions of lines, and the fixed key order reads better.
#include "sim/record/trace_lines.h"

#include <cstdint>
#include <cstdio>
#include <string_view>

namespace nssim::sim {

namespace {

void append_key(std::string& out, std::string_view key) {
  out += ",\"";
  out += key;
  out += "\":";
}

void append_int(std::string& out, std::string_view key, std::int64_t value) {
  append_key(out, key);
  out += std::to_string(value);
}

void append_string(std::string& out, std::string_view key, std::string_view value) {
  append_key(out, key);
  append_json_string(out, value);
}

void append_names(std::string& out, std::string_view key, const std::vector<std::string>& names) {
  append_key(out, key);
  out += '[';
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) out += ',';
    append_json_string(out, names[i]);
  }
  out += ']';
}

// `{"t_ms":...,"kind":"..."`, the two keys every line starts with.
void open_line(std::string& out, std::int64_t t_ms, std::string_view kind) {
  out += "{\"t_ms\":";
  out += std::to_string(t_ms);
  out += ",\"kind\":\"";
  out += kind;
  out += '"';
}

void append_who(std::string& out, const TraceProducer& producer, const SendRecord& send) {
  append_string(out, "producer", producer.name);
  append_string(out, "producer_group", producer.group);
  append_string(out, "topic", send.topic);
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", static_cast<unsigned>(byte));
      out += escaped;
    } else {
      out += c;
    }
  }
  out += '"';
}

void append_attempt_line(std::string& out, const TraceProducer& producer, const SendRecord& send,
                         std::size_t retry) {
  const AttemptRecord& attempt = send.attempts[retry];
  const bool ended_send = retry + 1 == send.attempts.size();
  open_line(out, attempt.end_ms, "attempt");
  append_who(out, producer, send);
  append_string(out, "broker", attempt.broker_name);
  append_int(out, "queue_id", attempt.queue_id);
  append_int(out, "send_start_ms", send.start_ms);
  append_int(out, "start_ms", attempt.start_ms);
  append_key(out, "cause");
  append_json_string(out, send_cause_name(attempt.cause));
  append_int(out, "retry", static_cast<std::int64_t>(retry));
  append_key(out, "ended_send");
  out += ended_send ? "true" : "false";
  if (ended_send) {
    append_key(out, "send_cause");
    append_json_string(out, send_cause_name(send.cause));
  }
  out += "}\n";
}

void append_send_line(std::string& out, const TraceProducer& producer, const SendRecord& send) {
  open_line(out, send.end_ms, "send_without_attempt");
  append_who(out, producer, send);
  append_int(out, "send_start_ms", send.start_ms);
  append_key(out, "send_cause");
  append_json_string(out, send_cause_name(send.cause));
  out += "}\n";
}

void append_route_line(std::string& out, const TraceProducer& producer, const RouteUpdate& update) {
  open_line(out, update.answered_ms, "route_update");
  append_string(out, "producer", producer.name);
  append_string(out, "topic", update.topic);
  append_string(out, "nameserver", update.query.nameserver);
  append_int(out, "asked_ms", update.query.asked_ms);
  append_string(out, "outcome", update.query.outcome);
  append_names(out, "gained", update.gained);
  append_names(out, "lost", update.lost);
  out += "}\n";
}

}  // namespace nssim::sim

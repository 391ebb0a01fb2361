// File: validation of one replay line. Every field is checked before anything runs, so a
// malformed line has no effect on the NameServer.
#include "replay_line.h"

#include <limits>
#include <set>

#include "header_value.h"
#include "nameserver_codec/json_depth.h"

namespace nssim::codec::detail {

namespace {

using nlohmann::json;

struct LineFailure {
  std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& expected) {
  throw LineFailure{path.empty() ? expected : path + ": " + expected};
}

void reject_unknown_fields(const json& line, const std::set<std::string>& allowed,
                           const char* kind) {
  for (const auto& [key, value] : line.items()) {
    if (allowed.count(key) == 0) fail(key, std::string("unknown field for ") + kind);
  }
}

template <typename T>
T read_integer(const json& value, const std::string& path) {
  const bool in_range =
      (value.is_number_unsigned() &&
       value.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())) ||
      (value.is_number_integer() && !value.is_number_unsigned() &&
       value.get<std::int64_t>() >= std::numeric_limits<T>::min() &&
       value.get<std::int64_t>() <= std::numeric_limits<T>::max());
  if (!in_range) fail(path, sizeof(T) == 4 ? "expected a 32-bit integer" : "expected an integer");
  return value.is_number_unsigned() ? static_cast<T>(value.get<std::uint64_t>())
                                    : static_cast<T>(value.get<std::int64_t>());
}

std::string read_string(const json& value, const std::string& path) {
  if (!value.is_string()) fail(path, "expected a string");
  return value.get<std::string>();
}

std::int64_t read_at_ms(const json& line, std::int64_t previous_at_ms) {
  auto found = line.find("at_ms");
  if (found == line.end()) return previous_at_ms;
  const auto at_ms = read_integer<std::int64_t>(*found, "at_ms");
  if (at_ms < previous_at_ms) {
    fail("at_ms",
         "must not decrease (the previous line is at " + std::to_string(previous_at_ms) + ")");
  }
  return at_ms;
}

// Header values travel as strings; integers and booleans are written as Java's toString would.
std::map<std::string, std::string> read_ext_fields(const json& value) {
  if (!value.is_object()) fail("extFields", "expected an object of strings");
  std::map<std::string, std::string> fields;
  for (const auto& [key, item] : value.items()) {
    auto text = detail::header_value_text(item);
    if (!text) fail("extFields." + key, "expected a string, an integer or a boolean");
    fields[key] = std::move(*text);
  }
  return fields;
}

RequestLine parse_request(const json& line, core::Profile profile, std::int64_t previous_at_ms) {
  reject_unknown_fields(line,
                        {"at_ms", "code", "version", "channel", "oneway", "extFields", "body"},
                        "a request line");
  RequestLine request;
  request.at_ms = read_at_ms(line, previous_at_ms);
  auto code = line.find("code");
  if (code == line.end()) fail("code", "expected a request code (or an \"event\" field)");
  request.code = read_integer<int>(*code, "code");
  request.version = core::default_request_version(profile);
  if (auto version = line.find("version"); version != line.end()) {
    request.version = read_integer<int>(*version, "version");
  }
  if (auto channel = line.find("channel"); channel != line.end()) {
    request.channel = read_string(*channel, "channel");
  }
  if (auto oneway = line.find("oneway"); oneway != line.end()) {
    if (!oneway->is_boolean()) fail("oneway", "expected true or false");
    request.oneway = oneway->get<bool>();
  }
  if (auto ext_fields = line.find("extFields"); ext_fields != line.end()) {
    request.ext_fields = read_ext_fields(*ext_fields);
  }
  if (auto body = line.find("body"); body != line.end()) request.body = *body;
  return request;
}

EventLine parse_event(const json& line, std::int64_t previous_at_ms) {
  EventLine event;
  const std::string name = read_string(line["event"], "event");
  if (name == "scan") {
    event.kind = EventKind::kScan;
    reject_unknown_fields(line, {"at_ms", "event"}, "a scan event");
  } else if (name == "close" || name == "idle") {
    event.kind = name == "close" ? EventKind::kClose : EventKind::kIdle;
    reject_unknown_fields(line, {"at_ms", "event", "channel", "remoteAddr"}, "a channel event");
  } else {
    fail("event", "expected scan, close or idle, got \"" + name + "\"");
  }
  event.at_ms = read_at_ms(line, previous_at_ms);
  if (auto channel = line.find("channel"); channel != line.end()) {
    event.channel = read_string(*channel, "channel");
  }
  if (auto remote_addr = line.find("remoteAddr"); remote_addr != line.end()) {
    event.remote_addr = read_string(*remote_addr, "remoteAddr");
  }
  return event;
}

}  // namespace

ParsedLine parse_replay_line(std::string_view text, core::Profile profile,
                             std::int64_t previous_at_ms) {
  if (json_nesting_exceeds(text, kMaxJsonDepth)) {
    return LineError{"expected JSON nested at most " + std::to_string(kMaxJsonDepth) +
                     " levels deep"};
  }
  const json line = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (line.is_discarded()) return LineError{"expected a JSON object, got text that is not JSON"};
  if (!line.is_object()) return LineError{"expected a JSON object"};
  try {
    if (line.contains("event")) return parse_event(line, previous_at_ms);
    return parse_request(line, profile, previous_at_ms);
  } catch (const LineFailure& failure) {
    return LineError{failure.message};
  }
}

}  // namespace nssim::codec::detail

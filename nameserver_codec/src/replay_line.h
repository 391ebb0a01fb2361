// File: one replay input line, validated: a request or a channel event, or the path-qualified
// reason it is malformed. Private to the codec.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>

#include "nameserver_core/profile.h"

namespace nssim::codec::detail {

inline constexpr const char* kDefaultChannel = "default";

struct RequestLine {
  std::int64_t at_ms = 0;
  int code = 0;
  int version = 0;
  std::string channel = kDefaultChannel;
  bool oneway = false;
  std::map<std::string, std::string> ext_fields;
  nlohmann::json body;  // null: no body
};

enum class EventKind { kScan, kClose, kIdle };

struct EventLine {
  std::int64_t at_ms = 0;
  EventKind kind = EventKind::kScan;
  std::string channel = kDefaultChannel;
  std::string remote_addr;  // empty: matches no broker address
};

struct LineError {
  std::string message;  // "<path>: <what was expected>", or "<what was expected>" for the line
};

using ParsedLine = std::variant<RequestLine, EventLine, LineError>;

// Parses `text`; at_ms defaults to `previous_at_ms` and must not be below it, and version to the
// profile's newest release.
ParsedLine parse_replay_line(std::string_view text, core::Profile profile,
                             std::int64_t previous_at_ms);

}  // namespace nssim::codec::detail

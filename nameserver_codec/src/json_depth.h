// File: a nesting-depth guard for JSON text, run before parsing. nlohmann's parser is iterative,
// but copying or destroying a parsed value recurses once per level, so a replay line or body
// nested 100,000 deep overflowed the stack; text deeper than the limit is refused before it is
// parsed. Private to the codec.
#pragma once

#include <string_view>

namespace nssim::codec::detail {

// The deepest nesting of arrays and objects a replay line, or a body given as JSON text, may have.
// Upstream's bodies nest at most 5 deep (RegisterBrokerBody: topicConfigTable, topic, fields);
// the replay line adds one level.
inline constexpr int kMaxJsonDepth = 64;

// True when `text`, read as JSON, opens more than `max_depth` arrays and objects at once.
// Brackets inside strings (with their escapes) do not count; malformed text is left to the parser.
bool json_nesting_exceeds(std::string_view text, int max_depth);

}  // namespace nssim::codec::detail

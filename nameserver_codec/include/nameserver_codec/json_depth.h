// File: a nesting-depth guard for JSON text, run before parsing. nlohmann's parser is iterative,
// but copying, dumping or destroying a parsed value recurses once per level, so a replay line,
// a body or a shard file nested 100,000 deep overflowed the stack; text deeper than the limit is
// refused before it is parsed.
#pragma once

#include <string_view>

namespace nssim::codec {

// The deepest nesting of arrays and objects a replay line, a body given as JSON text, or a sweep
// shard file may have. Upstream's bodies nest at most 5 deep (RegisterBrokerBody:
// topicConfigTable, topic, fields); the replay line adds one level; a shard file nests 5 deep.
inline constexpr int kMaxJsonDepth = 64;

// True when `text`, read as JSON, opens more than `max_depth` arrays and objects at once.
// Brackets inside strings (with their escapes) do not count; malformed text is left to the parser.
bool json_nesting_exceeds(std::string_view text, int max_depth);

}  // namespace nssim::codec

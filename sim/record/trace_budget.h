// File: how big trace.jsonl would get, estimated from the scenario before the world starts, and
// the byte counts `--trace-limit` takes, so that a traced run that would fill the disk is refused
// before it costs anything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "sim/scenario/scenario.h"

namespace nssim::sim {

inline constexpr std::uint64_t kDefaultTraceLimitBytes = std::uint64_t{1} << 30;  // 1 GiB

// The estimate, in bytes (rounded up): per producer set, count x rate_per_s x the seconds from
// its earliest start to the end x one attempt line per send (a send that succeeds at once), each
// line as long as a real one with the set's own names (the highest producer index, each topic in
// turn with the longest name of its broker groups, times as long as the duration); plus one
// route_update line per topic per pollNameServerInterval from 10 ms after that start (no broker
// gained or lost, the longest NameServer name). Retries, failed polls and publish-info changes
// come on top.
std::uint64_t estimate_trace_bytes(const Scenario& scenario);

// A byte count as --trace-limit takes it: a whole number of bytes, or one followed by K, M, G or
// T (either case; powers of 1024: 500M = 524288000). At least 1. nullopt for anything else,
// fractions and values beyond 2^64 - 1 included.
std::optional<std::uint64_t> parse_byte_count(const std::string& text);

// A byte count for people: "1.0 GiB", "512.0 MiB", "900 bytes", "1 byte".
std::string byte_count_text(std::uint64_t bytes);

// The smallest --trace-limit value in whole units of the largest unit that is at most `bytes`
// which lets `bytes` through: "10G" for 9.1 GiB, "600M" for 599.5 MiB, "900" for 900 bytes.
std::string limit_to_allow(std::uint64_t bytes);

}  // namespace nssim::sim

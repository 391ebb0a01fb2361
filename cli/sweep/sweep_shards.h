// File: shard files, the unit a sweep is cut into past one machine. Each holds the plan it
// belongs to, which runs it covers and their records; `nssim sweep merge` puts shards back
// together and refuses any that belong to another plan, scenario file or nssim version.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/shard_files.h"
#include "cli/sweep/sweep_plan.h"

namespace nssim::cli {

inline constexpr const char* kShardSchema = "nssim.sweep-shard/1";

// What identifies the plan a shard belongs to: the plan document, the scenario file's hash and
// the record layout. Two shards merge only when these are equal.
nlohmann::json shard_identity(const LoadedSweep& sweep);

std::string shard_file_content(const LoadedSweep& sweep, const ShardRange& range,
                               const std::vector<reports::SeedRecord>& records);

struct ShardFile : ShardHeader {
  reports::SweepPlan plan;  // identity's plan, read and checked
  std::vector<reports::SeedRecord> records;
};

// Reads one shard file, every field checked (types, ranges, runs against the plan it carries,
// nesting depth); a malformed one is a Refusal naming the file and the field.
ShardFile read_shard_file(const std::string& path);
// The same on the file's text (`path` only names it), for the fuzz target.
ShardFile parse_shard_file(const std::string& path, const std::string& text);

struct MergedSweep {
  reports::SweepPlan plan;
  std::vector<reports::SeedRecord> records;  // every run of the plan, in run order
};

// Checks that the shards belong to one plan, are all there once, and cover every run; then
// orders their records. Every problem is a Refusal naming the shard.
MergedSweep merge_shards(std::vector<ShardFile> shards);

}  // namespace nssim::cli

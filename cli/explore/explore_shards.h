// File: `nssim explore --shard I/K` and `nssim explore merge DIR...`: an explore's drawn runs cut
// into shards (cli/shard_files.h) that machines run apart. A shard file holds the explore it
// belongs to and each of its runs' seed and verdict; the merge checks them, and the explore's
// schedules are drawn again from the scenario (drawing is deterministic), so only the verdicts
// travel. Shrinking happens at the merge, as it would after an unsharded explore's runs.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/explore/explore_candidates.h"
#include "cli/shard_files.h"

namespace nssim::cli {

inline constexpr const char* kExploreShardSchema = "nssim.explore-shard/1";

// What an explore's shards must agree on: the scenario file (its path and the hash of its bytes),
// the --profile given (empty: the file's), the explore's runs and shrink budget, nssim's version.
struct ExploreIdentity {
  std::string scenario;
  std::string profile;
  std::uint64_t scenario_fnv1a64 = 0;
  std::size_t runs = 0;
  std::size_t shrink_runs = 0;
  std::string nssim_version;
};

nlohmann::json explore_identity_json(const ExploreIdentity& identity);

// One run of a shard: its seed and what it broke.
struct ExploreRunVerdict {
  std::uint64_t seed = 0;
  CandidateVerdict verdict;
};

std::string explore_shard_content(const ExploreIdentity& identity, const ShardRange& range,
                                  const std::vector<ExploreRunVerdict>& runs);

struct ExploreShard : ShardHeader {
  ExploreIdentity explore;
  std::vector<ExploreRunVerdict> runs;
};

// Reads one shard file, every field checked; a malformed one is a Refusal naming the file and the
// field. `max_runs` bounds the explore's runs.
ExploreShard read_explore_shard(const std::string& path, std::size_t max_runs);

struct MergedExplore {
  ExploreIdentity explore;
  std::vector<ExploreRunVerdict> runs;  // every run of the explore, in run order
  std::vector<std::string> sources;     // per run, "<shard file>: records[<i>]", for refusals
};

// Checks that the shards belong to one explore, are all there once and cover every run; then
// orders their runs.
MergedExplore merge_explore_shards(const std::vector<ExploreShard>& shards);

}  // namespace nssim::cli

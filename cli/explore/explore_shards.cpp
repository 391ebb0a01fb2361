// File: explore's shard files (see explore_shards.h).
#include "cli/explore/explore_shards.h"

#include "cli/refusal.h"

namespace nssim::cli {

namespace {

using nlohmann::json;

// identity.explore, as explore_identity_json wrote it; every field checked.
ExploreIdentity read_identity(const ShardReader& reader, const json& identity,
                              std::size_t max_runs) {
  if (!identity.is_object()) {
    reader.fail("identity", "expected an object, got " + ShardReader::got(identity));
  }
  reader.check_fields(identity, "identity.",
                      {"scenario", "profile", "scenario_fnv1a64", "runs", "shrink_runs", "nssim"});
  ExploreIdentity read;
  const auto text = [&](const char* name) -> std::string {
    const json& value = reader.member(identity, "identity.", name);
    if (!value.is_string()) {
      reader.fail(std::string("identity.") + name,
                  "expected a text, got " + ShardReader::got(value));
    }
    return value.get<std::string>();
  };
  const auto count = [&](const char* name, std::size_t min, std::size_t max) -> std::size_t {
    const json& value = reader.member(identity, "identity.", name);
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() < min ||
        value.get<std::uint64_t>() > max) {
      reader.fail(std::string("identity.") + name,
                  "expected a whole number in " + std::to_string(min) + ".." + std::to_string(max) +
                      ", got " + value.dump());
    }
    return static_cast<std::size_t>(value.get<std::uint64_t>());
  };
  read.scenario = text("scenario");
  read.profile = text("profile");
  read.nssim_version = text("nssim");
  read.scenario_fnv1a64 =
      std::stoull(reader.hex64(identity, "identity.", "scenario_fnv1a64"), nullptr, 16);
  read.runs = count("runs", 1, max_runs);
  read.shrink_runs = count("shrink_runs", 0, max_runs);
  return read;
}

// One record: the seed and the answer judge_candidate wrote (candidate_verdict_json).
ExploreRunVerdict read_run(const ShardReader& reader, const json& record, std::size_t index) {
  const std::string field = "records[" + std::to_string(index) + "]";
  if (!record.is_object())
    reader.fail(field, "expected an object, got " + ShardReader::got(record));
  const json& seed = reader.member(record, field + ".", "seed");
  if (!seed.is_number_unsigned()) {
    reader.fail(field + ".seed", "expected a whole number, got " + ShardReader::got(seed));
  }
  json answer = record;
  answer.erase("seed");
  std::string problem;
  auto verdict = parse_candidate_verdict(answer.dump(), problem);
  if (!verdict) reader.fail(field, problem);
  return {seed.get<std::uint64_t>(), std::move(*verdict)};
}

}  // namespace

json explore_identity_json(const ExploreIdentity& identity) {
  return {{"scenario", identity.scenario},
          {"profile", identity.profile},
          {"scenario_fnv1a64", hex64(identity.scenario_fnv1a64)},
          {"runs", identity.runs},
          {"shrink_runs", identity.shrink_runs},
          {"nssim", identity.nssim_version}};
}

std::string explore_shard_content(const ExploreIdentity& identity, const ShardRange& range,
                                  const std::vector<ExploreRunVerdict>& runs) {
  std::vector<std::string> lines;
  for (const auto& run : runs) {
    json record = candidate_verdict_json(run.verdict);
    record["seed"] = run.seed;
    lines.push_back(record.dump());
  }
  return shard_file_text(kExploreShardSchema, explore_identity_json(identity), range, lines);
}

ExploreShard read_explore_shard(const std::string& path, std::size_t max_runs) {
  ExploreShard shard;
  ShardEnvelope envelope =
      read_shard_envelope(path, read_shard_text(path), kExploreShardSchema,
                          [&](const ShardReader& reader, const json& identity) {
                            shard.explore = read_identity(reader, identity, max_runs);
                            return shard.explore.runs;
                          });
  static_cast<ShardHeader&>(shard) = std::move(envelope.header);
  const ShardReader reader(path, envelope.records);
  for (std::size_t i = 0; i < envelope.records.size(); ++i) {
    shard.runs.push_back(read_run(reader, envelope.records[i], i));
  }
  return shard;
}

MergedExplore merge_explore_shards(const std::vector<ExploreShard>& shards) {
  std::vector<const ShardHeader*> headers;
  for (const auto& shard : shards) headers.push_back(&shard);
  const std::size_t runs = shards.empty() ? 0 : shards.front().explore.runs;
  const auto order = order_shards(headers, runs, "explore",
                                  "scenario file, profile, runs, shrink runs or nssim version");
  MergedExplore merged{shards.front().explore, {}, {}};
  for (const std::size_t position : order) {
    const auto& shard = shards[position];
    merged.runs.insert(merged.runs.end(), shard.runs.begin(), shard.runs.end());
    for (std::size_t i = 0; i < shard.runs.size(); ++i) {
      merged.sources.push_back(shard.path + ": records[" + std::to_string(i) + "]");
    }
  }
  return merged;
}

}  // namespace nssim::cli

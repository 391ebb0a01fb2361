// File: shard files (see sweep_shards.h).
#include "cli/sweep/sweep_shards.h"

#include <cstdio>
#include <utility>

namespace nssim::cli {

namespace {

using nlohmann::json;

// identity: the plan (checked as plan_from_json reads it, and for its size), the record layout
// and the scenario file's hash, as shard_identity wrote them.
reports::SweepPlan read_identity(const ShardReader& reader, const json& identity) {
  if (!identity.is_object())
    reader.fail("identity", "expected an object, got " + reader.got(identity));
  reader.check_fields(identity, "identity.", {"plan", "record_schema", "scenario_fnv1a64"});
  const json& schema = reader.member(identity, "identity.", "record_schema");
  if (schema != reports::kSeedRecordSchema) {
    reader.fail("identity.record_schema",
                std::string("expected ") + reports::kSeedRecordSchema + ", got " +
                    (schema.is_string() ? "another layout" : reader.got(schema)));
  }
  reader.hex64(identity, "identity.", "scenario_fnv1a64");
  auto plan = reports::plan_from_json(reader.member(identity, "identity.", "plan"));
  if (!plan || !plan->scenario.is_object()) {
    reader.fail("identity.plan", "expected the plan nssim sweep writes (points, seeds, scenario)");
  }
  if (!plan_fits(*plan)) {
    reader.fail("identity.plan", "expected 1.." + std::to_string(kMaxSweepRuns) +
                                     " runs, got seeds " + std::to_string(plan->first_seed) + ".." +
                                     std::to_string(plan->last_seed) + " x " +
                                     std::to_string(plan->points.size()) + " point(s)");
  }
  return std::move(*plan);
}

}  // namespace

json shard_identity(const LoadedSweep& sweep) {
  return {{"plan", reports::plan_json(sweep.plan)},
          {"record_schema", reports::kSeedRecordSchema},
          {"scenario_fnv1a64", hex64(sweep.scenario_fnv1a64)}};
}

std::string shard_file_content(const LoadedSweep& sweep, const ShardRange& range,
                               const std::vector<reports::SeedRecord>& records) {
  std::vector<std::string> lines;
  for (const auto& record : records) lines.push_back(reports::seed_record_line(record, true));
  return shard_file_text(kShardSchema, shard_identity(sweep), range, lines);
}

ShardFile parse_shard_file(const std::string& path, const std::string& text) {
  ShardFile shard;
  ShardEnvelope envelope =
      read_shard_envelope(path, text, kShardSchema, [&](const ShardReader& reader, const json& id) {
        shard.plan = read_identity(reader, id);
        return shard.plan.run_count();
      });
  static_cast<ShardHeader&>(shard) = std::move(envelope.header);
  for (std::size_t i = 0; i < envelope.records.size(); ++i) {
    std::string error;
    auto record = reports::parse_seed_record_line(envelope.records[i].dump(), error);
    if (!record) throw Refusal{path + ": records[" + std::to_string(i) + "]: " + error};
    shard.records.push_back(std::move(*record));
  }
  return shard;
}

ShardFile read_shard_file(const std::string& path) {
  return parse_shard_file(path, read_shard_text(path));
}

MergedSweep merge_shards(std::vector<ShardFile> shards) {
  std::vector<const ShardHeader*> headers;
  for (const auto& shard : shards) headers.push_back(&shard);
  const std::size_t runs = shards.empty() ? 0 : shards.front().plan.run_count();
  const auto order =
      order_shards(headers, runs, "sweep", "scenario file, settings, seeds or nssim version");
  // Every shard's range was checked against its plan as it was read, and the plans are equal.
  MergedSweep merged{shards.front().plan, {}};
  for (const std::size_t position : order) {
    const ShardFile* shard = &shards[position];
    for (std::size_t i = 0; i < shard->records.size(); ++i) {
      const std::size_t run = shard->range.first_run + i;
      const auto& record = shard->records[i];
      if (record.point != point_of_run(merged.plan, run) ||
          record.seed != seed_of_run(merged.plan, run)) {
        throw Refusal{shard->path + ": records[" + std::to_string(i) +
                      "] is not the run of point " +
                      std::to_string(point_of_run(merged.plan, run)) + ", seed " +
                      std::to_string(seed_of_run(merged.plan, run))};
      }
      merged.records.push_back(record);
    }
  }
  return merged;
}

}  // namespace nssim::cli

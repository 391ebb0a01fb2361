// File: shard files (see sweep_shards.h).
#include "sweep_shards.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

std::string range_text(const ShardRange& range) {
  return "shard " + std::to_string(range.shard) + "/" + std::to_string(range.shards);
}

}  // namespace

std::string shard_file_name(std::size_t shard, std::size_t shards) {
  return "shard-" + std::to_string(shard) + "-of-" + std::to_string(shards) + ".json";
}

std::string shard_path(const std::string& out_dir, std::size_t shard, std::size_t shards) {
  return (fs::path(out_dir) / "shards" / shard_file_name(shard, shards)).string();
}

json shard_identity(const LoadedSweep& sweep) {
  return {{"plan", reports::plan_json(sweep.plan)},
          {"record_schema", reports::kSeedRecordSchema},
          {"scenario_fnv1a64", hex64(sweep.scenario_fnv1a64)}};
}

std::string shard_file_content(const LoadedSweep& sweep, const ShardRange& range,
                               const std::vector<reports::SeedRecord>& records) {
  std::string text = "{\"schema\":\"" + std::string(kShardSchema) +
                     "\",\"identity\":" + shard_identity(sweep).dump() +
                     ",\"shard\":" + std::to_string(range.shard) +
                     ",\"shards\":" + std::to_string(range.shards) +
                     ",\"first_run\":" + std::to_string(range.first_run) +
                     ",\"end_run\":" + std::to_string(range.end_run) + ",\"records\":[";
  for (std::size_t i = 0; i < records.size(); ++i) {
    text += (i == 0 ? "\n" : ",\n") + reports::seed_record_line(records[i], true);
  }
  return text + "\n]}\n";
}

ShardFile read_shard_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw SweepInputError{path + ": cannot be read"};
  std::ostringstream text;
  text << in.rdbuf();
  const json document = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  const auto bad = [&path](const std::string& what) { return SweepInputError{path + ": " + what}; };
  if (!document.is_object() || document.value("schema", "") != kShardSchema) {
    throw bad(std::string("not a shard file (expected schema ") + kShardSchema + ")");
  }
  ShardFile shard;
  shard.path = path;
  try {
    shard.identity = document.at("identity");
    shard.range = {
        document.at("shard").get<std::size_t>(), document.at("shards").get<std::size_t>(),
        document.at("first_run").get<std::size_t>(), document.at("end_run").get<std::size_t>()};
    for (const auto& line : document.at("records")) {
      std::string error;
      auto record = reports::parse_seed_record_line(line.dump(), error);
      if (!record) throw bad("records: " + error);
      shard.records.push_back(std::move(*record));
    }
  } catch (const json::exception& error) {
    throw bad(std::string("malformed shard file: ") + error.what());
  }
  if (shard.records.size() != shard.range.end_run - shard.range.first_run) {
    throw bad("holds " + std::to_string(shard.records.size()) + " records for runs " +
              std::to_string(shard.range.first_run) + ".." + std::to_string(shard.range.end_run));
  }
  return shard;
}

std::vector<std::string> shard_files_in(const std::string& dir) {
  std::vector<std::string> paths;
  for (const fs::path& folder : {fs::path(dir) / "shards", fs::path(dir)}) {
    std::error_code error;
    if (!fs::is_directory(folder, error)) continue;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
      const std::string name = entry.path().filename().string();
      if (name.rfind("shard-", 0) == 0 && entry.path().extension() == ".json") {
        paths.push_back(entry.path().string());
      }
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

MergedSweep merge_shards(std::vector<ShardFile> shards) {
  if (shards.empty()) throw SweepInputError{"no shard files found (looked in DIR/shards)"};
  const ShardFile& first = shards.front();
  std::map<std::size_t, const ShardFile*> by_index;
  for (const auto& shard : shards) {
    if (shard.identity != first.identity) {
      throw SweepInputError{shard.path + ": belongs to another sweep than " + first.path +
                            " (scenario file, settings, seeds or nssim version differ)"};
    }
    if (shard.range.shards != first.range.shards) {
      throw SweepInputError{shard.path + ": is one of " + std::to_string(shard.range.shards) +
                            " shards, " + first.path + " one of " +
                            std::to_string(first.range.shards)};
    }
    if (!by_index.emplace(shard.range.shard, &shard).second) {
      throw SweepInputError{shard.path + ": " + range_text(shard.range) + " is given twice (also " +
                            by_index[shard.range.shard]->path + ")"};
    }
  }
  auto plan = reports::plan_from_json(first.identity.value("plan", json()));
  if (!plan) throw SweepInputError{first.path + ": the plan it carries is malformed"};
  const std::size_t count = first.range.shards;
  std::string missing;
  for (std::size_t i = 1; i <= count; ++i) {
    if (by_index.count(i) != 0) continue;
    const ShardRange range = shard_range(i, count, plan->run_count());
    missing += (missing.empty() ? "" : ", ") + std::to_string(i) + " (runs " +
               std::to_string(range.first_run) + ".." + std::to_string(range.end_run) + ")";
  }
  if (!missing.empty()) {
    throw SweepInputError{"missing shards of " + std::to_string(count) + ": " + missing};
  }
  MergedSweep merged{std::move(*plan), {}};
  for (const auto& [index, shard] : by_index) {
    const ShardRange expected = shard_range(index, count, merged.plan.run_count());
    if (shard->range.first_run != expected.first_run || shard->range.end_run != expected.end_run) {
      throw SweepInputError{shard->path + ": covers runs that " + range_text(expected) +
                            " does not"};
    }
    for (std::size_t i = 0; i < shard->records.size(); ++i) {
      const std::size_t run = expected.first_run + i;
      const auto& record = shard->records[i];
      if (record.point != point_of_run(merged.plan, run) ||
          record.seed != seed_of_run(merged.plan, run)) {
        throw SweepInputError{shard->path + ": records[" + std::to_string(i) +
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

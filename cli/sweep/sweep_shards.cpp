// File: shard files (see sweep_shards.h).
#include "cli/sweep/sweep_shards.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "nameserver_codec/json_depth.h"

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

// Missing shards a refusal lists by number before it only counts the rest.
constexpr std::size_t kMissingShardsNamed = 10;

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

namespace {

// Reads a shard file's fields, each checked before use: shard files come from other machines
// and CI artifacts, so a number is never taken without its range (-1 read as a size wraps to
// 2^64-1) and every refusal names the file and the field.
class ShardReader {
 public:
  ShardReader(const std::string& path, const json& document) : path_(path), document_(document) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const {
    throw Refusal{path_ + ": " + field + ": " + what};
  }

  const json& member(const json& object, const std::string& parent, const char* name) const {
    const auto found = object.find(name);
    if (found == object.end()) fail(parent + name, "missing");
    return *found;
  }

  // A whole number in min..max.
  std::uint64_t number(const char* name, std::uint64_t min, std::uint64_t max) const {
    const json& value = member(document_, "", name);
    const std::string expected =
        "expected a whole number in " + std::to_string(min) + ".." + std::to_string(max);
    if (!value.is_number_integer()) {
      fail(name, expected + ", got " + got(value));
    }
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() < min ||
        value.get<std::uint64_t>() > max) {
      fail(name, expected + ", got " + value.dump());
    }
    return value.get<std::uint64_t>();
  }

  // What a value of the wrong type is: a number as written, else its JSON type.
  static std::string got(const json& value) {
    if (value.is_number()) return value.dump();
    const std::string type = value.type_name();
    return (value.is_object() || value.is_array() ? "an " : "a ") + type;
  }

 private:
  const std::string& path_;
  const json& document_;
};

void check_fields(const ShardReader& reader, const json& object, const std::string& parent,
                  const std::vector<std::string>& names) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      reader.fail(parent + key, "unknown field");
    }
  }
}

// identity: the plan (checked as plan_from_json reads it, and for its size), the record layout
// and the scenario file's hash, as shard_identity wrote them.
reports::SweepPlan read_identity(const ShardReader& reader, const json& identity) {
  if (!identity.is_object())
    reader.fail("identity", "expected an object, got " + reader.got(identity));
  check_fields(reader, identity, "identity.", {"plan", "record_schema", "scenario_fnv1a64"});
  const json& schema = reader.member(identity, "identity.", "record_schema");
  if (schema != reports::kSeedRecordSchema) {
    reader.fail("identity.record_schema",
                std::string("expected ") + reports::kSeedRecordSchema + ", got " +
                    (schema.is_string() ? "another layout" : reader.got(schema)));
  }
  const json& hash = reader.member(identity, "identity.", "scenario_fnv1a64");
  if (!hash.is_string() || hash.get_ref<const std::string&>().size() != 16 ||
      hash.get_ref<const std::string&>().find_first_not_of("0123456789abcdef") !=
          std::string::npos) {
    reader.fail("identity.scenario_fnv1a64", "expected 16 lowercase hex digits");
  }
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

ShardFile parse_shard_file(const std::string& path, const std::string& text) {
  const auto bad = [&path](const std::string& what) { return Refusal{path + ": " + what}; };
  // Checked before parsing: dumping or copying a value recurses once per level.
  if (codec::json_nesting_exceeds(text, codec::kMaxJsonDepth)) {
    throw bad("expected JSON nested at most " + std::to_string(codec::kMaxJsonDepth) +
              " levels deep");
  }
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object() || document.find("schema") == document.end() ||
      document["schema"] != kShardSchema) {
    throw bad(std::string("not a shard file (expected schema ") + kShardSchema + ")");
  }
  const ShardReader reader(path, document);
  check_fields(reader, document, "",
               {"schema", "identity", "shard", "shards", "first_run", "end_run", "records"});
  ShardFile shard;
  shard.path = path;
  shard.identity = reader.member(document, "", "identity");
  shard.plan = read_identity(reader, shard.identity);
  const auto shards = reader.number("shards", 1, kMaxShards);
  const auto index = reader.number("shard", 1, shards);
  const std::size_t runs = shard.plan.run_count();
  shard.range = shard_range(index, shards, runs);
  const std::string of = " (" + range_text(shard.range) + " of " + std::to_string(runs) + " runs)";
  for (const auto& [name, expected] :
       {std::pair{"first_run", shard.range.first_run}, std::pair{"end_run", shard.range.end_run}}) {
    const auto given = reader.number(name, 0, runs);
    if (given != expected) {
      reader.fail(name,
                  "expected " + std::to_string(expected) + of + ", got " + std::to_string(given));
    }
  }
  const json& records = reader.member(document, "", "records");
  const std::size_t count = shard.range.end_run - shard.range.first_run;
  if (!records.is_array() || records.size() != count) {
    reader.fail("records", "expected an array of " + std::to_string(count) + " records" + of +
                               ", got " +
                               (records.is_array() ? std::to_string(records.size()) + " records"
                                                   : reader.got(records)));
  }
  for (std::size_t i = 0; i < count; ++i) {
    std::string error;
    auto record = reports::parse_seed_record_line(records[i].dump(), error);
    if (!record) reader.fail("records[" + std::to_string(i) + "]", error);
    shard.records.push_back(std::move(*record));
  }
  return shard;
}

ShardFile read_shard_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw Refusal{path + ": cannot be read"};
  std::ostringstream text;
  text << in.rdbuf();
  return parse_shard_file(path, text.str());
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
  if (shards.empty()) throw Refusal{"no shard files found (looked in DIR/shards)"};
  const ShardFile& first = shards.front();
  std::map<std::size_t, const ShardFile*> by_index;
  for (const auto& shard : shards) {
    if (shard.identity != first.identity) {
      throw Refusal{shard.path + ": belongs to another sweep than " + first.path +
                    " (scenario file, settings, seeds or nssim version differ)"};
    }
    if (shard.range.shards != first.range.shards) {
      throw Refusal{shard.path + ": is one of " + std::to_string(shard.range.shards) + " shards, " +
                    first.path + " one of " + std::to_string(first.range.shards)};
    }
    if (!by_index.emplace(shard.range.shard, &shard).second) {
      throw Refusal{shard.path + ": " + range_text(shard.range) + " is given twice (also " +
                    by_index[shard.range.shard]->path + ")"};
    }
  }
  const std::size_t count = first.range.shards;
  const std::size_t runs = first.plan.run_count();
  // A few missing shards are named with their runs; of a million, the first few and how many.
  std::string missing;
  std::size_t missing_count = 0;
  for (std::size_t i = 1; i <= count; ++i) {
    if (by_index.count(i) != 0 || ++missing_count > kMissingShardsNamed) continue;
    const ShardRange range = shard_range(i, count, runs);
    missing += (missing.empty() ? "" : ", ") + std::to_string(i) + " (runs " +
               std::to_string(range.first_run) + ".." + std::to_string(range.end_run) + ")";
  }
  if (missing_count > kMissingShardsNamed) {
    missing += " and " + std::to_string(missing_count - kMissingShardsNamed) + " more";
  }
  if (!missing.empty()) {
    throw Refusal{"missing shards of " + std::to_string(count) + ": " + missing};
  }
  // Every shard's range was checked against its plan as it was read, and the plans are equal.
  MergedSweep merged{first.plan, {}};
  for (const auto& [index, shard] : by_index) {
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

// File: shards and their files (see shard_files.h).
#include "cli/shard_files.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "cli/refusal.h"
#include "nameserver_codec/json_depth.h"

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// Missing shards a refusal lists by number before it only counts the rest.
constexpr std::size_t kMissingShardsNamed = 10;

}  // namespace

std::string shard_text(const ShardRange& range) {
  return "shard " + std::to_string(range.shard) + "/" + std::to_string(range.shards);
}

std::string shard_file_name(std::size_t shard, std::size_t shards) {
  return "shard-" + std::to_string(shard) + "-of-" + std::to_string(shards) + ".json";
}

std::string shard_path(const std::string& out_dir, std::size_t shard, std::size_t shards) {
  return (fs::path(out_dir) / "shards" / shard_file_name(shard, shards)).string();
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

std::string shard_file_text(const std::string& schema, const json& identity,
                            const ShardRange& range, const std::vector<std::string>& record_lines) {
  std::string text = "{\"schema\":\"" + schema + "\",\"identity\":" + identity.dump() +
                     ",\"shard\":" + std::to_string(range.shard) +
                     ",\"shards\":" + std::to_string(range.shards) +
                     ",\"first_run\":" + std::to_string(range.first_run) +
                     ",\"end_run\":" + std::to_string(range.end_run) + ",\"records\":[";
  for (std::size_t i = 0; i < record_lines.size(); ++i) {
    text += (i == 0 ? "\n" : ",\n") + record_lines[i];
  }
  return text + "\n]}\n";
}

std::uint64_t fnv1a64_of_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  char c = 0;
  while (in.get(c)) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 0x100000001b3ULL;
  }
  return hash;
}

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

void ShardReader::fail(const std::string& field, const std::string& what) const {
  throw Refusal{path_ + ": " + field + ": " + what};
}

const json& ShardReader::member(const json& object, const std::string& parent,
                                const char* name) const {
  const auto found = object.find(name);
  if (found == object.end()) fail(parent + name, "missing");
  return *found;
}

std::uint64_t ShardReader::number(const char* name, std::uint64_t min, std::uint64_t max) const {
  const json& value = member(document_, "", name);
  const std::string expected =
      "expected a whole number in " + std::to_string(min) + ".." + std::to_string(max);
  if (!value.is_number_integer()) fail(name, expected + ", got " + got(value));
  if (!value.is_number_unsigned() || value.get<std::uint64_t>() < min ||
      value.get<std::uint64_t>() > max) {
    fail(name, expected + ", got " + value.dump());
  }
  return value.get<std::uint64_t>();
}

const std::string& ShardReader::hex64(const json& object, const std::string& parent,
                                      const char* name) const {
  const json& value = member(object, parent, name);
  if (!value.is_string() || value.get_ref<const std::string&>().size() != 16 ||
      value.get_ref<const std::string&>().find_first_not_of("0123456789abcdef") !=
          std::string::npos) {
    fail(parent + name, "expected 16 lowercase hex digits");
  }
  return value.get_ref<const std::string&>();
}

void ShardReader::check_fields(const json& object, const std::string& parent,
                               const std::vector<std::string>& names) const {
  for (const auto& [key, value] : object.items()) {
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      fail(parent + key, "unknown field");
    }
  }
}

std::string ShardReader::got(const json& value) {
  if (value.is_number()) return value.dump();
  const std::string type = value.type_name();
  return (value.is_object() || value.is_array() ? "an " : "a ") + type;
}

std::string read_shard_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in.is_open()) throw Refusal{path + ": cannot be read"};
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

ShardEnvelope read_shard_envelope(
    const std::string& path, const std::string& text, const std::string& schema,
    const std::function<std::size_t(const ShardReader&, const json&)>& runs_of) {
  const auto bad = [&path](const std::string& what) { return Refusal{path + ": " + what}; };
  // Checked before parsing: dumping or copying a value recurses once per level.
  if (codec::json_nesting_exceeds(text, codec::kMaxJsonDepth)) {
    throw bad("expected JSON nested at most " + std::to_string(codec::kMaxJsonDepth) +
              " levels deep");
  }
  const json document = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!document.is_object() || document.find("schema") == document.end() ||
      document["schema"] != schema) {
    throw bad("not a shard file (expected schema " + schema + ")");
  }
  const ShardReader reader(path, document);
  reader.check_fields(document, "",
                      {"schema", "identity", "shard", "shards", "first_run", "end_run", "records"});
  ShardEnvelope envelope;
  envelope.header.path = path;
  envelope.header.identity = reader.member(document, "", "identity");
  const std::size_t runs = runs_of(reader, envelope.header.identity);
  const auto shards = reader.number("shards", 1, kMaxShards);
  const auto index = reader.number("shard", 1, shards);
  const ShardRange range = shard_range(index, shards, runs);
  envelope.header.range = range;
  const std::string of = " (" + shard_text(range) + " of " + std::to_string(runs) + " runs)";
  for (const auto& [name, expected] :
       {std::pair{"first_run", range.first_run}, std::pair{"end_run", range.end_run}}) {
    const auto given = reader.number(name, 0, runs);
    if (given != expected) {
      reader.fail(name,
                  "expected " + std::to_string(expected) + of + ", got " + std::to_string(given));
    }
  }
  envelope.records = reader.member(document, "", "records");
  const std::size_t count = range.end_run - range.first_run;
  if (!envelope.records.is_array() || envelope.records.size() != count) {
    reader.fail(
        "records",
        "expected an array of " + std::to_string(count) + " records" + of + ", got " +
            (envelope.records.is_array() ? std::to_string(envelope.records.size()) + " records"
                                         : ShardReader::got(envelope.records)));
  }
  return envelope;
}

std::vector<std::size_t> order_shards(const std::vector<const ShardHeader*>& shards,
                                      std::size_t runs, const std::string& what,
                                      const std::string& what_differs) {
  if (shards.empty()) throw Refusal{"no shard files found (looked in DIR/shards)"};
  const ShardHeader& first = *shards.front();
  std::map<std::size_t, std::size_t> by_index;
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const ShardHeader& shard = *shards[i];
    if (shard.identity != first.identity) {
      throw Refusal{shard.path + ": belongs to another " + what + " than " + first.path + " (" +
                    what_differs + " differ)"};
    }
    if (shard.range.shards != first.range.shards) {
      throw Refusal{shard.path + ": is one of " + std::to_string(shard.range.shards) + " shards, " +
                    first.path + " one of " + std::to_string(first.range.shards)};
    }
    if (!by_index.emplace(shard.range.shard, i).second) {
      throw Refusal{shard.path + ": " + shard_text(shard.range) + " is given twice (also " +
                    shards[by_index[shard.range.shard]]->path + ")"};
    }
  }
  const std::size_t count = first.range.shards;
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
  std::vector<std::size_t> order;
  for (const auto& [index, position] : by_index) order.push_back(position);
  return order;
}

}  // namespace nssim::cli

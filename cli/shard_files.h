// File: shards, what a long batch of runs is cut into past one machine, whatever the runs are
// (`nssim sweep`'s seeds, `nssim explore`'s drawn schedules): the --shard I/K flag, which runs
// shard I covers, the shard files' names and envelope, and the checks a merge makes before it
// orders their records. Each command brings its own identity (what the runs belong to: two shards
// merge only when theirs are equal) and its own records.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nssim::cli {

// Shards one batch may be cut into (--shard I/K's K).
inline constexpr std::uint64_t kMaxShards = 1000000;

struct ShardRange {
  std::size_t shard = 1;  // 1..shards
  std::size_t shards = 1;
  std::size_t first_run = 0;  // runs [first_run, end_run) of the batch
  std::size_t end_run = 0;
};

// Shard `shard` (1..shards) of `shards` over `runs` runs: contiguous, sizes differing by at most
// one. runs <= 10^7 (the commands' run limits) and shards <= kMaxShards keep runs * shard from
// overflowing.
inline ShardRange shard_range(std::size_t shard, std::size_t shards, std::size_t runs) {
  return {shard, shards, runs * (shard - 1) / shards, runs * shard / shards};
}

// "shard 3/8", as refusals name a shard.
std::string shard_text(const ShardRange& range);

// "shard-3-of-8.json", inside the output folder's "shards" folder.
std::string shard_file_name(std::size_t shard, std::size_t shards);
std::string shard_path(const std::string& out_dir, std::size_t shard, std::size_t shards);

// The shard files (shard-*.json) in DIR/shards and in DIR itself (as a CI job downloads its
// artifacts), sorted by path.
std::vector<std::string> shard_files_in(const std::string& dir);

// A shard file's text: {"schema", "identity", "shard", "shards", "first_run", "end_run",
// "records": [one line each]}.
std::string shard_file_text(const std::string& schema, const nlohmann::json& identity,
                            const ShardRange& range, const std::vector<std::string>& record_lines);

// The FNV-1a 64-bit hash of the file's bytes, and a hash as 16 lowercase hex digits: what a
// shard's identity holds of its scenario file.
std::uint64_t fnv1a64_of_file(const std::string& path);
std::string hex64(std::uint64_t value);

// Reads a shard file's fields, each checked before use: shard files come from other machines
// and CI artifacts, so a number is never taken without its range (-1 read as a size wraps to
// 2^64-1) and every refusal names the file and the field.
class ShardReader {
 public:
  ShardReader(const std::string& path, const nlohmann::json& document)
      : path_(path), document_(document) {}

  [[noreturn]] void fail(const std::string& field, const std::string& what) const;
  const nlohmann::json& member(const nlohmann::json& object, const std::string& parent,
                               const char* name) const;
  // A whole number in min..max.
  std::uint64_t number(const char* name, std::uint64_t min, std::uint64_t max) const;
  // A member holding 16 lowercase hex digits (a hex64).
  const std::string& hex64(const nlohmann::json& object, const std::string& parent,
                           const char* name) const;
  // Refuses any member of `object` not in `names` (`parent` prefixes the field in the message).
  void check_fields(const nlohmann::json& object, const std::string& parent,
                    const std::vector<std::string>& names) const;
  // What a value of the wrong type is: a number as written, else its JSON type.
  static std::string got(const nlohmann::json& value);

 private:
  const std::string& path_;
  const nlohmann::json& document_;
};

// What every shard file says of itself: which batch (identity) and which of its runs.
struct ShardHeader {
  std::string path;
  nlohmann::json identity;
  ShardRange range;
};

struct ShardEnvelope {
  ShardHeader header;
  nlohmann::json records;  // an array of range.end_run - range.first_run values, unread
};

// Reads the text of the file at `path` (a Refusal naming it when it cannot).
std::string read_shard_text(const std::string& path);

// Checks the envelope of a shard file of `schema`: nesting depth, schema, fields, the ranges
// against the run count `runs_of` reads from the identity (it checks the identity, refusing
// through the reader), and the records' count. Every problem is a Refusal naming the file and
// the field.
ShardEnvelope read_shard_envelope(
    const std::string& path, const std::string& text, const std::string& schema,
    const std::function<std::size_t(const ShardReader&, const nlohmann::json&)>& runs_of);

// Checks that the shards belong to one batch (`what` names it, "sweep"; `what_differs` says what
// a different identity means), are all there once and cover every one of `runs` runs; returns
// their indices in shard order. Every problem is a Refusal naming the shard.
std::vector<std::size_t> order_shards(const std::vector<const ShardHeader*>& shards,
                                      std::size_t runs, const std::string& what,
                                      const std::string& what_differs);

}  // namespace nssim::cli

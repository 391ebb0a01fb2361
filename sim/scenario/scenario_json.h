// File: the JSON side of the scenario loader (internal): parsing with duplicate-key, depth and
// line/column reporting, --set overrides, and a cursor over objects that turns every type, range
// and unknown-field problem into a path-qualified ScenarioError.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/scenario_error.h"

namespace nssim::sim::detail {

// Document order is kept so that "the first problem" is the first one in the file.
using Json = nlohmann::ordered_json;

// Nesting deeper than this is rejected at parse time; the format itself needs 5 levels.
inline constexpr int kMaxJsonDepth = 64;

[[noreturn]] void fail(const std::string& file, const std::string& path, const std::string& what);

// "a.b" / "a[3]"; an empty parent is the document root.
std::string key_path(const std::string& parent, std::string_view key);
std::string index_path(const std::string& parent, std::size_t index);

// User text made safe for a one-line message: quoted, control characters escaped, long text cut.
std::string quote(std::string_view text);
// A value as "got ..." shows it: scalars printed, containers named (never dumped whole).
std::string describe(const Json& value);
// The candidate closest to `name` by edit distance, if close enough to be a likely typo.
std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& candidates);
// "unknown field (did you mean x?)" or "unknown field (expected one of a, b, c)".
std::string unknown_field_message(std::string_view name,
                                  const std::vector<std::string>& candidates);

Json parse_document(const std::string& text, const std::string& file);
// Applies one "PATH=VALUE" to the document.
void apply_set(Json& document, const std::string& assignment, const std::string& file);

// An inclusive integer range, with how to say it when violated.
struct IntRange {
  std::int64_t min;
  std::int64_t max;
  bool say_positive;  // "must be > 0" rather than "must be >= 1"
  static IntRange at_least(std::int64_t min, std::int64_t max = INT64_MAX) {
    return {min, max, false};
  }
  static IntRange positive(std::int64_t max = INT64_MAX) { return {1, max, true}; }
};

// A value at a path. Integer reads accept JSON integers and whole-valued numbers (1e3).
std::int64_t read_integer(const std::string& file, const Json& value, const std::string& path,
                          IntRange range);
double read_number(const std::string& file, const Json& value, const std::string& path, double min,
                   bool min_exclusive, double max);
bool read_boolean(const std::string& file, const Json& value, const std::string& path);
std::string read_string(const std::string& file, const Json& value, const std::string& path);
const Json& read_array(const std::string& file, const Json& value, const std::string& path);

// An object in the document: fields are read by key with defaults and ranges.
class Obj {
 public:
  Obj(const std::string& file, const Json& value, std::string path);

  // Fails on the first field not in `allowed`. One of `settings` (the names its "config" object
  // takes) is pointed there: a setting written beside config, not in it.
  void allow(const std::vector<std::string>& allowed,
             const std::vector<std::string>& settings = {}) const;
  [[noreturn]] void fail_at(std::string_view key, const std::string& what) const;
  [[noreturn]] void fail_here(const std::string& what) const;

  bool has(std::string_view key) const;
  const Json& at(std::string_view key) const;  // the field must exist
  std::string path(std::string_view key) const { return key_path(path_, key); }
  const std::string& path() const { return path_; }
  const std::string& file() const { return file_; }
  const Json& json() const { return value_; }

  std::int64_t integer(std::string_view key, std::int64_t fallback, IntRange range) const;
  std::int64_t required_integer(std::string_view key, IntRange range) const;
  std::optional<std::int64_t> optional_integer(std::string_view key, IntRange range) const;
  double number(std::string_view key, double fallback, double min, bool min_exclusive,
                double max) const;
  bool boolean(std::string_view key, bool fallback) const;
  std::string string(std::string_view key, const std::string& fallback) const;
  std::string required_string(std::string_view key) const;
  std::optional<std::string> optional_string(std::string_view key) const;

 private:
  const std::string& file_;
  const Json& value_;
  std::string path_;
};

}  // namespace nssim::sim::detail

// File: JSON parsing and typed field access for the scenario loader. Nothing here knows the
// scenario format; it only knows how to say precisely where a document went wrong.
#include "sim/scenario/scenario_json.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <set>

namespace nssim::sim::detail {

namespace {

std::string format_number(double value) {
  char buffer[32];
  if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  } else {
    std::snprintf(buffer, sizeof buffer, "%g", value);
  }
  return buffer;
}

std::string escaped(std::string_view text) {
  constexpr std::size_t kMaxShown = 60;
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      char buffer[8];
      std::snprintf(buffer, sizeof buffer, "\\x%02x", c);
      out += buffer;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (text.size() > kMaxShown) out += "...";
  return out;
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) ==
                        std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string type_noun(const Json& value) {
  if (value.is_object()) return "an object";
  if (value.is_array()) return "an array";
  if (value.is_string()) return "a string";
  if (value.is_boolean()) return "a boolean";
  if (value.is_null()) return "null";
  return "a number";
}

// Tracks where the parser is, to name duplicate keys and over-deep nesting by path.
class PathTracker {
 public:
  explicit PathTracker(const std::string& file) : file_(file) {}

  bool on_event(nlohmann::detail::parse_event_t event, const Json& parsed) {
    using Event = nlohmann::detail::parse_event_t;
    switch (event) {
      case Event::object_start:
      case Event::array_start:
        if (frames_.size() >= static_cast<std::size_t>(kMaxJsonDepth)) {
          fail(file_, element_path(),
               "nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
        }
        frames_.push_back(Frame{event == Event::array_start, 0, element_path(), {}, {}});
        break;
      case Event::key: {
        Frame& top = frames_.back();
        top.key = parsed.get<std::string>();
        if (!top.keys.insert(top.key).second) fail(file_, element_path(), "duplicate field");
        break;
      }
      case Event::object_end:
      case Event::array_end:
        frames_.pop_back();
        if (!frames_.empty() && frames_.back().is_array) ++frames_.back().next_index;
        break;
      case Event::value:
        if (!frames_.empty() && frames_.back().is_array) ++frames_.back().next_index;
        break;
    }
    return true;
  }

 private:
  struct Frame {
    bool is_array;
    std::size_t next_index;
    std::string path;
    std::string key;
    std::set<std::string> keys;
  };

  std::string element_path() const {
    if (frames_.empty()) return "";
    const Frame& top = frames_.back();
    return top.is_array ? index_path(top.path, top.next_index) : key_path(top.path, top.key);
  }

  const std::string& file_;
  std::vector<Frame> frames_;
};

// "line 3, column 5" of the first occurrence of `token`, for errors nlohmann gives no place for.
std::string place_of(const std::string& text, const std::string& token) {
  const auto at = token.empty() ? std::string::npos : text.find(token);
  if (at == std::string::npos) return "";
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < at; ++i) {
    column = text[i] == '\n' ? 1 : column + 1;
    if (text[i] == '\n') ++line;
  }
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
}

// nlohmann: "[json.exception.parse_error.101] parse error at line 3, column 5: syntax error...",
// or "[json.exception.out_of_range.406] number overflow parsing '1e999'" with no place.
std::string parse_error_text(const std::string& what, const std::string& input) {
  std::string text = what;
  const auto bracket = text.find("] ");
  if (text.rfind("[json.exception.", 0) == 0 && bracket != std::string::npos) {
    text = text.substr(bracket + 2);
  }
  const std::string lead = "parse error at ";
  if (text.rfind(lead, 0) == 0) {
    const auto colon = text.find(": ");
    if (colon != std::string::npos) {
      return text.substr(lead.size(), colon - lead.size()) +
             ": invalid JSON: " + text.substr(colon + 2);
    }
  }
  const std::string overflow = "number overflow parsing '";
  if (text.rfind(overflow, 0) == 0 && text.back() == '\'') {
    return place_of(input, text.substr(overflow.size(), text.size() - overflow.size() - 1)) +
           "invalid JSON: " + text;
  }
  return "invalid JSON: " + text;
}

}  // namespace

void fail(const std::string& file, const std::string& path, const std::string& what) {
  std::string line = file + ": " + (path.empty() ? "(document)" : path) + ": " + what;
  std::replace(line.begin(), line.end(), '\n', ' ');
  throw ScenarioError(line);
}

std::string key_path(const std::string& parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string index_path(const std::string& parent, std::size_t index) {
  return parent + "[" + std::to_string(index) + "]";
}

std::string quote(std::string_view text) { return "'" + escaped(text) + "'"; }

std::string describe(const Json& value) {
  if (value.is_string()) return "\"" + escaped(value.get_ref<const std::string&>()) + "\"";
  if (value.is_object() || value.is_array() || value.is_null()) return type_noun(value);
  return value.dump();  // a number or a boolean
}

std::optional<std::string> closest_name(std::string_view name,
                                        const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = 0;
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(name, candidate);
    if (!best || distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  const std::size_t allowed = std::max<std::size_t>(2, name.size() / 3);
  if (!best || best_distance > allowed || best_distance >= name.size()) return std::nullopt;
  return best;
}

std::string unknown_field_message(std::string_view name,
                                  const std::vector<std::string>& candidates) {
  if (auto suggestion = closest_name(name, candidates)) {
    return "unknown field (did you mean " + *suggestion + "?)";
  }
  if (candidates.empty() || candidates.size() > 12) return "unknown field";
  std::string list;
  for (const auto& candidate : candidates) list += (list.empty() ? "" : ", ") + candidate;
  return "unknown field (expected one of " + list + ")";
}

Json parse_document(const std::string& text, const std::string& file) {
  PathTracker tracker(file);
  try {
    return Json::parse(
        text,
        [&tracker](int /*depth*/, nlohmann::detail::parse_event_t event, Json& parsed) {
          return tracker.on_event(event, parsed);
        },
        /*allow_exceptions=*/true, /*ignore_comments=*/false);
  } catch (const nlohmann::json::exception& error) {
    std::string line = file + ": " + parse_error_text(error.what(), text);
    std::replace(line.begin(), line.end(), '\n', ' ');
    throw ScenarioError(line);
  }
}

std::int64_t read_integer(const std::string& file, const Json& value, const std::string& path,
                          IntRange range) {
  std::int64_t result = 0;
  bool too_large = false;
  if (value.is_number_unsigned()) {
    const auto u = value.get<std::uint64_t>();
    too_large = u > static_cast<std::uint64_t>(INT64_MAX);
    if (!too_large) result = static_cast<std::int64_t>(u);
  } else if (value.is_number_integer()) {
    result = value.get<std::int64_t>();
  } else if (value.is_number_float()) {
    const double d = value.get<double>();
    if (d != std::floor(d)) fail(file, path, "must be an integer, got " + describe(value));
    too_large = d >= 9.2e18;
    result = too_large ? 0 : d <= -9.2e18 ? INT64_MIN : static_cast<std::int64_t>(d);
  } else {
    fail(file, path, "must be an integer, got " + describe(value));
  }
  if (too_large || result > range.max) fail(file, path, "must be <= " + std::to_string(range.max));
  if (result < range.min) {
    fail(file, path,
         range.say_positive ? "must be > 0" : "must be >= " + std::to_string(range.min));
  }
  return result;
}

double read_number(const std::string& file, const Json& value, const std::string& path, double min,
                   bool min_exclusive, double max) {
  if (!value.is_number()) fail(file, path, "must be a number, got " + describe(value));
  const double result = value.get<double>();
  if (min_exclusive ? !(result > min) : !(result >= min)) {
    fail(file, path, (min_exclusive ? "must be > " : "must be >= ") + format_number(min));
  }
  if (result > max) fail(file, path, "must be <= " + format_number(max));
  return result;
}

bool read_boolean(const std::string& file, const Json& value, const std::string& path) {
  if (!value.is_boolean()) fail(file, path, "must be true or false, got " + describe(value));
  return value.get<bool>();
}

std::string read_string(const std::string& file, const Json& value, const std::string& path) {
  if (!value.is_string()) fail(file, path, "must be a string, got " + describe(value));
  return value.get<std::string>();
}

const Json& read_array(const std::string& file, const Json& value, const std::string& path) {
  if (!value.is_array()) fail(file, path, "must be an array, got " + describe(value));
  return value;
}

Obj::Obj(const std::string& file, const Json& value, std::string path)
    : file_(file), value_(value), path_(std::move(path)) {
  if (!value_.is_object()) fail(file_, path_, "must be an object, got " + describe(value_));
}

void Obj::allow(const std::vector<std::string>& allowed,
                const std::vector<std::string>& settings) const {
  for (const auto& item : value_.items()) {
    const std::string& key = item.key();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    if (std::find(settings.begin(), settings.end(), key) != settings.end()) {
      fail_at(key, "is a setting: write it inside \"config\" (" + path("config") + "." + key + ")");
    }
    fail_at(key, unknown_field_message(key, allowed));
  }
}

void Obj::fail_at(std::string_view key, const std::string& what) const {
  fail(file_, path(key), what);
}

void Obj::fail_here(const std::string& what) const { fail(file_, path_, what); }

bool Obj::has(std::string_view key) const { return value_.contains(std::string(key)); }

const Json& Obj::at(std::string_view key) const {
  if (!has(key)) fail_at(key, "is required");
  return value_.find(std::string(key)).value();
}

std::int64_t Obj::integer(std::string_view key, std::int64_t fallback, IntRange range) const {
  return has(key) ? read_integer(file_, at(key), path(key), range) : fallback;
}

std::int64_t Obj::required_integer(std::string_view key, IntRange range) const {
  return read_integer(file_, at(key), path(key), range);
}

std::optional<std::int64_t> Obj::optional_integer(std::string_view key, IntRange range) const {
  if (!has(key)) return std::nullopt;
  return read_integer(file_, at(key), path(key), range);
}

double Obj::number(std::string_view key, double fallback, double min, bool min_exclusive,
                   double max) const {
  return has(key) ? read_number(file_, at(key), path(key), min, min_exclusive, max) : fallback;
}

bool Obj::boolean(std::string_view key, bool fallback) const {
  return has(key) ? read_boolean(file_, at(key), path(key)) : fallback;
}

std::string Obj::string(std::string_view key, const std::string& fallback) const {
  return has(key) ? read_string(file_, at(key), path(key)) : fallback;
}

std::string Obj::required_string(std::string_view key) const {
  return read_string(file_, at(key), path(key));
}

std::optional<std::string> Obj::optional_string(std::string_view key) const {
  if (!has(key)) return std::nullopt;
  return read_string(file_, at(key), path(key));
}

}  // namespace nssim::sim::detail

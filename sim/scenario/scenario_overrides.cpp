// File: --set PATH=VALUE, applied to the scenario document before validation, so an override is
// checked exactly as if it had been written in the file.
#include <algorithm>
#include <cctype>

#include "sim/scenario/scenario_json.h"

namespace nssim::sim::detail {

namespace {

struct Segment {
  bool is_index;
  std::string key;
  std::size_t index;
};

bool is_key_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-';
}

// key ("[" digits "]")* ("." key ("[" digits "]")*)*, where a last key "rocketmq." ... may hold
// dots
std::optional<std::vector<Segment>> parse_path(const std::string& path) {
  std::vector<Segment> segments;
  std::size_t i = 0;
  while (true) {
    const std::size_t start = i;
    while (i < path.size() && is_key_char(path[i])) ++i;
    if (i == start) return std::nullopt;
    // A JVM system property's name ("rocketmq.client.rebalance.waitInterval"), as config objects
    // take it, is one key: it runs to the end of the path.
    if (path.compare(start, i - start, "rocketmq") == 0 && i < path.size() && path[i] == '.') {
      while (i < path.size() && (is_key_char(path[i]) || path[i] == '.')) ++i;
      if (i != path.size() || path[i - 1] == '.') return std::nullopt;
    }
    segments.push_back(Segment{false, path.substr(start, i - start), 0});
    while (i < path.size() && path[i] == '[') {
      const std::size_t digits = ++i;
      std::size_t index = 0;
      while (i < path.size() && std::isdigit(static_cast<unsigned char>(path[i])) != 0) {
        if (i - digits >= 9) return std::nullopt;  // no array is that long
        index = index * 10 + static_cast<std::size_t>(path[i] - '0');
        ++i;
      }
      if (i == digits || i >= path.size() || path[i] != ']') return std::nullopt;
      ++i;
      segments.push_back(Segment{true, "", index});
    }
    if (i == path.size()) return segments;
    if (path[i] != '.') return std::nullopt;
    ++i;
  }
}

}  // namespace

void apply_set(Json& document, const std::string& assignment, const std::string& file) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos) {
    fail(file, "--set " + quote(assignment), "expected PATH=VALUE");
  }
  const std::string path = assignment.substr(0, equals);
  const std::string value_text = assignment.substr(equals + 1);
  const std::string where = "--set " + quote(path);
  const auto segments = parse_path(path);
  if (!segments) {
    fail(file, where, "not a field path (e.g. producers[0].config.sendMsgTimeout)");
  }

  // The value sits `segments` levels down: together they may nest no deeper than a file may.
  const std::size_t room = static_cast<std::size_t>(kMaxJsonDepth) -
                           std::min<std::size_t>(segments->size(), kMaxJsonDepth);
  Json value = Json::parse(
      value_text,
      [&](int depth, nlohmann::detail::parse_event_t event, Json&) {
        using Event = nlohmann::detail::parse_event_t;
        if ((event == Event::object_start || event == Event::array_start) &&
            static_cast<std::size_t>(depth) >= room) {
          fail(file, where,
               "nested deeper than " + std::to_string(kMaxJsonDepth) +
                   " levels, with the path's own");
        }
        return true;
      },
      /*allow_exceptions=*/false);
  if (value.is_discarded()) value = Json(value_text);

  Json* node = &document;
  std::string walked;
  // The key just walked and the names beside it, for a key that turns out not to exist.
  std::string last_key;
  std::vector<std::string> siblings;
  for (const Segment& segment : *segments) {
    const std::string here = walked.empty() ? "the document" : walked;
    if (segment.is_index) {
      if (node->is_null()) {
        const auto near = last_key.empty() ? std::nullopt : closest_name(last_key, siblings);
        fail(file, where,
             here + " does not exist" + (near ? " (did you mean " + *near + "?)" : ""));
      }
      if (!node->is_array()) fail(file, where, here + " is not an array");
      if (segment.index >= node->size()) {
        fail(file, where,
             here + " has " + std::to_string(node->size()) + " entries, so no [" +
                 std::to_string(segment.index) + "]");
      }
      node = &(*node)[segment.index];
      walked = index_path(walked, segment.index);
      last_key.clear();
    } else {
      if (node->is_null()) *node = Json::object();  // a field the path creates
      if (!node->is_object()) fail(file, where, here + " is not an object");
      siblings.clear();
      for (const auto& item : node->items()) siblings.push_back(item.key());
      last_key = segment.key;
      node = &(*node)[segment.key];
      walked = key_path(walked, segment.key);
    }
  }
  *node = std::move(value);
}

}  // namespace nssim::sim::detail

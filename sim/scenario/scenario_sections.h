// File: the section readers of the scenario loader (internal) that more than one file uses: the
// one namespace of node names, names, links, start windows and lists of references.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_json.h"

namespace nssim::sim::detail {

inline constexpr std::size_t kMaxNameLength = 127;  // TopicValidator#TOPIC_MAX_LENGTH

// Names that a later reference must resolve to exactly one thing, with who took each.
class NameRegistry {
 public:
  void reserve(const std::string& name) { owners_[name] = ""; }
  void add(const Obj& at, std::string_view key, const std::string& name, const std::string& owner,
           const std::string& lead = "");

 private:
  std::map<std::string, std::string> owners_;
};

// owner[key]: 1 to 127 characters of letters, digits, _ and - (topics also % and |).
std::string checked_name(const Obj& obj, std::string_view key, bool topic);
// owner's "link" over `link`'s defaults.
void read_link(const Obj& owner, LinkSpec& link);
// owner's "start" ({min_ms, max_ms}) or "start_ms", each before duration_ms, over `start`.
void read_start(const Obj& owner, std::int64_t duration_ms, StartSpec& start);
// entry[key]: a non-empty list of distinct names, each one of `known` (a `noun`).
std::vector<std::string> read_references(const Obj& entry, std::string_view key,
                                         const std::vector<std::string>& known,
                                         const std::string& noun);

// Reads root "consumers" into s.consumers (scenario_consumers.cpp). Needs the NameServers, the
// topics and every producer already read, and their node names in `nodes`.
void read_consumers(const Obj& root, Scenario& s, NameRegistry& nodes);

}  // namespace nssim::sim::detail

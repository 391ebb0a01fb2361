// File: the section readers of the scenario loader (internal) that more than one file uses: the
// one namespace of node names, names, links, start windows and lists of references.
#include "sim/scenario/scenario_sections.h"

#include <algorithm>
#include <cctype>

namespace nssim::sim::detail {

namespace {

constexpr double kMaxLatencyMs = 600000.0;
constexpr double kMaxBandwidthMbps = 1e6;

bool valid_name(const std::string& name, bool topic) {
  if (name.empty() || name.size() > kMaxNameLength) return false;
  return std::all_of(name.begin(), name.end(), [topic](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' ||
           (topic && (c == '%' || c == '|'));
  });
}

}  // namespace

void NameRegistry::add(const Obj& at, std::string_view key, const std::string& name,
                       const std::string& owner, const std::string& lead) {
  auto [it, fresh] = owners_.emplace(name, owner);
  if (fresh) return;
  at.fail_at(key, lead + quote(name) +
                      (it->second.empty() ? " is reserved (a partition keyword)"
                                          : " is already used by " + it->second));
}

std::string checked_name(const Obj& obj, std::string_view key, bool topic) {
  const std::string name = obj.required_string(key);
  if (!valid_name(name, topic)) {
    obj.fail_at(key, std::string("must be 1 to 127 characters of ") +
                         (topic ? "letters, digits, _ - % |" : "letters, digits, _ and -") +
                         ", got " + quote(name));
  }
  return name;
}

void read_link(const Obj& owner, LinkSpec& link) {
  if (!owner.has("link")) return;
  const Obj obj(owner.file(), owner.at("link"), owner.path("link"));
  obj.allow({"latency_ms", "bandwidth_mbps"});
  link.latency_ms = obj.number("latency_ms", link.latency_ms, 0.0, false, kMaxLatencyMs);
  link.bandwidth_mbps =
      obj.number("bandwidth_mbps", link.bandwidth_mbps, 0.0, true, kMaxBandwidthMbps);
}

void read_start(const Obj& owner, std::int64_t duration_ms, StartSpec& start) {
  const std::string before_end = "must be < duration_ms (" + std::to_string(duration_ms) + ")";
  if (owner.has("start") && owner.has("start_ms")) {
    owner.fail_at("start_ms", "give start or start_ms, not both");
  }
  if (owner.has("start_ms")) {
    const std::int64_t at = owner.required_integer("start_ms", IntRange::at_least(0));
    if (at >= duration_ms) owner.fail_at("start_ms", before_end);
    start = StartSpec{at, at};
  } else if (owner.has("start")) {
    const Obj obj(owner.file(), owner.at("start"), owner.path("start"));
    obj.allow({"min_ms", "max_ms"});
    start.min_ms = obj.required_integer("min_ms", IntRange::at_least(0));
    start.max_ms = obj.required_integer("max_ms", IntRange::at_least(0));
    if (start.max_ms < start.min_ms) obj.fail_at("max_ms", "must be >= min_ms");
    if (start.max_ms >= duration_ms) obj.fail_at("max_ms", before_end);
  }
}

std::vector<std::string> read_references(const Obj& entry, std::string_view key,
                                         const std::vector<std::string>& known,
                                         const std::string& noun) {
  const Json& list = detail::read_array(entry.file(), entry.at(key), entry.path(key));
  if (list.empty())
    entry.fail_at(key, "must not be empty (leave it out to mean all " + noun + "s)");
  std::vector<std::string> names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = detail::index_path(entry.path(key), i);
    const std::string name = detail::read_string(entry.file(), list[i], path);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      const auto near = detail::closest_name(name, known);
      detail::fail(
          entry.file(), path,
          "no " + noun + " named " + quote(name) + (near ? " (did you mean " + *near + "?)" : ""));
    }
    if (std::find(names.begin(), names.end(), name) != names.end()) {
      detail::fail(entry.file(), path, quote(name) + " is listed twice");
    }
    names.push_back(name);
  }
  return names;
}

}  // namespace nssim::sim::detail

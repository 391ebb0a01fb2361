// File: the scenario's "explore" block, the fault space `nssim explore` draws from: kinds with
// weights, targets resolved as the faults' own target rules take them, faults per run, overlap,
// and the time ranges. Every space that cannot give a schedule the loader would take is refused
// here, one line naming the JSON path.
#include <algorithm>

#include "sim/scenario/scenario_faults.h"

namespace nssim::sim::detail {

namespace {

// Faults one drawn run may hold: shrinking costs a run per fault tried.
constexpr std::int64_t kMaxExploreFaults = 64;
constexpr double kMaxWeight = 1e6;

bool takes(FaultKind kind, ExploreTargetForm form, bool producer) {
  if (kind == FaultKind::kPartition) return true;  // every target is a partition side
  if (form == ExploreTargetForm::kSideOnly) return false;
  if (is_admin_kind(kind)) return form == ExploreTargetForm::kGroup;
  if (kind == FaultKind::kLatency) return true;
  return !producer;  // a process kind acts on NameServers, brokers and consumers
}

std::string kind_list(const ExploreSpec& spec) {
  std::string out;
  for (std::size_t i = 0; i < spec.kinds.size(); ++i) {
    if (i != 0) out += i + 1 == spec.kinds.size() ? " or " : ", ";
    out += fault_kind_name(spec.kinds[i].first);
  }
  return out;
}

void read_kinds(const Obj& e, ExploreSpec& spec) {
  const Obj kinds(e.file(), e.at("kinds"), e.path("kinds"));
  if (kinds.json().empty()) kinds.fail_here("must name at least one fault kind");
  for (const auto& item : kinds.json().items()) {
    if (!parse_fault_kind(item.key())) kinds.fail_at(item.key(), unknown_kind_message(item.key()));
  }
  for (FaultKind kind : fault_kinds()) {
    const char* name = fault_kind_name(kind);
    if (!kinds.has(name)) continue;
    spec.kinds.emplace_back(kind, kinds.number(name, 1.0, 0.0, true, kMaxWeight));
  }
}

ExploreTarget resolve_target(const Obj& e, const std::string& path, const std::string& name,
                             const Directory& d, const ExploreSpec& spec) {
  ExploreTarget target;
  target.name = name;
  bool producer = false;
  if (name == "nameservers") {
    target.form = ExploreTargetForm::kNameServers;
  } else if (name == "brokers" || name == "producers" || name == "consumers" ||
             d.producer_sets.count(name) != 0 || d.consumer_sets.count(name) != 0) {
    target.form = ExploreTargetForm::kSideOnly;
  } else if (d.groups.count(name) != 0) {
    target.form = ExploreTargetForm::kGroup;
  } else if (auto role = d.role.find(name); role != d.role.end()) {
    producer = role->second == Role::kProducer;
  } else {
    std::vector<std::string> known = d.nodes;
    for (const auto& [group, brokers] : d.groups) known.push_back(group);
    const auto near = closest_name(name, known);
    fail(e.file(), path,
         "no node, group or keyword named " + quote(name) +
             (near ? " (did you mean " + *near + "?)"
                   : " (expected a node, a broker group, a producer set, nameservers, brokers or "
                     "producers)"));
  }
  target.nodes = resolve_side_entry(name, d);
  for (const auto& [kind, weight] : spec.kinds) {
    if (takes(kind, target.form, producer)) target.kinds.push_back(kind);
  }
  if (target.kinds.empty()) {
    fail(e.file(), path,
         quote(name) + " is a target of none of the kinds drawn (" + kind_list(spec) + ")");
  }
  return target;
}

bool disjoint(const ExploreTarget& a, const ExploreTarget& b) {
  return std::none_of(a.nodes.begin(), a.nodes.end(), [&b](const std::string& node) {
    return std::find(b.nodes.begin(), b.nodes.end(), node) != b.nodes.end();
  });
}

void read_targets(const Obj& e, const Scenario& s, ExploreSpec& spec) {
  const Json& list = read_array(e.file(), e.at("targets"), e.path("targets"));
  if (list.empty()) e.fail_at("targets", "must name at least one target");
  const Directory d = make_directory(s);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string path = index_path(e.path("targets"), i);
    const std::string name = read_string(e.file(), list[i], path);
    for (const auto& earlier : spec.targets) {
      if (earlier.name == name) fail(e.file(), path, quote(name) + " is listed twice");
    }
    spec.targets.push_back(resolve_target(e, path, name, d, spec));
  }
  const std::string kinds_path = e.path("kinds");
  for (const auto& [kind, weight] : spec.kinds) {
    std::vector<const ExploreTarget*> taking;
    for (const auto& target : spec.targets) {
      if (std::find(target.kinds.begin(), target.kinds.end(), kind) != target.kinds.end()) {
        taking.push_back(&target);
      }
    }
    const std::string at = key_path(kinds_path, fault_kind_name(kind));
    if (taking.empty()) {
      fail(e.file(), at,
           is_admin_kind(kind) ? "no target takes it (it needs a broker group in targets)"
                               : "no target takes it (it needs a NameServer or broker in targets)");
    }
    if (kind == FaultKind::kPartition) {
      bool pair = false;
      for (const auto* a : taking) {
        for (const auto* b : taking) pair = pair || disjoint(*a, *b);
      }
      if (!pair) fail(e.file(), at, "needs two targets with no node in common, one per side");
    }
  }
}

MsRange read_range(const Obj& e, std::string_view key, IntRange bounds) {
  const Obj range(e.file(), e.at(key), e.path(key));
  range.allow({"min_ms", "max_ms"});
  MsRange out;
  out.min_ms = range.required_integer("min_ms", bounds);
  out.max_ms = range.required_integer("max_ms", bounds);
  if (out.max_ms < out.min_ms) range.fail_at("max_ms", "must be >= min_ms");
  return out;
}

void read_counts(const Obj& e, ExploreSpec& spec) {
  const Obj faults(e.file(), e.at("faults"), e.path("faults"));
  faults.allow({"min", "max"});
  spec.min_faults = faults.required_integer("min", IntRange::positive(kMaxExploreFaults));
  spec.max_faults = faults.required_integer("max", IntRange::positive(kMaxExploreFaults));
  if (spec.max_faults < spec.min_faults) faults.fail_at("max", "must be >= min");
  spec.max_overlap = e.integer("max_overlap", spec.max_faults, IntRange::positive(spec.max_faults));
}

void read_times(const Obj& e, const Scenario& s, ExploreSpec& spec) {
  spec.at = read_range(e, "at_ms", IntRange::at_least(0, s.duration_ms - 1));
  spec.duration = read_range(e, "duration_ms", IntRange::positive(s.duration_ms));
  // Faults run at most max_overlap at a time, so the fewest faults a run holds come in
  // ceil(min / max_overlap) waves, each starting after the last ended.
  const std::int64_t waves = (spec.min_faults + spec.max_overlap - 1) / spec.max_overlap;
  const std::int64_t needed = (waves - 1) * spec.duration.min_ms;
  if (needed > spec.at.max_ms - spec.at.min_ms) {
    e.fail_at("max_overlap", std::to_string(spec.min_faults) + " faults, at most " +
                                 std::to_string(spec.max_overlap) + " at a time, need starts " +
                                 std::to_string(needed) + " ms apart; at_ms spans " +
                                 std::to_string(spec.at.max_ms - spec.at.min_ms) + " ms");
  }
}

void read_latency(const Obj& e, ExploreSpec& spec) {
  const bool drawn = std::any_of(spec.kinds.begin(), spec.kinds.end(), [](const auto& kind) {
    return kind.first == FaultKind::kLatency;
  });
  if (!drawn) {
    if (e.has("latency_ms")) e.fail_at("latency_ms", "not used: latency is not among the kinds");
    return;
  }
  if (!e.has("latency_ms")) e.fail_here("needs latency_ms {min, max} to draw latency faults");
  const Obj range(e.file(), e.at("latency_ms"), e.path("latency_ms"));
  range.allow({"min", "max"});
  spec.min_latency_ms =
      read_number(e.file(), range.at("min"), range.path("min"), 0.0, false, kMaxFaultLatencyMs);
  spec.max_latency_ms =
      read_number(e.file(), range.at("max"), range.path("max"), 0.0, false, kMaxFaultLatencyMs);
  if (spec.max_latency_ms < spec.min_latency_ms) range.fail_at("max", "must be >= min");
}

}  // namespace

void read_explore(const Obj& root, Scenario& scenario) {
  if (!root.has("explore")) return;
  if (root.has("faults")) {
    root.fail_at("explore", "give faults or explore, not both (explore draws the faults)");
  }
  const Obj e(scenario.file, root.at("explore"), "explore");
  e.allow({"kinds", "targets", "faults", "max_overlap", "at_ms", "duration_ms", "latency_ms"});
  for (const char* key : {"kinds", "targets", "faults", "at_ms", "duration_ms"}) {
    if (!e.has(key)) e.fail_at(key, "is required");
  }
  ExploreSpec spec;
  read_kinds(e, spec);
  read_targets(e, scenario, spec);
  read_counts(e, spec);
  read_times(e, scenario, spec);
  read_latency(e, spec);
  scenario.explore = std::move(spec);
}

}  // namespace nssim::sim::detail

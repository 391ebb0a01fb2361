// File: the swarm draw of one explore run (see explore_draw.h). Every choice comes from one
// stream of the run's seed, in a fixed order, so a run index gives the same schedule everywhere.
#include "sim/scenario/explore_draw.h"

#include <algorithm>
#include <string>

#include "sim/scenario/rng.h"
#include "sim/scenario/scenario_faults.h"

namespace nssim::sim {

namespace {

using detail::is_admin_kind;
using detail::is_process_kind;

// A placed fault with a duration: [begin, end), and the nodes whose state it holds.
struct Window {
  std::int64_t begin;
  std::int64_t end;
  FaultKind kind;
  std::vector<std::string> nodes;
};

bool share_node(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return std::any_of(a.begin(), a.end(), [&b](const std::string& node) {
    return std::find(b.begin(), b.end(), node) != b.end();
  });
}

// The loader's rule (scenario_faults.cpp check_overlaps) and the block's max_overlap.
bool fits(const std::vector<Window>& placed, const Window& next, std::int64_t max_overlap) {
  std::vector<std::int64_t> points = {next.begin};
  for (const auto& w : placed) {
    if (w.begin >= next.end || next.begin >= w.end) continue;
    const bool same_state = (is_process_kind(w.kind) && is_process_kind(next.kind)) ||
                            (w.kind == FaultKind::kLatency && next.kind == FaultKind::kLatency);
    if (same_state && share_node(w.nodes, next.nodes)) return false;
    if (w.begin > next.begin) points.push_back(w.begin);
  }
  for (std::int64_t point : points) {
    const auto running = std::count_if(placed.begin(), placed.end(), [point](const Window& w) {
      return w.begin <= point && point < w.end;
    });
    if (running + 1 > max_overlap) return false;
  }
  return true;
}

template <typename T, typename Weight>
const T& pick_weighted(Rng& rng, const std::vector<T>& items, Weight weight) {
  double total = 0.0;
  for (const auto& item : items) total += weight(item);
  double u = rng.uniform_01() * total;
  for (const auto& item : items) {
    u -= weight(item);
    if (u < 0.0) return item;
  }
  return items.back();
}

template <typename T>
const T& pick(Rng& rng, const std::vector<T>& items) {
  return items[static_cast<std::size_t>(rng.uniform_u64(items.size()))];
}

bool takes(const ExploreTarget& target, FaultKind kind) {
  return std::find(target.kinds.begin(), target.kinds.end(), kind) != target.kinds.end();
}

void write_target(nlohmann::ordered_json& fault, const ExploreTarget& target) {
  switch (target.form) {
    case ExploreTargetForm::kNode:
      fault["node"] = target.name;
      break;
    case ExploreTargetForm::kGroup:
      fault["group"] = target.name;
      break;
    case ExploreTargetForm::kNameServers:
      fault["nameservers"] = "all";
      break;
    case ExploreTargetForm::kSideOnly:
      break;  // read_target refuses these for every kind but partition
  }
}

// One fault of `kind`, or nothing when its placement did not fit.
std::optional<nlohmann::ordered_json> draw_one(Rng& rng, const Scenario& s, FaultKind kind,
                                               std::vector<Window>& placed) {
  const ExploreSpec& spec = *s.explore;
  std::vector<const ExploreTarget*> taking;
  for (const auto& target : spec.targets) {
    if (takes(target, kind)) taking.push_back(&target);
  }
  const ExploreTarget& target = *pick(rng, taking);
  nlohmann::ordered_json fault;
  fault["kind"] = fault_kind_name(kind);
  fault["at_ms"] = rng.uniform_int(spec.at.min_ms, spec.at.max_ms);
  if (is_admin_kind(kind)) {  // an admin request has no duration: nothing to overlap
    fault["broker_name"] = target.name;
    if (kind == FaultKind::kUpdateTopic) fault["topic"] = pick(rng, s.topics).name;
    return fault;
  }
  const std::int64_t duration = rng.uniform_int(spec.duration.min_ms, spec.duration.max_ms);
  fault["duration_ms"] = duration;
  Window window{fault["at_ms"].get<std::int64_t>(), 0, kind, target.nodes};
  window.end = window.begin + duration;
  if (kind == FaultKind::kPartition) {
    std::vector<const ExploreTarget*> others;
    for (const auto* other : taking) {
      if (!share_node(other->nodes, target.nodes)) others.push_back(other);
    }
    if (others.empty()) return std::nullopt;  // this side has no disjoint partner
    const ExploreTarget& to = *pick(rng, others);
    fault["from"] = nlohmann::ordered_json::array({target.name});
    fault["to"] = nlohmann::ordered_json::array({to.name});
    window.nodes.insert(window.nodes.end(), to.nodes.begin(), to.nodes.end());
  } else {
    write_target(fault, target);
  }
  if (kind == FaultKind::kLatency) {
    fault["latency_ms"] =
        spec.min_latency_ms + (spec.max_latency_ms - spec.min_latency_ms) * rng.uniform_01();
  }
  if (!fits(placed, window, spec.max_overlap)) return std::nullopt;
  placed.push_back(std::move(window));
  return fault;
}

}  // namespace

std::uint64_t explore_run_seed(std::uint64_t scenario_seed, std::size_t run) {
  return Rng::derive(scenario_seed, "explore/run/" + std::to_string(run)).next_u64();
}

ExploreDraw draw_faults(const Scenario& scenario, std::uint64_t run_seed) {
  const ExploreSpec& spec = *scenario.explore;
  Rng rng = Rng::derive(run_seed, "explore/draw");
  ExploreDraw draw;
  for (const auto& [kind, weight] : spec.kinds) {
    if (rng.uniform_u64(2) == 1) draw.enabled.push_back(kind);
  }
  if (draw.enabled.empty()) {
    draw.enabled.push_back(
        pick_weighted(rng, spec.kinds, [](const auto& k) { return k.second; }).first);
  }
  std::vector<std::pair<FaultKind, double>> enabled;
  for (const auto& kind : spec.kinds) {
    if (std::find(draw.enabled.begin(), draw.enabled.end(), kind.first) != draw.enabled.end()) {
      enabled.push_back(kind);
    }
  }
  const std::int64_t count = rng.uniform_int(spec.min_faults, spec.max_faults);
  std::vector<Window> placed;
  std::vector<nlohmann::ordered_json> faults;
  for (std::int64_t i = 0; i < count; ++i) {
    for (int attempt = 0; attempt < kExplorePlacementTries; ++attempt) {
      const FaultKind kind =
          pick_weighted(rng, enabled, [](const auto& k) { return k.second; }).first;
      if (auto fault = draw_one(rng, scenario, kind, placed)) {
        faults.push_back(std::move(*fault));
        break;
      }
    }
  }
  std::stable_sort(faults.begin(), faults.end(), [](const auto& a, const auto& b) {
    return a["at_ms"].template get<std::int64_t>() < b["at_ms"].template get<std::int64_t>();
  });
  draw.faults = nlohmann::ordered_json::array();
  for (auto& fault : faults) draw.faults.push_back(std::move(fault));
  return draw;
}

nlohmann::ordered_json candidate_document(const nlohmann::ordered_json& document,
                                          const nlohmann::ordered_json& faults,
                                          std::uint64_t seed) {
  nlohmann::ordered_json out = document;
  out.erase("explore");
  out["seed"] = seed;
  out["faults"] = faults;
  return out;
}

}  // namespace nssim::sim

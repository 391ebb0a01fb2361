// File: an explore's coverage (see explore_coverage.h).
#include "cli/explore/explore_coverage.h"

#include <map>

#include "nameserver_core/route_info_manager.h"

namespace nssim::cli {

namespace {

using Json = nlohmann::ordered_json;

// Per coverage group, per name, the runs that reached it; removal paths all present.
struct Tally {
  std::size_t runs = 0;
  std::map<std::string, std::map<std::string, std::size_t>> reached;

  Tally() {
    for (const auto& path : removal_path_names()) reached["removal_paths"][path] = 0;
  }
  void add(const CandidateVerdict& verdict) {
    ++runs;
    for (const auto& [group, counts] : verdict.coverage) {
      for (const auto& [name, count] : counts) {
        if (count > 0) ++reached[group][name];
      }
    }
  }
  Json json(bool with_runs) const {
    Json out = Json::object();
    if (with_runs) out["runs"] = runs;
    for (const auto& group : coverage_groups()) {
      Json counts = Json::object();
      const auto found = reached.find(group);
      if (found != reached.end()) {
        for (const auto& [name, count] : found->second) counts[name] = count;
      }
      out[group] = std::move(counts);
    }
    return out;
  }
};

}  // namespace

std::vector<std::string> removal_path_names() {
  using core::RemovalPath;
  std::vector<std::string> names;
  for (auto path :
       {RemovalPath::kUnregisterRequest, RemovalPath::kChannelClose, RemovalPath::kChannelIdle,
        RemovalPath::kChannelException, RemovalPath::kScanExpiry}) {
    names.push_back(core::removal_path_name(path));
  }
  return names;
}

Json coverage_json(const std::string& profile, const std::vector<CoveredRun>& runs) {
  Tally all;
  std::map<std::string, Tally> by_kind;
  for (const auto& run : runs) {
    all.add(*run.verdict);
    for (const auto& kind : run.kinds) by_kind[kind].add(*run.verdict);
  }
  Json kinds = Json::object();
  for (const auto& [kind, tally] : by_kind) kinds[kind] = tally.json(true);
  Json unreached = Json::array();
  for (const auto& [path, count] : all.reached.at("removal_paths")) {
    if (count == 0) unreached.push_back(path);
  }
  return Json{{"profile", profile},
              {"runs", runs.size()},
              {"all", all.json(false)},
              {"by_kind", kinds},
              {"removal_paths_unreached", unreached}};
}

std::optional<std::size_t> nearest_run(const std::vector<CoveredRun>& runs,
                                       const std::string& property) {
  std::optional<std::size_t> nearest;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto found = runs[i].verdict->nearest.find(property);
    if (found == runs[i].verdict->nearest.end()) continue;
    if (!nearest || found->second.margin < runs[*nearest].verdict->nearest.at(property).margin) {
      nearest = i;
    }
  }
  return nearest;
}

}  // namespace nssim::cli

// File: what an explore's runs reached, for explore.json (reports/README.md#coverage): per fault
// kind the runs that reached each NameServer removal path, send failure cause and route-health
// cause, the removal paths no run reached, and per property the run that came nearest to its
// bound.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cli/explore/explore_candidates.h"

namespace nssim::cli {

// One judged run as coverage sees it: the kinds its swarm draw enabled and its verdict.
struct CoveredRun {
  std::vector<std::string> kinds;
  const CandidateVerdict* verdict = nullptr;
};

// Every removal path a NameServer can drop a broker by, in the core's order.
std::vector<std::string> removal_path_names();

// {profile, runs, all {removal_paths, send_failures, route_health_causes}, by_kind {kind: {runs,
// ...the same}}, removal_paths_unreached[]}: each count is of runs that reached the path or cause
// (every removal path listed, 0 when unreached).
nlohmann::ordered_json coverage_json(const std::string& profile,
                                     const std::vector<CoveredRun>& runs);

// The run whose verdict holds the least margin for `property`; nullopt when no run measured it.
std::optional<std::size_t> nearest_run(const std::vector<CoveredRun>& runs,
                                       const std::string& property);

}  // namespace nssim::cli

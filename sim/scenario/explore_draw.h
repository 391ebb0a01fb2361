// File: the draw of `nssim explore`: from the scenario's explore block and a run's seed, one fault
// schedule, written as a scenario file writes faults, so a candidate is loaded (and its faults
// checked) by the loader exactly as a hand-written scenario. Swarm testing (Groce et al. 2012):
// each run first draws which kinds it enables, then draws faults of those only. Pure: no SimGrid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/scenario/scenario.h"

namespace nssim::sim {

// Placements tried for one fault before the run goes without it (a space whose targets share
// nodes may leave no room for the fault next to those placed).
inline constexpr int kExplorePlacementTries = 16;

// The seed of run `run` (0-based) of an explore of a scenario with seed `scenario_seed`: the run's
// draw and its simulation both follow from it, and it is the candidate scenario's "seed".
std::uint64_t explore_run_seed(std::uint64_t scenario_seed, std::size_t run);

struct ExploreDraw {
  std::vector<FaultKind> enabled;  // the kinds this run drew from, in fault_kinds() order
  nlohmann::ordered_json faults;   // an array of faults as a scenario file writes them, by at_ms
};

// `scenario.explore` must be set. Every fault drawn keeps the loader's rules (one process state
// and one raised latency per node at a time) and the block's max_overlap.
ExploreDraw draw_faults(const Scenario& scenario, std::uint64_t run_seed);

// One candidate's scenario file: `document` (the explored scenario's JSON) without its "explore"
// block, with `faults` and `seed`.
nlohmann::ordered_json candidate_document(const nlohmann::ordered_json& document,
                                          const nlohmann::ordered_json& faults, std::uint64_t seed);

}  // namespace nssim::sim

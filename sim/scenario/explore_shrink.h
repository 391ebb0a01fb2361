// File: shrinking a failing scenario of `nssim explore` to a small one that fails the same way:
// delta debugging over the faults (Zeller 2002, ddmin by complements, so the result is 1-minimal:
// removing any one fault makes the failure go), then Hypothesis-style passes: overlapping faults
// of one kind and target merged, fewer producers, sends, broker groups, NameServers and topics,
// shorter durations, overlapping faults pulled apart, the schedule moved earlier and each start
// pulled earlier, and a run that ends just past the last heal. Each candidate is kept only when
// the failure stays. Pure: each candidate is judged by a callback
// (one deterministic run in `nssim explore`).
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>

#include "sim/scenario/explore_shrink_session.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

// Shrink runs when --shrink-runs does not say.
inline constexpr std::size_t kDefaultShrinkRuns = 500;

struct ShrinkOptions {
  std::size_t max_runs = kDefaultShrinkRuns;  // calls of StillFails that judge, at most
  // How long the run must go on after its last fault heals for the properties to see the
  // cluster settle (explore_properties.h): the shortest `duration_ms` tried is the last heal
  // plus this.
  std::int64_t settle_ms = 0;
  // No fault's start is pulled earlier than this (one that starts earlier stays): the end of the
  // last node's start window (started_by_ms), so that a shrunk fault still meets a running
  // cluster rather than its startup.
  std::int64_t earliest_start_ms = 0;
};

// When every node of the scenario has started, whatever the seed: the latest end of the
// NameServers', broker groups' and producers' start windows.
std::int64_t started_by_ms(const Scenario& scenario);

// `document` fails (the caller saw it). The passes run again while one of them changes the
// scenario, so with budget left the result is 1-minimal in faults.
ShrinkResult shrink_scenario(const nlohmann::ordered_json& document, const ShrinkOptions& options,
                             const StillFails& still_fails);

}  // namespace nssim::sim

// File: shrinking a failing fault schedule of `nssim explore` to a small one that fails the same
// way: delta debugging over the faults (Zeller 2002, ddmin by complements, so the result is
// 1-minimal: removing any one fault makes the failure go), then shorter durations and earlier
// starts, each kept only when the failure stays. Pure: each candidate is judged by a callback
// (one deterministic run in `nssim explore`).
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nssim::sim {

// Shrink runs when --shrink-runs does not say.
inline constexpr std::size_t kDefaultShrinkRuns = 500;

// Whether `faults` (an array as a scenario file writes them) still fails: true, false, or nullopt
// when the loader refuses the candidate (e.g. two kills of one node overlap), which costs no run.
using StillFails = std::function<std::optional<bool>(const nlohmann::ordered_json& faults)>;

struct ShrinkStep {
  std::string change;  // "drop faults 1, 2 of 3", "faults[0].duration_ms 80000 -> 40000"
  bool kept = false;
};

struct ShrinkResult {
  nlohmann::ordered_json faults;
  std::size_t runs = 0;           // candidates judged (the budget counts these)
  std::size_t kept = 0;           // of them, those that still failed
  bool budget_spent = false;      // stopped at max_runs: the result may not be 1-minimal
  std::vector<ShrinkStep> steps;  // every judged candidate, in order
};

// `faults` fails (the caller saw it). At most `max_runs` calls of `still_fails` that judge.
ShrinkResult shrink_faults(const nlohmann::ordered_json& faults, std::size_t max_runs,
                           const StillFails& still_fails);

}  // namespace nssim::sim

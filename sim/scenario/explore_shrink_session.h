// File: what one shrink of `nssim explore` works on (explore_shrink.h): the callback that judges a
// candidate, the steps and the result, and the session every shrink pass proposes candidates
// through, which counts them against the budget.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace nssim::sim {

// Whether `document` (a candidate scenario, as a scenario file writes it, faults and all) still
// fails: true, false, or nullopt when the loader refuses the candidate (e.g. two kills of one
// node overlap, or a fault names a node a smaller cluster lacks), which costs no run.
using StillFails = std::function<std::optional<bool>(const nlohmann::ordered_json& document)>;

struct ShrinkStep {
  std::string change;  // "drop faults 1, 2 of 3", "producers[0].count 40 -> 20"
  bool kept = false;
};

struct ShrinkResult {
  nlohmann::ordered_json document;  // the shrunk scenario
  std::size_t runs = 0;             // candidates judged (the budget counts these)
  std::size_t kept = 0;             // of them, those that still failed
  bool budget_spent = false;        // stopped at max_runs: the result may not be 1-minimal
  std::vector<ShrinkStep> steps;    // every judged candidate, in order
};

namespace shrink {

using Json = nlohmann::ordered_json;

// Durations, starts and the run's length are shortened down to steps of this, not finer: below a
// second the shrink would spend runs on differences a scenario author does not read.
inline constexpr std::int64_t kShortestStepMs = 1000;

// The current scenario and the budget: every pass proposes candidates through try_candidate.
class ShrinkSession {
 public:
  ShrinkSession(const Json& document, std::size_t max_runs, const StillFails& still_fails);

  // True when `candidate` was judged and still fails (it is then the current scenario). A
  // candidate proposed before is not judged again (false, no run): the runs are deterministic,
  // so it would answer as it did, and one that failed then coming back means the passes went
  // round in a circle (pull_apart moving a fault later, lower_each earlier).
  bool try_candidate(const Json& candidate, std::string change);

  const Json& document() const { return result_.document; }
  const Json& faults() const { return result_.document["faults"]; }
  bool budget_spent() const { return result_.budget_spent; }
  ShrinkResult take() { return std::move(result_); }

 private:
  std::size_t max_runs_;
  const StillFails& still_fails_;
  ShrinkResult result_;
  std::set<std::string> proposed_;  // every candidate's dump
};

}  // namespace shrink

}  // namespace nssim::sim

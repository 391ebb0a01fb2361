// File: sweep.json (schema nssim.sweep/1, reports/README.md): a sweep's plan and its per-seed
// records in, per grid point the distribution of every figure over seeds, the seeds that gave
// each extreme with the command that repeats them, and the verdicts of the sweep expectations.
// Pure: the document depends on the plan and the records only, never on how or where they ran.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reports/sweep/sweep_figures.h"

namespace nssim::reports {

inline constexpr const char* kSweepSchema = "nssim.sweep/1";

struct SweepExpectationInput {
  std::string figure;
  std::string stat;   // n never min p50 p90 p99 max mean
  std::string op;     // < <= > >= == !=
  std::string value;  // a number, or predicted.<path> resolved in the same outages[i]
  std::string source;
};

struct SweepGridAxis {
  std::string path;  // a --set path, or "profile"
  std::vector<std::string> values;
};

struct SweepPoint {
  std::string label;                     // "path=value, path=value", or "as written"
  std::vector<std::string> grid_values;  // one per grid axis
  std::string profile;
  std::string command;  // `nssim run ...` with every override of the point, without --seed
};

struct SweepPlan {
  std::string nssim_version;
  nlohmann::json scenario;  // name, file, description, profile, duration_ms
  std::uint64_t first_seed = 1;
  std::uint64_t last_seed = 1;
  std::vector<std::string> set;  // --set overrides of every point
  std::vector<SweepGridAxis> grid;
  std::vector<SweepPoint> points;
  std::vector<SweepExpectationInput> expectations;

  std::uint64_t seed_count() const { return last_seed - first_seed + 1; }
  std::size_t run_count() const { return points.size() * seed_count(); }
};

// The document. `records` hold every run of the plan in run order: point by point, seeds
// ascending within each (run r is point r / seed_count, seed first_seed + r % seed_count).
nlohmann::json build_sweep(const SweepPlan& plan, const std::vector<SeedRecord>& records);

// The plan as shard files carry it, and back: plan_from_json(plan_json(p)) builds the same
// documents as p. plan_from_json returns nullopt on a document of another shape.
nlohmann::json plan_json(const SweepPlan& plan);
std::optional<SweepPlan> plan_from_json(const nlohmann::json& json);

// "pass", "fail" or "no_expectations", as the document's "verdict" says.
std::string sweep_verdict(const nlohmann::json& sweep);

}  // namespace nssim::reports

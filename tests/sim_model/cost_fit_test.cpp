// The memory estimate keeps docs/performance.md's promise on every run measured for it: each run
// of bench/cost_measurements.json (peak RSS by /usr/bin/time, bench/measure_cost.sh) is estimated
// again from its file and overrides, and the estimate must lie in the promised band around what
// was measured. Memory only: CPU time on the shared machine is too noisy for a test.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "sim/scenario/run_cost.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::sim {
namespace {

namespace fs = std::filesystem;

// docs/performance.md, "The cost estimate": the memory estimate is at most 6 % below the peak
// and at most twice it.
constexpr double kLowestRatio = 0.94;
constexpr double kHighestRatio = 2.0;

fs::path source_dir() {
  const char* source = std::getenv("NSSIM_SOURCE_DIR");
  return fs::path(source != nullptr ? source : ".");
}

nlohmann::json measurements() {
  std::ifstream in(source_dir() / "bench" / "cost_measurements.json");
  return nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
}

TEST(CostFit, EveryMeasuredRunIsWithinThePromisedBand) {
  const nlohmann::json data = measurements();
  ASSERT_TRUE(data.is_object()) << "bench/cost_measurements.json is missing or not JSON";
  const auto& runs = data.at("runs");
  ASSERT_GE(runs.size(), 10u);
  std::size_t poweroffs = 0;
  for (const auto& run : runs) {
    const std::string name = run.at("name").get<std::string>();
    SCOPED_TRACE(name);
    LoadOptions options;
    options.set = run.at("set").get<std::vector<std::string>>();
    const Scenario scenario = load_scenario_file(
        (source_dir() / run.at("scenario").get<std::string>()).string(), options);
    for (const auto& fault : scenario.faults) poweroffs += fault.kind == FaultKind::kPoweroff;
    const double measured = run.at("peak_rss_bytes").get<double>();
    const double ratio = estimate_run_cost(scenario).memory_bytes / measured;
    EXPECT_GE(ratio, kLowestRatio) << "estimate too low";
    EXPECT_LE(ratio, kHighestRatio) << "estimate too high";
  }
  EXPECT_GE(poweroffs, 4u) << "the fit must be checked on power-off runs (issue 28)";
}

}  // namespace
}  // namespace nssim::sim

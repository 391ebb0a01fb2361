// The catalogue of result.json's figures (sim/analysis/result_figures.h) is complete: every number
// in the result of every shipped scenario, under both profiles, is a figure it lists, so an
// expectation naming one is never refused as unknown. And what it refuses, with the suggestion.
#include "sim/analysis/result_figures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "sim/scenario/scenario_loader.h"
#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"

namespace nssim::sim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::vector<fs::path> shipped_scenarios() {
  const char* source = std::getenv("NSSIM_SOURCE_DIR");
  std::vector<fs::path> files;
  for (const auto& entry :
       fs::directory_iterator(fs::path(source != nullptr ? source : ".") / "scenarios")) {
    if (entry.path().extension() == ".json" && entry.path().filename() != "schema.json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Every numeric leaf of `node` as a figure path ("outages[0].sends.ok").
void numeric_paths(const json& node, const std::string& path, std::set<std::string>& out) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) {
      numeric_paths(value, path.empty() ? key : path + "." + key, out);
    }
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      numeric_paths(node[i], path + "[" + std::to_string(i) + "]", out);
    }
  } else if (node.is_number()) {
    out.insert(path);
  }
}

class ResultFigures : public ::testing::TestWithParam<core::Profile> {};

TEST_P(ResultFigures, EveryNumberOfEveryShippedScenarioIsAListedFigure) {
  const auto files = shipped_scenarios();
  ASSERT_GE(files.size(), 17u);
  for (const auto& file : files) {
    LoadOptions options;
    options.profile = GetParam();
    const json result = testing::run_isolated(load_scenario_file(file.string(), options));
    ASSERT_FALSE(result.contains("error")) << file << ": " << result["error"];
    std::set<std::string> paths;
    numeric_paths(result, "", paths);
    EXPECT_GT(paths.size(), 50u) << file;
    for (const auto& path : paths) {
      EXPECT_EQ(unknown_figure(path), std::nullopt) << file.filename() << ": " << path;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Profiles, ResultFigures,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         testing::profile_param_name);

TEST(ResultFigureNames, ATypoIsRefusedWithTheFigureMeant) {
  EXPECT_EQ(unknown_figure("sends.failed.totl"),
            "unknown figure (did you mean sends.failed.total?)");
  EXPECT_EQ(unknown_figure("outages[2].producers.stale_route_ms.mx"),
            "unknown figure (did you mean outages[2].producers.stale_route_ms.max?)");
  EXPECT_EQ(unknown_figure("no.such.thing"),
            "unknown figure (the figures are listed in reports/README.md)");
  EXPECT_EQ(unknown_figure("outages[1].sends.okk"),
            "unknown figure (did you mean outages[1].sends.ok?)");
}

TEST(ResultFigureNames, IndicesAndNamedKeysMatchAnyValue) {
  EXPECT_EQ(unknown_figure("outages[12].route_health.stale.by_cause.broker_down"), std::nullopt);
  EXPECT_EQ(unknown_figure("timeseries[3].ok_by_broker.broker-z"), std::nullopt);
  // An index is no key and a key no index.
  EXPECT_NE(unknown_figure("timeseries[3].ok_by_broker[0]"), std::nullopt);
  EXPECT_NE(unknown_figure("outages.sends.ok"), std::nullopt);
  // Fixed keys are not wildcards: send causes are SendCause's names.
  EXPECT_NE(unknown_figure("sends.failed.timeout"), std::nullopt);
}

TEST(ResultFigureNames, ASweepAlsoKnowsItsWithinPredictedFigures) {
  const std::string figure = "outages[0].within_predicted.producer_stale_route_ms";
  EXPECT_NE(unknown_figure(figure), std::nullopt);
  EXPECT_EQ(unknown_figure(figure, /*in_sweep=*/true), std::nullopt);
}

}  // namespace
}  // namespace nssim::sim

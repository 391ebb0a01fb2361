// nssim compare --seeds: the CDFs compare.html draws, per outage and for the whole run's route
// windows, each with its caption and the sorted values of each side.
#include "reports/compare/compare_seeds.h"

#include <gtest/gtest.h>

namespace nssim::reports {
namespace {

using nlohmann::json;

SeedSide side(const std::string& label, double lost_ms) {
  SeedSide side;
  side.label = label;
  side.sweep = {{"scenario", {{"name", "x"}}},
                {"seeds", {{"first", 1}, {"last", 3}, {"count", 3}}},
                {"points", json::array({{{"command", "nssim run x.json"},
                                         {"outages", json::array({{{"index", 0}}})}}})}};
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    SeedRecord record;
    record.seed = seed;
    record.verdict = "pass";
    record.figures["outages[0].route_health.lost.max"] = lost_ms * static_cast<double>(4 - seed);
    record.figures["route_health.missing.max"] = std::nullopt;  // no missing window that seed
    record.figures["route_health.stale.max"] = 1000.0 * static_cast<double>(seed);
    side.records.push_back(std::move(record));
  }
  return side;
}

const json* cdf_of(const json& comparison, const std::string& figure) {
  for (const auto& cdf : comparison["cdfs"]) {
    if (cdf["figure"] == figure) return &cdf;
  }
  return nullptr;
}

TEST(CompareSeeds, RouteWindowsGetCdfsPerOutageAndForTheWholeRun) {
  const json comparison = build_seed_comparison(side("A", 1000), side("B", 2000));
  const json* lost = cdf_of(comparison, "outages[0].route_health.lost.max");
  ASSERT_NE(lost, nullptr);
  EXPECT_EQ((*lost)["caption"], "longest lost route the outage opened");
  EXPECT_EQ((*lost)["a"], json::parse("[1000, 2000, 3000]"));
  EXPECT_EQ((*lost)["b"], json::parse("[2000, 4000, 6000]"));
  const json* stale = cdf_of(comparison, "route_health.stale.max");
  ASSERT_NE(stale, nullptr);
  EXPECT_EQ((*stale)["caption"], "longest stale route of the run");
  const json* missing = cdf_of(comparison, "route_health.missing.max");
  ASSERT_NE(missing, nullptr);
  EXPECT_EQ((*missing)["a"], json::array());
  ASSERT_NE(cdf_of(comparison, "route_health.lost.max"), nullptr);
  EXPECT_EQ(comparison["cdfs"].size(), 4u + 3u);  // four per outage, three for the run
}

TEST(CompareSeeds, RouteWindowCdfsReadInSeconds) {
  const std::string html =
      render_seed_comparison_html(build_seed_comparison(side("A", 1000), side("B", 2000)));
  const auto at = html.find("CDF of outages[0].route_health.lost.max");
  ASSERT_NE(at, std::string::npos);
  EXPECT_NE(html.substr(at, html.find("</svg>", at) - at).find(">6.0 s</text>"), std::string::npos);
}

}  // namespace
}  // namespace nssim::reports

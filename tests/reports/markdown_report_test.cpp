// report.md: the golden rendering of a hand-made report, and the rules behind it (never for
// null, escaped cells, short spans in milliseconds, missing sections, a NameServer's outcome,
// the route-health lists and their cap).
#include "reports/markdown/markdown_report.h"

#include <gtest/gtest.h>

#include "report_fixtures.h"
#include "reports/markdown/markdown_format.h"

namespace nssim::reports {
namespace {

using nlohmann::json;

using testing::has;

// The expected file was read line by line against the fixture; regenerate it only on purpose.
TEST(MarkdownReport, FixtureRendersAsTheReviewedGoldenFile) {
  EXPECT_EQ(render_markdown(testing::fixture_json("two_faults.report.json")),
            testing::fixture_text("two_faults.report.md"));
}

TEST(MarkdownReport, NameServerThatNeverDroppedTheBrokerReadsNever) {
  const auto report = json::parse(R"({"outages": [{"kind": "kill", "brokers": ["b"],
    "start_ms": 0, "end_ms": null, "fault": 0,
    "nameservers": [{"nameserver": "ns-0", "broker_addr": "a:1", "dropped_at_ms": null}]}]})");
  EXPECT_TRUE(has(render_markdown(report), "| ns-0 | a:1 | never |  | n/a |  |\n"));
}

TEST(MarkdownReport, NameServerThatKeptTheBrokerReadsItsOutcome) {
  auto report = json::parse(R"({"outages": [{"kind": "pause", "brokers": ["b"],
    "start_ms": 0, "end_ms": 1000, "fault": 0, "nameservers": [
    {"nameserver": "ns-0", "broker_addr": "a:1", "delay_ms": null, "outcome": "kept_reachable",
     "unreachable_ms": 0},
    {"nameserver": "ns-1", "broker_addr": "a:1", "delay_ms": null,
     "outcome": "kept_within_rules", "unreachable_ms": 999},
    {"nameserver": "ns-2", "broker_addr": "a:1", "delay_ms": null, "outcome": "missed",
     "unreachable_ms": 130000},
    {"nameserver": "ns-3", "broker_addr": "a:1", "delay_ms": 5, "outcome": "dropped",
     "path": "unregister"}]}]})");
  const auto text = render_markdown(report);
  EXPECT_TRUE(has(text, "| ns-0 | a:1 | never |  | n/a | kept: reachable |\n"));
  EXPECT_TRUE(has(text,
                  "| ns-1 | a:1 | never |  | n/a | kept: back within the rules "
                  "(unreachable for 999 ms) |\n"));
  EXPECT_TRUE(has(text,
                  "| ns-2 | a:1 | never |  | n/a | **missed**: unreachable for 130.0 s, "
                  "kept |\n"));
  EXPECT_TRUE(has(text, "| ns-3 | a:1 | 5 ms | unregister | n/a | dropped |\n"));
}

TEST(MarkdownReport, WholeRunRouteHealthListsTheFirstTwentyWindowsOfEachList) {
  auto report = testing::fixture_json("two_faults.report.json");
  auto& health = report["route_health"];
  const json route = health["route_windows"][0];
  const json missing = health["missing_windows"][0];
  health["route_windows"] = json::array();
  health["missing_windows"] = json::array();
  for (int i = 0; i < 21; ++i) health["route_windows"].push_back(route);
  for (int i = 0; i < 20; ++i) health["missing_windows"].push_back(missing);
  health["stale"]["count"] = 20;  // with the open lost window: 21 routes
  health["missing"]["count"] = 20;
  const auto text = render_markdown(report);
  const auto routes = text.substr(text.find("### Producers' stale and lost routes"));
  EXPECT_EQ(testing::count(routes.substr(0, routes.find("### Brokers")),
                           "| producer-0 | broker-a | broker-a-0 | stale |"),
            20u);
  EXPECT_TRUE(has(text, "The first 20 of 21, by start; result.json lists up to the first 1000."));
  EXPECT_EQ(testing::count(text, "| ns-0 | broker-a | broker-a-0 | 5.0 s |"), 20u);
  EXPECT_FALSE(has(text, "The first 20 of 20"));
}

TEST(MarkdownReport, ReportWithoutRouteHealthHasNoSuchSection) {
  auto report = testing::fixture_json("two_faults.report.json");
  report.erase("route_health");
  for (auto& outage : report["outages"]) outage.erase("route_health");
  EXPECT_FALSE(has(render_markdown(report), "Route health"));
}

TEST(MarkdownReport, PipesInCellsAreEscaped) {
  const auto report = json::parse(R"({"expectations": [{"source": "x", "passed": false,
    "measured": null, "expected": 1, "message": "left | right"}]})");
  EXPECT_TRUE(has(render_markdown(report), "| FAIL | `x` | n/a | 1 | left \\| right |\n"));
}

TEST(MarkdownReport, RunWithoutOutagesOrExpectationsSaysSo) {
  const auto text = render_markdown(json::parse(R"({"scenario": {"name": "calm", "profile": "5.x",
    "seed": 1}, "outages": [], "verdict": "no_expectations"})"));
  EXPECT_TRUE(text.starts_with("# calm (profile 5.x, seed 1): no expectations\n"));
  EXPECT_TRUE(has(text, "No fault touched a broker."));
  EXPECT_TRUE(has(text, "The scenario sets no expectations."));
  EXPECT_TRUE(has(text, "route views never differed"));
}

TEST(MarkdownReport, EndsWithExactlyOneNewline) {
  const auto text = render_markdown(json::object());
  ASSERT_GE(text.size(), 2U);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_NE(text[text.size() - 2], '\n');
}

TEST(MarkdownFormat, CellsKeepToOneLine) {
  EXPECT_EQ(markdown::escape_cell("a|b\nc"), "a\\|b c");
  EXPECT_EQ(markdown::table({"h"}, {{"x|y"}}), "| h |\n| --- |\n| x\\|y |\n\n");
}

}  // namespace
}  // namespace nssim::reports

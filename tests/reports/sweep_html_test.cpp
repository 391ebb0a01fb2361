// sweep.html: one histogram per headline figure and outage (a panel per point), RocketMQ's
// predicted window where there is one, the worst seeds' replay commands, the grid's p50 / p99
// chart, notes for figures without values, escaping of hostile strings, and identical bytes.
#include "reports/sweep/sweep_html.h"

#include <gtest/gtest.h>

#include "report_fixtures.h"
#include "reports/html/html_escape.h"

namespace nssim::reports {
namespace {

using testing::fixture_json;

using testing::count;

using testing::svg_by_id;

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

TEST(SweepHtml, OneHistogramPerHeadlineFigurePerOutage) {
  const std::string single = render_sweep_html(fixture_json("sweep_single.json"));
  EXPECT_EQ(count(single, "aria-label=\"Histogram over seeds of "), 4u);
  for (const char* id : {"hist-o0-removal", "hist-o0-stale", "hist-o0-lost", "hist-o0-failed"}) {
    EXPECT_FALSE(svg_by_id(single, id).empty()) << id;
  }
  // The grid's second outage has no removal, stale or lost route values: only its failed sends.
  const std::string grid = render_sweep_html(fixture_json("sweep_grid.json"));
  EXPECT_EQ(count(grid, "aria-label=\"Histogram over seeds of "), 5u);
  EXPECT_FALSE(svg_by_id(grid, "hist-o1-failed").empty());
}

TEST(SweepHtml, EveryNonEmptyBinHasATooltipWithItsRangeInSeconds) {
  const std::string removal =
      svg_by_id(render_sweep_html(fixture_json("sweep_single.json")), "hist-o0-removal");
  const auto histogram =
      fixture_json("sweep_single.json")["points"][0]["figures"]["outages[0].nameserver_drop_ms.max"]
                                       ["histogram"];
  std::size_t non_empty = 0;
  for (const auto& bin : histogram["counts"]) non_empty += bin.get<int>() > 0 ? 1 : 0;
  EXPECT_EQ(count(removal, "class=\"sw-bar sw-removal\""), non_empty);
  EXPECT_TRUE(contains(removal, "<title>slowest NameServer: 110.7\u2013111.6 s: "));
  EXPECT_TRUE(contains(removal, "class=\"sw-second\""));  // the fastest NameServer's outlines
}

TEST(SweepHtml, PercentilesAreLabelledLines) {
  const std::string stale =
      svg_by_id(render_sweep_html(fixture_json("sweep_single.json")), "hist-o0-stale");
  EXPECT_EQ(count(stale, "class=\"sw-pline"), 2u);
  EXPECT_TRUE(contains(stale, ">p50 128.0 s</text>"));
  EXPECT_TRUE(contains(stale, ">p99 148.0 s</text>"));
}

TEST(SweepHtml, PredictedBandOnlyWherePredicted) {
  nlohmann::json sweep = fixture_json("sweep_single.json");
  const std::string html = render_sweep_html(sweep);
  EXPECT_TRUE(contains(svg_by_id(html, "hist-o0-removal"), "class=\"predicted\""));
  EXPECT_TRUE(contains(svg_by_id(html, "hist-o0-stale"), "class=\"predicted\""));
  EXPECT_FALSE(contains(svg_by_id(html, "hist-o0-failed"), "class=\"predicted\""));
  EXPECT_TRUE(contains(html, "98.7 % of 1000 seeds inside RocketMQ&#39;s predicted window"));

  sweep["points"][0]["outages"][0]["predicted"] = nullptr;
  const std::string unpredicted = render_sweep_html(sweep);
  EXPECT_FALSE(contains(unpredicted, "class=\"predicted\""));
  EXPECT_FALSE(svg_by_id(unpredicted, "hist-o0-removal").empty());
}

TEST(SweepHtml, WorstSeedCommandsAreEscapedAndReplayable) {
  const std::string html = render_sweep_html(fixture_json("sweep_single.json"));
  const std::string command =
      "nssim run scenarios/broker_poweroff.json --profile 5.x --set "
      "'producers[0].rate_per_s=2' --seed 771";
  const std::string escaped = "<code>" + html::html_escape(command) + "</code>";
  const auto worst = html.find("id=\"worst-seeds\"");
  ASSERT_NE(worst, std::string::npos);
  EXPECT_TRUE(contains(html.substr(worst), escaped));
  EXPECT_TRUE(contains(html.substr(html.find("id=\"expectations\"")), escaped));
  EXPECT_FALSE(contains(html, command));  // the quotes are never raw
}

TEST(SweepHtml, GridGivesOnePointPerGridValueOnTheLineCharts) {
  const std::string html = render_sweep_html(fixture_json("sweep_grid.json"));
  const std::string windows = svg_by_id(html, "grid-o0-windows");
  ASSERT_FALSE(windows.empty());
  // Three grid values: three markers per series (plus one in the legend).
  EXPECT_EQ(count(windows, "<path class=\"sw-mark sw-stale\""), 2u * 3u + 2u);
  EXPECT_EQ(count(windows,
                  "<title>producers[0].config.pollNameServerInterval=30000: "
                  "stale route p99 "),
            1u);
  EXPECT_EQ(count(windows, "class=\"sw-predicted-max sw-stale\""), 3u + 1u);
  EXPECT_FALSE(svg_by_id(html, "grid-o0-failed").empty());
  // The second outage has no windows at any point: a note, not an empty chart.
  EXPECT_TRUE(svg_by_id(html, "grid-o1-windows").empty());
  EXPECT_TRUE(contains(html, "No point has a value for these figures."));
  // Each histogram has a panel per point on the shared axis.
  EXPECT_EQ(count(svg_by_id(html, "hist-o0-stale"), "class=\"sw-pline\""), 3u);
  // No grid, no grid charts.
  EXPECT_FALSE(contains(render_sweep_html(fixture_json("sweep_single.json")), "id=\"grid-o"));
}

TEST(SweepHtml, FiguresWithoutValuesGiveANoteInsteadOfAChart) {
  const std::string html = render_sweep_html(fixture_json("sweep_grid.json"));
  EXPECT_TRUE(svg_by_id(html, "hist-o1-removal").empty());
  EXPECT_TRUE(svg_by_id(html, "hist-o1-stale").empty());
  EXPECT_TRUE(svg_by_id(html, "hist-o1-lost").empty());
  EXPECT_EQ(count(html,
                  "No seed has a value for this figure at any point, so there is no "
                  "histogram."),
            3u);
  // One point: the note says how many seeds never had a value.
  nlohmann::json single = fixture_json("sweep_single.json");
  auto& stale = single["points"][0]["figures"]["outages[0].producers.stale_route_ms.max"];
  stale = fixture_json(
      "sweep_grid.json")["points"][0]["figures"]["outages[1].producers.stale_route_ms.max"];
  stale["never"] = 1000;
  const std::string one = render_sweep_html(single);
  EXPECT_TRUE(svg_by_id(one, "hist-o0-stale").empty());
  EXPECT_TRUE(contains(one,
                       "No seed has a value for this figure (1000 never), so there is no "
                       "histogram."));
  // A point lacking a figure another point has: an empty panel, said in words.
  nlohmann::json sweep = fixture_json("sweep_grid.json");
  sweep["points"][1]["figures"].erase("outages[0].producers.stale_route_ms.max");
  EXPECT_TRUE(contains(svg_by_id(render_sweep_html(sweep), "hist-o0-stale"), "not in this sweep"));
}

TEST(SweepHtml, LostRouteHistogramReadsInSeconds) {
  const std::string lost =
      svg_by_id(render_sweep_html(fixture_json("sweep_single.json")), "hist-o0-lost");
  EXPECT_TRUE(contains(lost, ">p50 15.8 s</text>"));
  EXPECT_TRUE(contains(lost, ">p99 29.6 s</text>"));
  EXPECT_TRUE(contains(lost, "class=\"sw-bar sw-lost\""));
  EXPECT_FALSE(contains(lost, "class=\"predicted\""));  // RocketMQ's rules predict no bound
}

TEST(SweepHtml, WorstSeedsIncludeTheRouteWindows) {
  const std::string html = render_sweep_html(fixture_json("sweep_single.json"));
  const std::string worst = html.substr(html.find("id=\"worst-seeds\""));
  for (const char* figure : {"outages[0].route_health.lost.max", "route_health.stale.max",
                             "route_health.lost.max", "route_health.missing.max"}) {
    EXPECT_TRUE(contains(worst, std::string("<tr><td><code>") + figure + "</code></td>")) << figure;
  }
  EXPECT_TRUE(contains(worst,
                       "<tr><td><code>route_health.missing.max</code></td><td class=\"num\">9 "
                       "ms</td><td class=\"num\">77</td>"));
}

TEST(SweepHtml, SingleBinHistogramIsDrawn) {
  const std::string failed =
      svg_by_id(render_sweep_html(fixture_json("sweep_grid.json")), "hist-o1-failed");
  EXPECT_EQ(count(failed, "class=\"sw-bar sw-failed\""), 3u);
  EXPECT_TRUE(contains(failed, "<title>0 failed sends: 200 seeds</title>"));
}

TEST(SweepHtml, MissingPartsDoNotThrow) {
  EXPECT_NO_THROW(render_sweep_html(nlohmann::json::object()));
  EXPECT_NO_THROW(render_sweep_html(nlohmann::json::array()));
  nlohmann::json sweep = fixture_json("sweep_single.json");
  sweep["points"][0]["figures"] = nullptr;
  sweep["points"][0]["outages"][0]["brokers"] = 7;
  sweep["points"][0]["outages"][0]["predicted"] = "soon";
  nlohmann::json odd = fixture_json("sweep_single.json");
  auto& failed = odd["points"][0]["figures"]["outages[0].sends.failed.total"];
  failed["histogram"] = {{"lo", 3}, {"width", 0}, {"counts", {5, "x", nullptr}}};
  failed["p50"] = "3";
  EXPECT_FALSE(svg_by_id(render_sweep_html(odd), "hist-o0-failed").empty());
  std::string html;
  EXPECT_NO_THROW(html = render_sweep_html(sweep));
  EXPECT_TRUE(contains(html, "not in this sweep"));
}

TEST(SweepHtml, HostileStringsAreEscaped) {
  nlohmann::json sweep = fixture_json("sweep_grid.json");
  const std::string hostile = "<script>alert('x')</script>";
  sweep["scenario"]["description"] = hostile;
  sweep["scenario"]["name"] = hostile;
  sweep["points"][0]["label"] = hostile;
  sweep["points"][0]["grid_values"][0] = hostile;
  sweep["points"][0]["command"] = hostile;
  sweep["points"][0]["outages"][0]["kind"] = hostile;
  sweep["points"][0]["figures"]["outages[0].sends.failed.total"]["max_command"] = hostile;
  const std::string html = render_sweep_html(sweep);
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_TRUE(contains(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"));
}

TEST(SweepHtml, SelfContainedAndByteIdentical) {
  const nlohmann::json sweep = fixture_json("sweep_grid.json");
  const std::string html = render_sweep_html(sweep);
  EXPECT_EQ(html, render_sweep_html(sweep));
  EXPECT_FALSE(contains(html, "<script"));
  EXPECT_FALSE(contains(html, "src="));
  EXPECT_FALSE(contains(html, "href="));
  EXPECT_FALSE(contains(html, "url("));
}

}  // namespace
}  // namespace nssim::reports

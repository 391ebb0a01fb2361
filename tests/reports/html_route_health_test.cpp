// Route health in the HTML report: a NameServer that kept the broker judged by its outcome (only
// `missed` is red), the route-health table per outage and for the whole run, the stale and lost
// series of the producer chart, the striped missing stretches of the timeline and lanes for
// brokers only a NameServer missed, and the whole run's window lists with their cap.
#include <gtest/gtest.h>

#include "report_fixtures.h"
#include "reports/html/html_report.h"

namespace nssim::reports {
namespace {

using testing::count;
using testing::svg_by_id;

nlohmann::json small_report() { return testing::fixture_json("html_small_report.json"); }

// The part of a page from `start` (a tag's opening text) to the next `end` after it.
std::string part(const std::string& html, const std::string& start, const std::string& end) {
  const auto from = html.find(start);
  if (from == std::string::npos) return {};
  return html.substr(from, html.find(end, from) - from);
}

std::string detection_table(const std::string& html) {
  return part(html, "<table class=\"detection\">", "</table>");
}

TEST(HtmlRouteHealth, KeptBrokersAreJudgedByTheirOutcomeAndOnlyMissedIsRed) {
  nlohmann::json report = small_report();
  auto& entries = report["outages"][0]["nameservers"];
  for (auto& entry : entries) {
    entry["delay_ms"] = nullptr;
    entry["dropped_at_ms"] = nullptr;
    entry["path"] = nullptr;
  }
  entries[0]["outcome"] = "kept_reachable";
  entries[0]["unreachable_ms"] = 0;
  entries[1]["outcome"] = "kept_within_rules";
  entries[1]["unreachable_ms"] = 6000;  // the predicted max_ms: still within the rules
  entries.push_back(entries[1]);
  entries[2]["nameserver"] = "ns-2";
  entries[2]["outcome"] = "missed";
  entries[2]["unreachable_ms"] = 130000;
  const std::string table = detection_table(render_html_report(report));
  EXPECT_NE(table.find("<td class=\"good\">kept: reachable</td>"), std::string::npos);
  EXPECT_NE(table.find("<td class=\"good\">kept: back within the rules (unreachable for 6.0 s)"
                       "</td>"),
            std::string::npos);
  EXPECT_NE(table.find("<td class=\"bad\">missed: unreachable for 130.0 s, kept</td>"),
            std::string::npos);
  EXPECT_EQ(count(table, "class=\"bad\""), 1u);
}

TEST(HtmlRouteHealth, DroppedBrokersAndReportsWithoutOutcomesReadAsBefore) {
  nlohmann::json report = small_report();
  EXPECT_EQ(count(detection_table(render_html_report(report)), "<td class=\"good\">within</td>"),
            2u);
  report["outages"][0]["nameservers"][0]["delay_ms"] = nullptr;
  report["outages"][0]["nameservers"][0].erase("outcome");
  EXPECT_NE(detection_table(render_html_report(report)).find("<td class=\"bad\">never</td>"),
            std::string::npos);
}

TEST(HtmlRouteHealth, EachOutageHasARouteHealthTableWithCausesCounted) {
  const std::string html = render_html_report(small_report());
  const std::string outage =
      part(html,
           "<table class=\"route-health\"><caption>Route health: the windows this outage "
           "opened",
           "</table>");
  ASSERT_FALSE(outage.empty());
  EXPECT_NE(outage.find("<tr><th>stale route (producers)</th><td class=\"num\">3</td>"
                        "<td class=\"num\">7.0 s</td><td class=\"num\">7.0 s</td>"
                        "<td class=\"num\">9.0 s</td><td class=\"num\">9.0 s</td>"
                        "<td class=\"num\">0</td><td class=\"num\">23.0 s</td>"
                        "<td>broker_powered_off 3</td></tr>"),
            std::string::npos);
  EXPECT_NE(outage.find("<tr><th>missing broker (NameServers)</th><td class=\"num\">2</td>"
                        "<td class=\"num\">3 ms</td><td class=\"num\">3 ms</td>"
                        "<td class=\"num\">4 ms</td><td class=\"num\">4 ms</td>"
                        "<td class=\"num\">0</td><td class=\"num\">7 ms</td>"
                        "<td>awaiting_registration 2</td></tr>"),
            std::string::npos);
  // The whole run counts the open lost window too: 4 windows, 1 still open, two causes.
  EXPECT_NE(html.find("<tr><th>lost route (producers)</th><td class=\"num\">4</td>"
                      "<td class=\"num\">1.0 s</td><td class=\"num\">2.0 s</td>"
                      "<td class=\"num\">3.0 s</td><td class=\"num\">3.0 s</td>"
                      "<td class=\"num\">1</td><td class=\"num\">9.0 s</td>"
                      "<td>awaiting_route_poll 3, write_perm_wiped 1</td></tr>"),
            std::string::npos);
}

TEST(HtmlRouteHealth, ProducerChartDrawsStaleAndLostAsTwoSeriesWithTooltips) {
  const std::string html = render_html_report(small_report());
  const std::string chart = svg_by_id(html, "producer-routes");
  ASSERT_FALSE(chart.empty());
  EXPECT_EQ(count(chart, "class=\"stale\""), 2u);
  EXPECT_NE(chart.find("<title>5.0 s to 12.0 s: 3 producers held a stale route</title>"),
            std::string::npos);
  EXPECT_NE(chart.find("<title>12.0 s to 14.0 s: 1 producer held a stale route</title>"),
            std::string::npos);
  EXPECT_EQ(count(chart, "class=\"lost\""), 4u);
  EXPECT_NE(chart.find("<title>20.0 s to 21.0 s: 3 producers had a lost route</title>"),
            std::string::npos);
  EXPECT_NE(chart.find("<title>27.0 s to 30.0 s: 1 producer had a lost route</title>"),
            std::string::npos);
  EXPECT_EQ(count(chart, "class=\"predicted\""), 1u);  // the stale route's band only
  EXPECT_NE(html.find("producers with a lost route</span>"), std::string::npos);
  EXPECT_NE(html.find("<h3>Producers with a stale or lost route</h3>"), std::string::npos);
}

TEST(HtmlRouteHealth, PanelWithoutProducersSaysSo) {
  nlohmann::json report = small_report();
  for (auto& second : report["timeseries"]) second["lost_producers"] = 0;
  const std::string chart = svg_by_id(render_html_report(report), "producer-routes");
  EXPECT_EQ(count(chart, "class=\"lost\""), 0u);
  EXPECT_NE(chart.find(">no producer lost a route</text>"), std::string::npos);
  EXPECT_EQ(chart.find(">no producer held a stale route</text>"), std::string::npos);
}

TEST(HtmlRouteHealth, MissingStretchesAreStripedBandsWithStartEndAndCause) {
  const std::string html = render_html_report(small_report());
  const std::string timeline = svg_by_id(html, "timeline");
  EXPECT_EQ(count(timeline, "<g class=\"missing\">"), 2u);
  EXPECT_EQ(count(timeline, "class=\"missing-stripes\""), 2u);
  EXPECT_NE(timeline.find("<title>ns-1 was missing broker-a-0 from its routes from 20.0 s to "
                          "20.0 s (4 ms, awaiting_registration)</title>"),
            std::string::npos);
  EXPECT_NE(html.find("missing from the NameServer&#39;s routes</span>"), std::string::npos);
}

TEST(HtmlRouteHealth, BrokerOnlyANameServerMissedGetsALane) {
  nlohmann::json report = small_report();
  auto& broker_c = report["timelines"]["brokers"][2];
  ASSERT_EQ(broker_c["node"], "broker-c-0");
  broker_c["in_routes"][0]["missing"] = {
      {{"start_ms", 12000}, {"end_ms", nullptr}, {"cause", "nameserver_restarted"}}};
  const std::string html = render_html_report(report);
  const std::string timeline = svg_by_id(html, "timeline");
  EXPECT_EQ(count(timeline, "class=\"lane-label\""), 3u);
  EXPECT_NE(timeline.find(">broker-c-0</text>"), std::string::npos);
  EXPECT_NE(timeline.find("<title>ns-0 was missing broker-c-0 from its routes from 12.0 s to the "
                          "end of the run (nameserver_restarted)</title>"),
            std::string::npos);
  EXPECT_EQ(html.find("not drawn"), std::string::npos);  // no broker is left out
}

TEST(HtmlRouteHealth, WholeRunListsEveryWindowWithItsCauses) {
  const std::string html = render_html_report(small_report());
  const std::string section = part(html, "<section id=\"route-health\">", "</section>");
  const std::string routes = part(section, "<table class=\"route-windows\">", "</table>");
  EXPECT_EQ(count(routes, "<tr><td>"), 7u);
  EXPECT_NE(routes.find("<tr><td>producer-0</td><td>broker-b</td><td>broker-b-0</td><td>lost</td>"
                        "<td class=\"num\">27.0 s</td><td class=\"num\">open at the end</td>"
                        "<td class=\"num\">\u2014</td><td>write_perm_wiped</td><td>run_end</td>"
                        "</tr>"),
            std::string::npos);
  const std::string missing = part(section, "<table class=\"missing-windows\">", "</table>");
  EXPECT_EQ(count(missing, "<tr><td>"), 2u);
  EXPECT_NE(missing.find("<tr><td>ns-0</td><td>broker-a</td><td>broker-a-0</td>"
                         "<td class=\"num\">20.0 s</td><td class=\"num\">20.0 s</td>"
                         "<td class=\"num\">3 ms</td><td>awaiting_registration</td>"
                         "<td>registered</td></tr>"),
            std::string::npos);
  EXPECT_EQ(section.find("The first"), std::string::npos);  // all of them are shown
}

TEST(HtmlRouteHealth, WholeRunShowsTheFirstFiftyWindowsAndSaysHowManyThereAre) {
  nlohmann::json report = small_report();
  auto& health = report["route_health"];
  const nlohmann::json window = health["route_windows"][0];
  health["route_windows"] = nlohmann::json::array();
  for (int i = 0; i < 51; ++i) health["route_windows"].push_back(window);
  health["stale"]["count"] = 51 - 4;  // with the 4 lost windows: 51 in all
  const std::string section =
      part(render_html_report(report), "<section id=\"route-health\">", "</section>");
  EXPECT_EQ(count(part(section, "<table class=\"route-windows\">", "</table>"), "<tr><td>"), 50u);
  EXPECT_NE(section.find("The first 50 of 51 stale and lost routes, by start; result.json lists "
                         "up to the first 1000."),
            std::string::npos);
  health["stale"]["count"] = 50 - 4;  // exactly 50: every window is shown, no note
  health["route_windows"].erase(health["route_windows"].end() - 1);
  EXPECT_EQ(render_html_report(report).find("The first 50"), std::string::npos);
}

}  // namespace
}  // namespace nssim::reports

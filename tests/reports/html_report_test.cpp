// The HTML report: one lane per faulted broker with a row per NameServer, a tooltip per detection,
// one section per outage, the expectations, escaping of hostile strings, no external resources,
// bounded bar counts for long runs, and byte-identical output (route health:
// html_route_health_test.cpp).
#include "reports/html/html_report.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "report_fixtures.h"
#include "reports/html/html_escape.h"

namespace nssim::reports {
namespace {

nlohmann::json small_html_report() {
  const char* source = std::getenv("NSSIM_SOURCE_DIR");
  std::ifstream file(std::string(source != nullptr ? source : ".") +
                     "/tests/reports/fixtures/html_small_report.json");
  EXPECT_TRUE(file.good()) << "fixture html_small_report.json not found";
  return nlohmann::json::parse(file);
}

using testing::count;

using testing::svg_by_id;

TEST(HtmlReport, OneLanePerFaultedBrokerAndOtherBrokersInOneLine) {
  const std::string html = render_html_report(small_html_report());
  const std::string timeline = svg_by_id(html, "timeline");
  ASSERT_FALSE(timeline.empty());
  EXPECT_EQ(count(timeline, "class=\"lane-label\""), 2u);
  EXPECT_NE(timeline.find(">broker-a-0</text>"), std::string::npos);
  EXPECT_NE(timeline.find(">broker-b-0</text>"), std::string::npos);
  EXPECT_EQ(timeline.find("broker-c-0"), std::string::npos);
  EXPECT_NE(html.find("1 broker that no fault touched and no NameServer missed is not drawn "
                      "(broker-c-0)"),
            std::string::npos);
}

TEST(HtmlReport, OneRowPerNameServerUnderEachLane) {
  const std::string timeline = svg_by_id(render_html_report(small_html_report()), "timeline");
  EXPECT_EQ(count(timeline, "class=\"row-label\""), 4u);
  EXPECT_EQ(count(timeline, ">in ns-0 routes</text>"), 2u);
  EXPECT_EQ(count(timeline, ">in ns-1 routes</text>"), 2u);
}

TEST(HtmlReport, EveryDetectionHasATooltip) {
  const std::string timeline = svg_by_id(render_html_report(small_html_report()), "timeline");
  EXPECT_EQ(count(timeline, "class=\"detection "), 2u);
  EXPECT_NE(timeline.find("<title>ns-0 dropped broker-a-0 (10.1.0.1:10911) by idle_close at 9.0 s, "
                          "4.0 s after the fault (faults[0] poweroff)</title>"),
            std::string::npos);
  EXPECT_NE(timeline.find("<title>ns-1 dropped broker-a-0 (10.1.0.1:10911) by scan_expiry at "
                          "9.5 s, 4.5 s after the fault (faults[0] poweroff)</title>"),
            std::string::npos);
}

TEST(HtmlReport, PredictedWindowsAreDrawnBesideTheMeasuredOnes) {
  const std::string html = render_html_report(small_html_report());
  EXPECT_NE(
      svg_by_id(html, "timeline")
          .find("RocketMQ&#39;s rules predict ns-0 drops broker-a-0 between 8.0 s and 11.0 s"),
      std::string::npos);
  EXPECT_NE(svg_by_id(html, "producer-routes").find("class=\"predicted\""), std::string::npos);
  EXPECT_NE(svg_by_id(html, "windows-0").find("class=\"predicted\""), std::string::npos);
  EXPECT_EQ(svg_by_id(html, "windows-1").find("class=\"predicted\""), std::string::npos);
}

TEST(HtmlReport, FaultsAreShadedOnEveryChart) {
  const std::string html = render_html_report(small_html_report());
  for (const char* id : {"timeline", "producer-routes", "sends"}) {
    const std::string svg = svg_by_id(html, id);
    EXPECT_EQ(count(svg, "class=\"fault-shade\""), 1u) << id;
    EXPECT_EQ(count(svg, "class=\"fault-line admin\""), 1u) << id;
  }
}

TEST(HtmlReport, OneSectionPerOutageWithItsTables) {
  const std::string html = render_html_report(small_html_report());
  EXPECT_EQ(count(html, "<section class=\"outage\""), 2u);
  EXPECT_EQ(count(html, "<table class=\"detection\">"), 2u);
  EXPECT_EQ(count(html, "<table class=\"windows\">"), 2u);
  EXPECT_EQ(count(html, "<table class=\"sends\">"), 2u);
  EXPECT_EQ(count(html, "<table class=\"route-health\">"), 3u);  // per outage and the whole run
  EXPECT_NE(html.find("send_timeout_budget</th><td class=\"num\">13</td>"), std::string::npos);
}

TEST(HtmlReport, ExpectationsShowPassAndFail) {
  const std::string html = render_html_report(small_html_report());
  EXPECT_EQ(count(html, "<td class=\"good\">pass</td>"), 1u);
  EXPECT_EQ(count(html, "<td class=\"bad\">FAIL</td>"), 1u);
  EXPECT_NE(html.find("<strong>FAIL</strong> 1 of 2 expectations failed"), std::string::npos);
}

TEST(HtmlReport, HostileStringsAreEscaped) {
  nlohmann::json report = small_html_report();
  report["scenario"]["name"] = "<script>alert('x')</script>";
  report["scenario"]["description"] = "\"quoted\" & <b>bold</b>";
  report["timelines"]["brokers"][0]["node"] = "<img src=x onerror=alert(1)>";
  report["expectations"][0]["message"] = "</td><script>";
  const std::string html = render_html_report(report);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("<b>"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("&quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;"), std::string::npos);
}

TEST(HtmlReport, NoExternalResources) {
  const std::string html = render_html_report(small_html_report());
  const std::string xmlns = "http://www.w3.org/2000/svg";
  EXPECT_EQ(count(html, "http"), count(html, xmlns));
  for (const char* reference : {"src=", "href=", "url(", "@import", "<script", "<link"}) {
    EXPECT_EQ(html.find(reference), std::string::npos) << reference;
  }
}

TEST(HtmlReport, SameReportGivesTheSameBytes) {
  EXPECT_EQ(render_html_report(small_html_report()), render_html_report(small_html_report()));
}

TEST(HtmlReport, ReportWithoutTimelinesOrTimeseriesStillRenders) {
  nlohmann::json report = small_html_report();
  report.erase("timelines");
  report.erase("timeseries");
  const std::string html = render_html_report(report);
  EXPECT_TRUE(svg_by_id(html, "timeline").empty());
  EXPECT_NE(html.find("no timelines"), std::string::npos);
  EXPECT_NE(html.find("no time series"), std::string::npos);
  report.erase("route_health");
  EXPECT_NE(render_html_report(report).find("This report has no route health"), std::string::npos);
  EXPECT_EQ(count(html, "<section class=\"outage\""), 2u);
  EXPECT_NO_THROW(render_html_report(nlohmann::json::array()));
}

TEST(HtmlReport, LongRunsAreBinnedToAtMostSixHundredBars) {
  nlohmann::json report = small_html_report();
  const int seconds = 7200;
  report["scenario"]["duration_ms"] = seconds * 1000;
  report["timeseries"] = nlohmann::json::array();
  for (int t = 0; t < seconds; ++t) {
    report["timeseries"].push_back(
        {{"t_s", t}, {"ok", 5}, {"failed", {{"no_route", t % 2}}}, {"stale_producers", t % 3}});
  }
  const std::string sends = svg_by_id(render_html_report(report), "sends");
  EXPECT_GT(count(sends, "class=\"ok\""), 0u);
  EXPECT_LE(count(sends, "class=\"ok\""), 600u);
  EXPECT_LE(count(sends, "class=\"cause-no_route\""), 600u);
  EXPECT_NE(sends.find("mean of 15 s bins"), std::string::npos);
}

TEST(HtmlText, NumbersIgnoreLocaleAndNeverShowMinusZero) {
  using html::format_fixed;
  using html::html_escape;
  EXPECT_EQ(format_fixed(-0.04, 1), "0.0");
  EXPECT_EQ(format_fixed(2.25, 2), "2.25");
  EXPECT_EQ(html_escape("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
}

}  // namespace
}  // namespace nssim::reports

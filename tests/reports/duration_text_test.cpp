// duration_text: the one way a duration reads, and report.md and report.html of one run writing
// every duration that way (milliseconds below 1 s, seconds with one decimal from 1 s up).
#include "reports/duration_text.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "report_fixtures.h"
#include "reports/html/html_report.h"
#include "reports/markdown/markdown_report.h"

namespace nssim::reports {
namespace {

using nlohmann::json;

TEST(DurationText, MillisecondsBelowASecondSecondsWithOneDecimalFromOneUp) {
  EXPECT_EQ(duration_text(0.0), "0 ms");
  EXPECT_EQ(duration_text(3.0), "3 ms");
  EXPECT_EQ(duration_text(999.0), "999 ms");
  EXPECT_EQ(duration_text(999.4), "999 ms");
  EXPECT_EQ(duration_text(999.6), "1.0 s");
  EXPECT_EQ(duration_text(1000.0), "1.0 s");
  EXPECT_EQ(duration_text(135929.0), "135.9 s");
  EXPECT_EQ(duration_text(600000.0), "600.0 s");
  EXPECT_EQ(duration_text(-250.0), "-250 ms");
  EXPECT_EQ(duration_text(-1500.0), "-1.5 s");
  EXPECT_EQ(duration_text(json(1003), "never"), "1.0 s");
  EXPECT_EQ(duration_text(json(), "never"), "never");
  EXPECT_EQ(duration_text(json("x"), "n/a"), "n/a");
}

// Every "N s" / "N ms" text of a page that is not written the duration_text way: seconds with
// other than one decimal ("0.003 s", "12 s"), "0.0 s" (a span under a second hidden), no space
// ("0.0s", "3ms"), or 1000 ms and more.
std::string foreign_durations(const std::string& text) {
  static const std::regex foreign(
      R"((^|[^\w.])(\d+\.\d{2,} s\b|0\.0 s\b|\d+(\.\d+)?s\b|\d+ms\b|\d{4,} ms))");
  std::string found;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), foreign);
       it != std::sregex_iterator(); ++it) {
    found += "[" + (*it)[2].str() + "] ";
  }
  return found;
}

TEST(DurationText, ReportMarkdownAndHtmlWriteEveryDurationOneWay) {
  const json report = testing::fixture_json("two_faults.report.json");
  const std::string markdown = render_markdown(report);
  const std::string html = render_html_report(report);
  EXPECT_EQ(foreign_durations(markdown), "");
  EXPECT_EQ(foreign_durations(html), "");
  // The same figures, written the same way on both pages: a NameServer's 3 ms drop delay, the
  // 30 ms missing window and the 1.5 s stale route.
  const auto& outage = report["outages"][0];
  for (const json& ms :
       {outage["nameservers"][0]["delay_ms"], outage["route_health"]["missing"]["max"],
        outage["route_health"]["stale"]["max"]}) {
    const std::string text = duration_text(ms, "never");
    EXPECT_TRUE(testing::has(markdown, text)) << text;
    EXPECT_TRUE(testing::has(html, text)) << text;
  }
}

}  // namespace
}  // namespace nssim::reports

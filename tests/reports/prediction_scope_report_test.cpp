// An outage whose fault ends before RocketMQ's earliest removal (outages[].predicted.not_predicted)
// gets no predicted window in report.md or report.html: the reason is said in its place, and no
// band or legend swatch is drawn.
#include <gtest/gtest.h>

#include "report_fixtures.h"
#include "reports/html/html_report.h"
#include "reports/markdown/markdown_report.h"

namespace nssim::reports {
namespace {

using nlohmann::json;
using testing::count;
using testing::has;

json without_predictions() {
  json report = testing::fixture_json("two_faults.report.json");
  for (auto& outage : report["outages"]) {
    outage["predicted"] = {{"nameserver_removal_ms", nullptr},
                           {"producer_stale_route_ms", nullptr},
                           {"not_predicted", "fault_ends_before_earliest_removal"},
                           {"earliest_removal_ms", 90000}};
  }
  return report;
}

TEST(PredictionScopeReport, MarkdownSaysWhyThereIsNoPredictedWindow) {
  const std::string text = render_markdown(without_predictions());
  EXPECT_TRUE(has(text, "| none: the fault ends by the earliest removal, 90.0 s |"));
  EXPECT_FALSE(has(text, " .. "));
  // The fixture as reviewed does show its predicted windows.
  EXPECT_TRUE(has(render_markdown(testing::fixture_json("two_faults.report.json")), " .. "));
}

TEST(PredictionScopeReport, HtmlDrawsNoPredictedBand) {
  const std::string html = render_html_report(without_predictions());
  EXPECT_EQ(count(html, "class=\"predicted\""), 0u);
  EXPECT_TRUE(has(html, "none: the fault ends by the earliest removal, 90.0 s"));
  EXPECT_GT(count(render_html_report(testing::fixture_json("two_faults.report.json")),
                  "class=\"predicted\""),
            0u);
}

}  // namespace
}  // namespace nssim::reports

// The brokers' client tables in the documents (reports/README.md "Broker client tables"):
// report.md and report.html show the section only when result.json has one, after the client
// scheduler, with a row per listed broker and the scan expiries' delay only when there were any.
#include <gtest/gtest.h>

#include <string>

#include "report_fixtures.h"
#include "reports/html/html_report.h"
#include "reports/markdown/markdown_report.h"

namespace nssim::reports {
namespace {

using nlohmann::json;
using testing::has;

json broker_clients_section(std::int64_t scan_expiries) {
  const json delay = scan_expiries == 0
                         ? json{{"count", 0},     {"never", 0},     {"min", nullptr},
                                {"p50", nullptr}, {"p99", nullptr}, {"max", nullptr}}
                         : json{{"count", scan_expiries}, {"never", 0},    {"min", 120005},
                                {"p50", 124000},          {"p99", 129990}, {"max", 129990}};
  const json removals = {
      {"scan_expiry", scan_expiries}, {"channel_close", 1}, {"idle", 2}, {"restart", 3}};
  return {{"brokers", 1},
          {"heartbeats_processed", 40},
          {"producer_channels_at_end", 4},
          {"removals", removals},
          {"scan_expiry_delay_ms", delay},
          {"per_broker",
           {{{"node", "broker-a-0"},
             {"heartbeats_processed", 40},
             {"producer_channels_at_end", 4},
             {"removals", removals}}}}};
}

json report_with(std::int64_t scan_expiries) {
  json report = testing::fixture_json("two_faults.report.json");
  report["broker_clients"] = broker_clients_section(scan_expiries);
  return report;
}

TEST(BrokerClientsReport, NoSectionWithoutHeartbeats) {
  const json report = testing::fixture_json("two_faults.report.json");
  EXPECT_FALSE(has(render_markdown(report), "Broker client tables"));
  EXPECT_FALSE(has(render_html_report(report), "broker-clients"));
}

TEST(BrokerClientsReport, MarkdownHasARowPerBrokerAndTheDelayOnlyWithScanExpiries) {
  const std::string text = render_markdown(report_with(2));
  EXPECT_TRUE(has(text,
                  "## Broker client tables\n\n1 brokers processed 40 heartbeats and held 4 "
                  "producer channels at the end. A scan expiry came 124.0 s (p50), at most "
                  "130.0 s after the channel's last heartbeat.\n"));
  EXPECT_TRUE(has(text, "| broker-a-0 | 40 | 4 | 2 | 1 | 2 | 3 |\n"));
  EXPECT_LT(text.find("## Route health"), text.find("## Broker client tables"));
  EXPECT_LT(text.find("## Broker client tables"), text.find("## NameServer disagreement"));
  EXPECT_FALSE(has(render_markdown(report_with(0)), "A scan expiry came"));
}

TEST(BrokerClientsReport, HtmlHasItsOwnSection) {
  const std::string html = render_html_report(report_with(2));
  EXPECT_TRUE(has(html, "<section id=\"broker-clients\">\n<h2>Broker client tables</h2>"));
  EXPECT_TRUE(has(html, "<td>broker-a-0</td><td class=\"num\">40</td><td class=\"num\">4</td>"));
  EXPECT_TRUE(has(render_html_report(report_with(0)), "No scan expiry."));
}

}  // namespace
}  // namespace nssim::reports

// The client scheduler in the documents (reports/README.md "Client scheduler"): report.md and
// report.html show its section only when result.json has one, with the worst clients, the
// heartbeats per broker address and F - R per removal; a sweep's seed records take its
// distributions, not its lists, sweep.md gives its headlines their own table, and compare --seeds
// draws their CDFs when a side has them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "report_fixtures.h"
#include "reports/compare/compare_seeds.h"
#include "reports/html/html_report.h"
#include "reports/markdown/markdown_report.h"
#include "reports/sweep/sweep_figures.h"
#include "reports/sweep/sweep_files.h"

namespace nssim::reports {
namespace {

using nlohmann::json;
using testing::has;

json distribution(std::int64_t max) {
  return {{"count", 2}, {"never", 0}, {"min", 0}, {"p50", 0}, {"p99", max}, {"max", max}};
}

json scheduler_section() {
  return {
      {"clients", 2},
      {"route_polls", 8},
      {"heartbeat_runs", 4},
      {"heartbeat_attempts", 4},
      {"heartbeat_failures", 2},
      {"route_poll_delay_max_ms", distribution(9990)},
      {"route_poll_delay_p99_ms", distribution(9990)},
      {"behind_ms", distribution(10490)},
      {"f_minus_r_ms", distribution(10000)},
      {"per_client",
       {{{"name", "producer-0"},
         {"route_polls", 4},
         {"route_poll_delay_max_ms", 9990},
         {"route_poll_delay_p99_ms", 9990},
         {"behind_ms", 10490},
         {"heartbeat_runs", 3},
         {"heartbeat_attempts", 3},
         {"heartbeat_failures", 1}}}},
      {"heartbeats_by_broker",
       {{{"broker_addr", "10.0.0.5:10911"},
         {"broker_name", "broker-a"},
         {"broker_id", 0},
         {"attempts", 3},
         {"ok", 1},
         {"failed", {{"total", 2}, {"request_timeout", 1}, {"connect_timeout", 1}}}}}},
      {"removals",
       {{{"broker_name", "broker-a"},
         {"broker_addr", "10.0.0.5:10911"},
         {"removed_at_ms", 60000},
         {"clients", 3},
         {"f_minus_r_ms",
          {{"count", 2}, {"never", 1}, {"min", 0}, {"p50", 0}, {"p99", 10000}, {"max", 10000}}}}}}};
}

json report_with_scheduler() {
  json report = testing::fixture_json("two_faults.report.json");
  report["client_scheduler"] = scheduler_section();
  return report;
}

TEST(ClientSchedulerReport, NoSectionWithoutSchedulerRecords) {
  const json report = testing::fixture_json("two_faults.report.json");
  EXPECT_FALSE(has(render_markdown(report), "Client scheduler"));
  EXPECT_FALSE(has(render_html_report(report), "client-scheduler"));
}

TEST(ClientSchedulerReport, MarkdownListsWorstClientsHeartbeatsAndRemovals) {
  const std::string text = render_markdown(report_with_scheduler());
  EXPECT_TRUE(has(text, "## Client scheduler\n\n2 clients ran 8 route polls and 4 heartbeat runs"));
  EXPECT_TRUE(has(text, "Latest route poll: 10.0 s; longest behind: 10.5 s."));
  EXPECT_TRUE(has(text, "| producer-0 | 4 | 10.0 s | 10.0 s | 10.5 s | 3 | 1 |\n"));
  EXPECT_TRUE(has(text,
                  "| 10.0.0.5:10911 | broker-a | 0 | 3 | 1 | 2 | connect_timeout 1, "
                  "request_timeout 1 |\n"));
  EXPECT_TRUE(
      has(text, "| broker-a | 10.0.0.5:10911 | 60.0 s | 3 | 0 ms | 10.0 s | 10.0 s | 1 |\n"));
  // Between route health and the NameServers' disagreement.
  EXPECT_LT(text.find("## Route health"), text.find("## Client scheduler"));
  EXPECT_LT(text.find("## Client scheduler"), text.find("## NameServer disagreement"));
}

TEST(ClientSchedulerReport, HtmlHasItsOwnSection) {
  const std::string html = render_html_report(report_with_scheduler());
  EXPECT_TRUE(has(html, "<section id=\"client-scheduler\">\n<h2>Client scheduler</h2>"));
  EXPECT_TRUE(has(html, "<td>producer-0</td><td class=\"num\">4</td><td class=\"num\">10.0 s"));
  EXPECT_TRUE(has(html, "<td>connect_timeout 1, request_timeout 1</td>"));
  EXPECT_TRUE(has(html, "<td class=\"num\">60.0 s</td><td class=\"num\">3</td>"));
}

TEST(ClientSchedulerReport, SeedRecordsTakeTheDistributionsNotTheLists) {
  json report = {{"verdict", "pass"}, {"client_scheduler", scheduler_section()}};
  const auto figures = seed_record_of(report, 0, 1).figures;
  EXPECT_EQ(figures.at("client_scheduler.route_poll_delay_max_ms.max"), 9990.0);
  EXPECT_EQ(figures.at("client_scheduler.f_minus_r_ms.max"), 10000.0);
  EXPECT_EQ(figures.at("client_scheduler.heartbeat_failures"), 2.0);
  for (const auto& [path, value] : figures) {
    EXPECT_EQ(path.find("per_client"), std::string::npos) << path;
    EXPECT_EQ(path.find("removals"), std::string::npos) << path;
    EXPECT_EQ(path.find("heartbeats_by_broker"), std::string::npos) << path;
  }
  EXPECT_TRUE(is_time_figure("client_scheduler.f_minus_r_ms.max"));
  EXPECT_FALSE(is_time_figure("client_scheduler.f_minus_r_ms.never"));
  // A run without the section adds no scheduler figure.
  for (const auto& [path, value] : seed_record_of(json{{"verdict", "pass"}}, 0, 1).figures) {
    EXPECT_EQ(path.find("client_scheduler"), std::string::npos) << path;
  }
}

TEST(ClientSchedulerReport, SweepMarkdownGivesTheHeadlinesTheirOwnTable) {
  json sweep = testing::fixture_json("sweep_single.json");
  EXPECT_FALSE(has(render_sweep_markdown(sweep), "client scheduler"));
  sweep["points"][0]["figures"]["client_scheduler.f_minus_r_ms.max"] = {
      {"n", 3},      {"never", 0},  {"min", 1000},  {"p50", 2000},
      {"p90", 3000}, {"p99", 3000}, {"max", 30000}, {"mean", 2000}};
  const std::string text = render_sweep_markdown(sweep);
  const auto at = text.find("#### Whole run: client scheduler\n\n");
  ASSERT_NE(at, std::string::npos);
  EXPECT_TRUE(has(text.substr(at),
                  "| slowest first route poll after a broker removal (F - R) | 3 | 0 | 1.0 s | "
                  "2.0 s | 3.0 s | 3.0 s | 30.0 s |"));
}

SeedSide seed_side(const std::string& label, bool with_scheduler) {
  SeedSide side;
  side.label = label;
  side.sweep = {{"scenario", {{"name", "x"}}},
                {"seeds", {{"first", 1}, {"last", 2}, {"count", 2}}},
                {"points", json::array({{{"command", "nssim run x.json"}}})}};
  for (std::uint64_t seed = 1; seed <= 2; ++seed) {
    SeedRecord record;
    record.seed = seed;
    record.verdict = "pass";
    record.figures["route_health.stale.max"] = 1000.0;
    if (with_scheduler) {
      record.figures["client_scheduler.f_minus_r_ms.max"] = 30000.0 * static_cast<double>(seed);
    }
    side.records.push_back(std::move(record));
  }
  return side;
}

TEST(ClientSchedulerReport, CompareSeedsDrawsSchedulerCdfsOnlyWhenASideHasThem) {
  auto figures_of = [](const json& comparison) {
    std::vector<std::string> names;
    for (const auto& cdf : comparison["cdfs"]) names.push_back(cdf["figure"]);
    return names;
  };
  const auto without =
      figures_of(build_seed_comparison(seed_side("A", false), seed_side("B", false)));
  EXPECT_EQ(std::count(without.begin(), without.end(), "client_scheduler.f_minus_r_ms.max"), 0);
  const json comparison = build_seed_comparison(seed_side("A", false), seed_side("B", true));
  const auto with = figures_of(comparison);
  EXPECT_EQ(with.size(), without.size() + 1);
  EXPECT_EQ(with.back(), "client_scheduler.f_minus_r_ms.max");
  EXPECT_EQ(comparison["cdfs"].back()["b"], json::parse("[30000, 60000]"));
  EXPECT_EQ(comparison["cdfs"].back()["a"], json::array());
}

}  // namespace
}  // namespace nssim::reports

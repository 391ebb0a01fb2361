// File: tests of the two-run comparison (reports/compare/compare_report.h) on a small hand-made
// report: which figures become rows, how changes are measured and ranked, and what the Markdown and
// HTML documents show.
#include "reports/compare/compare_report.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace nssim::reports {
namespace {

using nlohmann::json;

// A report.json cut down to what the comparison reads.
json base_report() {
  return json::parse(R"({
    "schema": "nssim.report/1",
    "scenario": {"name": "broker_poweroff", "file": "scenarios/broker_poweroff.json",
                 "profile": "5.x", "seed": 1, "duration_ms": 900000},
    "settings": {"registerNameServerPeriod": 30000, "scanNotActiveBrokerInterval": 5000},
    "sends": {"total": 100, "ok": 100, "failed": {"total": 0, "no_route": 0}},
    "nameserver_disagreement": {"count": 1, "total_ms": 20,
                                "intervals": [{"start_ms": 10, "end_ms": 30, "duration_ms": 20}]},
    "timeseries": [{"t_s": 0, "ok": 3, "failed": {}, "stale_producers": 0}],
    "timelines": {"brokers": [], "nameservers": [], "detections": []},
    "outages": [{
      "fault": 0, "kind": "poweroff", "brokers": ["broker-a-0"], "start_ms": 300000,
      "end_ms": 600000,
      "nameservers": [{"nameserver": "ns-0", "broker_addr": "10.1.0.1:10911",
                       "dropped_at_ms": 410000, "delay_ms": 110000, "path": "idle_close"}],
      "producers": {"affected": 2,
                    "stale_route_ms": {"count": 2, "never": 0, "min": 90000, "max": 100000},
                    "per_producer": [{"name": "producer-0", "stale_route_ms": 90000},
                                     {"name": "producer-1", "stale_route_ms": 100000}]},
      "predicted": {"producer_stale_route_ms": {"min_ms": 90000, "max_ms": 155000}}
    }],
    "expectations": [{"source": "outages[0].producers.stale_route_ms.max <= 155000",
                      "passed": true, "message": "held"}],
    "verdict": "pass"
  })");
}

const json* find_row(const json& comparison, const std::string& figure) {
  for (const auto& section : comparison["sections"]) {
    for (const auto& row : section["figures"]) {
      if (row["figure"] == figure) return &row;
    }
  }
  return nullptr;
}

std::vector<std::string> change_figures(const json& comparison) {
  std::vector<std::string> figures;
  for (const auto& row : comparison["changes"]) figures.push_back(row["figure"]);
  return figures;
}

TEST(CompareReport, IdenticalReportsHaveNoChangesAndNoNotes) {
  const json comparison = build_comparison(base_report(), base_report(), "A", "B");
  EXPECT_EQ(comparison["schema"], "nssim.compare/1");
  EXPECT_TRUE(comparison["changes"].empty());
  EXPECT_TRUE(comparison["notes"].empty());
  ASSERT_EQ(comparison["sections"].size(), 2u);
  EXPECT_EQ(comparison["sections"][0]["title"], "whole run");
  EXPECT_EQ(comparison["sections"][1]["title"], "outages[0]: poweroff of broker-a-0 at 300.0 s");
  for (const auto& section : comparison["sections"]) {
    for (const auto& row : section["figures"]) EXPECT_FALSE(row["changed"].get<bool>());
  }
}

TEST(CompareReport, EveryNumericLeafOfOutagesSendsAndDisagreementIsARow) {
  const json comparison = build_comparison(base_report(), base_report(), "A", "B");
  for (const char* figure :
       {"sends.total", "sends.failed.no_route", "nameserver_disagreement.intervals[0].end_ms",
        "outages[0].start_ms", "outages[0].nameservers[0].delay_ms",
        "outages[0].producers.per_producer[1].stale_route_ms",
        "outages[0].predicted.producer_stale_route_ms.max_ms"}) {
    EXPECT_NE(find_row(comparison, figure), nullptr) << figure;
  }
  // Strings are not figures; the time series and timelines are not compared.
  EXPECT_EQ(find_row(comparison, "outages[0].nameservers[0].path"), nullptr);
  for (const auto& section : comparison["sections"]) {
    for (const auto& row : section["figures"]) {
      const std::string figure = row["figure"];
      EXPECT_NE(figure.rfind("time", 0), 0u) << figure;
    }
  }
}

TEST(CompareReport, SchedulerAndBrokerTableStatisticsAreRowsTheirListsAreNot) {
  json a = base_report();
  a["client_scheduler"] = {{"route_polls", 10},
                           {"route_poll_delay_max_ms", {{"max", 3000}}},
                           {"per_client", json::array({{{"route_polls", 10}}})},
                           {"heartbeats_by_broker", json::array({{{"attempts", 4}}})},
                           {"removals", json::array({{{"f_minus_r_ms", 5}}})}};
  a["broker_clients"] = {{"heartbeats_processed", 40},
                         {"removals", {{"scan_expiry", 1}}},
                         {"per_broker", json::array({{{"heartbeats_processed", 40}}})}};
  json b = a;
  b["client_scheduler"]["route_poll_delay_max_ms"]["max"] = 9000;
  const json comparison = build_comparison(a, b, "A", "B");
  for (const char* figure :
       {"client_scheduler.route_polls", "client_scheduler.route_poll_delay_max_ms.max",
        "broker_clients.heartbeats_processed", "broker_clients.removals.scan_expiry"}) {
    EXPECT_NE(find_row(comparison, figure), nullptr) << figure;
  }
  for (const char* list : {"client_scheduler.per_client[0].route_polls",
                           "client_scheduler.heartbeats_by_broker[0].attempts",
                           "client_scheduler.removals[0].f_minus_r_ms",
                           "broker_clients.per_broker[0].heartbeats_processed"}) {
    EXPECT_EQ(find_row(comparison, list), nullptr) << list;
  }
  EXPECT_TRUE((*find_row(comparison, "client_scheduler.route_poll_delay_max_ms.max"))["changed"]
                  .get<bool>());
}

TEST(CompareReport, ARowCarriesBothValuesTheDifferenceAndTheRelativeMove) {
  json b = base_report();
  b["outages"][0]["producers"]["stale_route_ms"]["max"] = 30000;
  const json comparison = build_comparison(base_report(), b, "A", "B");
  const json* row = find_row(comparison, "outages[0].producers.stale_route_ms.max");
  ASSERT_NE(row, nullptr);
  EXPECT_EQ((*row)["a"], 100000);
  EXPECT_EQ((*row)["b"], 30000);
  EXPECT_EQ((*row)["difference"], -70000);
  EXPECT_DOUBLE_EQ((*row)["relative"].get<double>(), -0.7);
  EXPECT_TRUE((*row)["changed"].get<bool>());
  EXPECT_EQ(format_change(*row),
            "outages[0].producers.stale_route_ms.max: 100.0 s -> 30.0 s "
            "(-70.0 s, -70.0%)");
}

TEST(CompareReport, BiggestMovesComeFirstAndLeavingZeroRanksAboveAll) {
  json b = base_report();
  b["sends"]["total"] = 101;                                      // +1%
  b["outages"][0]["producers"]["stale_route_ms"]["max"] = 30000;  // -70%
  b["sends"]["failed"]["total"] = 5;                              // 0 -> 5
  b["outages"][0]["producers"]["stale_route_ms"]["min"] = 99000;  // +10%
  const json comparison = build_comparison(base_report(), b, "A", "B");
  EXPECT_EQ(
      change_figures(comparison),
      (std::vector<std::string>{"sends.failed.total", "outages[0].producers.stale_route_ms.max",
                                "outages[0].producers.stale_route_ms.min", "sends.total"}));
  const json* row = find_row(comparison, "sends.failed.total");
  EXPECT_TRUE((*row)["relative"].is_null());
  EXPECT_EQ(format_change(*row), "sends.failed.total: 0 -> 5 (+5)");
}

TEST(CompareReport, PerItemFiguresStayInTheTablesButNotInTheSummary) {
  json b = base_report();
  b["outages"][0]["producers"]["per_producer"][0]["stale_route_ms"] = 1000;
  const json comparison = build_comparison(base_report(), b, "A", "B");
  EXPECT_TRUE(comparison["changes"].empty());
  const json* row = find_row(comparison, "outages[0].producers.per_producer[0].stale_route_ms");
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE((*row)["changed"].get<bool>());
}

TEST(CompareReport, AValueThatIsNullOnOneSideIsAChangeWithoutDifference) {
  json b = base_report();
  b["outages"][0]["end_ms"] = nullptr;
  const json comparison = build_comparison(base_report(), b, "A", "B");
  const json* row = find_row(comparison, "outages[0].end_ms");
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE((*row)["b"].is_null());
  EXPECT_TRUE((*row)["difference"].is_null());
  EXPECT_EQ(change_figures(comparison), std::vector<std::string>{"outages[0].end_ms"});
  EXPECT_EQ(format_change(*row), "outages[0].end_ms: 600.0 s -> none");
}

TEST(CompareReport, DifferentOutageListsAreComparedByIndexAndSaidSo) {
  json b = base_report();
  json second = b["outages"][0];
  second["kind"] = "kill";
  second["start_ms"] = 700000;
  b["outages"].push_back(second);
  const json comparison = build_comparison(base_report(), b, "A", "B");
  ASSERT_EQ(comparison["sections"].size(), 3u);
  EXPECT_EQ(comparison["sections"][2]["title"], "outages[1]: kill of broker-a-0 at 700.0 s");
  const json* row = find_row(comparison, "outages[1].start_ms");
  ASSERT_NE(row, nullptr);
  EXPECT_TRUE((*row)["a"].is_null());
  EXPECT_EQ((*row)["b"], 700000);
  EXPECT_EQ(comparison["notes"],
            json::array({"the outage lists differ (A has 1, B has 2); outages are compared by "
                         "index",
                         "outages[1] is no outage in A but kill of broker-a-0 at 700.0 s in B"}));
}

TEST(CompareReport, SidesCarryLabelsVerdictsExpectationsAndSettings) {
  json b = base_report();
  b["scenario"]["profile"] = "4.9";
  b["verdict"] = "fail";
  b["expectations"][0]["passed"] = false;
  const json comparison = build_comparison(base_report(), b, "5.x", "4.9");
  EXPECT_EQ(comparison["sides"][0]["label"], "5.x");
  EXPECT_EQ(comparison["sides"][1]["verdict"], "fail");
  EXPECT_FALSE(comparison["sides"][1]["expectations"][0]["passed"].get<bool>());
  EXPECT_EQ(comparison["settings"][0],
            json({{"name", "profile"}, {"a", "5.x"}, {"b", "4.9"}, {"changed", true}}));
  EXPECT_EQ(comparison["settings"][3]["name"], "registerNameServerPeriod");
  EXPECT_FALSE(comparison["settings"][3]["changed"].get<bool>());
}

TEST(CompareReport, MarkdownShowsTheChangeListAndBoldsChangedCells) {
  json b = base_report();
  b["outages"][0]["producers"]["stale_route_ms"]["max"] = 30000;
  json comparison = build_comparison(base_report(), b, "profile=5.x", "profile=4.9");
  comparison["sides"][0]["overrides"] = json::array({"profile=5.x"});
  comparison["sides"][1]["overrides"] = json::array();
  const std::string markdown = render_comparison_markdown(comparison);
  EXPECT_NE(markdown.find("1. `outages[0].producers.stale_route_ms.max`: 100.0 s -> 30.0 s "
                          "(-70.0 s, -70.0%)\n"),
            std::string::npos);
  EXPECT_NE(markdown.find("| `producers.stale_route_ms.max` | 100.0 s | **30.0 s** | **-70.0 s** | "
                          "**-70.0%** |\n"),
            std::string::npos);
  EXPECT_NE(markdown.find("| `sends.total` | 100 | 100 |  |  |\n"), std::string::npos);
  EXPECT_NE(markdown.find("| settings | `profile=5.x` | as written |\n"), std::string::npos);
  EXPECT_NE(markdown.find("## outages[0]: poweroff of broker-a-0 at 300.0 s\n"), std::string::npos);
}

TEST(CompareReport, HtmlIsSelfContainedEscapedAndHighlightsChanges) {
  json b = base_report();
  b["sends"]["total"] = 150;
  b["expectations"][0]["message"] = "a < b & \"c\"";
  json comparison = build_comparison(base_report(), b, "<script>x</script>", "B");
  comparison["sides"][0]["report_html"] = "a/report.html";
  comparison["sides"][1]["report_html"] = "b/report.html";
  const std::string html = render_comparison_html(comparison);
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;x&lt;/script&gt;"), std::string::npos);
  EXPECT_NE(html.find("a &lt; b &amp; &quot;c&quot;"), std::string::npos);
  EXPECT_NE(html.find("<a href=\"a/report.html\">"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"num changed\">150</td>"), std::string::npos);
  for (const char* external : {"http:", "https:", "<link", "src="}) {
    EXPECT_EQ(html.find(external), std::string::npos) << external;
  }
}

// Comparing B with A instead of A with B swaps every row's sides and the sign of its difference,
// and changes the same figures; the sides keep their own labels.
TEST(CompareReport, SwappingTheSidesSwapsEveryRow) {
  json b = base_report();
  b["sends"]["ok"] = 90;
  b["outages"][0]["producers"]["stale_route_ms"]["max"] = 30000;
  const json forward = build_comparison(base_report(), b, "A", "B");
  const json backward = build_comparison(b, base_report(), "B", "A");
  EXPECT_EQ(backward["sides"][0]["label"], "B");
  EXPECT_EQ(backward["sides"][1]["label"], "A");
  const json* ok = find_row(backward, "sends.ok");
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ((*ok)["a"], 90);
  EXPECT_EQ((*ok)["b"], 100);
  EXPECT_EQ((*ok)["difference"], 10);
  std::size_t rows = 0;
  for (const auto& section : forward["sections"]) {
    for (const auto& row : section["figures"]) {
      const json* other = find_row(backward, row["figure"].get<std::string>());
      ASSERT_NE(other, nullptr) << row["figure"];
      EXPECT_EQ((*other)["a"], row["b"]) << row["figure"];
      EXPECT_EQ((*other)["b"], row["a"]) << row["figure"];
      EXPECT_EQ((*other)["changed"], row["changed"]) << row["figure"];
      if (row["difference"].is_number()) {
        EXPECT_EQ((*other)["difference"].get<double>(), -row["difference"].get<double>())
            << row["figure"];
      }
      ++rows;
    }
  }
  EXPECT_GT(rows, 10u);
  auto sorted = [](std::vector<std::string> figures) {
    std::sort(figures.begin(), figures.end());
    return figures;
  };
  EXPECT_EQ(sorted(change_figures(backward)),
            (std::vector<std::string>{"outages[0].producers.stale_route_ms.max", "sends.ok"}));
  EXPECT_EQ(sorted(change_figures(forward)), sorted(change_figures(backward)));
}

}  // namespace
}  // namespace nssim::reports

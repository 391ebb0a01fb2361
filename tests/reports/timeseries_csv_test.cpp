// timeseries.csv: fixed columns per run, failures by cause, stale producers, and how many brokers
// each NameServer listed at the start of every second.
#include "reports/timeseries_csv.h"

#include <gtest/gtest.h>

#include "report_fixtures.h"

namespace nssim::reports {
namespace {

using nlohmann::json;

TEST(TimeseriesCsv, FixtureRendersAsTheReviewedGoldenFile) {
  EXPECT_EQ(render_timeseries_csv(testing::fixture_json("two_faults.report.json")),
            testing::fixture_text("two_faults.timeseries.csv"));
}

TEST(TimeseriesCsv, CauseColumnsFollowTheRunsCausesEvenWhenASecondHasNone) {
  const auto report = json::parse(R"({
    "sends": {"failed": {"b_cause": 0, "a_cause": 0, "total": 0}},
    "timeseries": [{"t_s": 0, "ok": 1, "failed": {}, "stale_producers": 0, "lost_producers": 4},
                   {"t_s": 1, "ok": 2, "failed": {"b_cause": 3, "a_cause": 1},
                    "stale_producers": 2, "lost_producers": 0}]})");
  EXPECT_EQ(render_timeseries_csv(report),
            "t_s,ok,failed_total,failed_a_cause,failed_b_cause,stale_producers,lost_producers\n"
            "0,1,0,0,0,0,4\n"
            "1,2,4,1,3,2,0\n");
}

TEST(TimeseriesCsv, RoutesCountBrokersListedAtTheStartOfEachSecond) {
  // [1000, 2000) is in at 1 s and out at 2 s; a null end lasts to the end of the run.
  const auto report = json::parse(R"({
    "timeseries": [{"t_s": 0, "ok": 0}, {"t_s": 1, "ok": 0}, {"t_s": 2, "ok": 0},
                   {"t_s": 3, "ok": 0}],
    "timelines": {"nameservers": [{"node": "ns-0"}, {"node": "ns-1"}],
      "brokers": [
        {"node": "a", "in_routes": [{"nameserver": "ns-0", "intervals": [
            {"start_ms": 1000, "end_ms": 2000}, {"start_ms": 2999, "end_ms": null}]}]},
        {"node": "b", "in_routes": [{"nameserver": "ns-0", "intervals": [
            {"start_ms": 2000, "end_ms": null}]}]}]}})");
  EXPECT_EQ(render_timeseries_csv(report),
            "t_s,ok,failed_total,stale_producers,lost_producers,routes_ns-0,routes_ns-1\n"
            "0,0,0,0,0,0,0\n"
            "1,0,0,0,0,1,0\n"
            "2,0,0,0,0,1,0\n"
            "3,0,0,0,0,2,0\n");
}

TEST(TimeseriesCsv, WithoutASeriesOnlyTheHeaderRemains) {
  EXPECT_EQ(render_timeseries_csv(json::object()),
            "t_s,ok,failed_total,stale_producers,lost_producers\n");
}

}  // namespace
}  // namespace nssim::reports

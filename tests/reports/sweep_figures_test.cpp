// One run's figures as a sweep records them: which leaves of result.json count, what "inside the
// predicted window" means at its exact edges, and that a seeds.jsonl line reads back unchanged.
#include "reports/sweep/sweep_figures.h"

#include <gtest/gtest.h>

namespace nssim::reports {
namespace {

using nlohmann::json;

json report_with(std::int64_t first_drop, std::int64_t last_drop, std::int64_t stale_min,
                 std::int64_t stale_max, int never = 0) {
  return {
      {"verdict", "pass"},
      {"sends", {{"total", 10}, {"failed", {{"total", 2}, {"no_route", 0}}}}},
      {"nameserver_disagreement",
       {{"count", 1}, {"total_ms", 50}, {"intervals", {{{"start_ms", 1}, {"duration_ms", 50}}}}}},
      {"outages",
       {{{"fault", 0},
         {"kind", "poweroff"},
         {"brokers", {"broker-a-0"}},
         {"start_ms", 300000},
         {"end_ms", nullptr},
         {"nameservers",
          {{{"nameserver", "ns-0"}, {"delay_ms", first_drop}, {"dropped_at_ms", 1}},
           {{"nameserver", "ns-1"}, {"delay_ms", last_drop}, {"dropped_at_ms", 2}}}},
         {"producers",
          {{"affected", 2},
           {"stale_route_ms",
            {{"min", stale_min}, {"max", stale_max}, {"never", never}, {"p50", nullptr}}},
           {"never_reasons", {{"x", 1}}},
           {"per_producer", {{{"stale_route_ms", 5}}}}}},
         {"predicted",
          {{"nameserver_removal_ms", {{"min_ms", 90000}, {"max_ms", 125000}}},
           {"producer_stale_route_ms", {{"min_ms", 90000}, {"max_ms", 155000}}}}}}}}};
}

TEST(SweepFigures, MeasuredLeavesCountAndPlacementsDoNot) {
  const SeedRecord record = seed_record_of(report_with(100000, 110000, 100000, 140000), 2, 7);
  EXPECT_EQ(record.point, 2u);
  EXPECT_EQ(record.seed, 7u);
  EXPECT_EQ(record.verdict, "pass");
  const auto& f = record.figures;
  EXPECT_EQ(f.at("sends.failed.total"), 2.0);
  EXPECT_EQ(f.at("nameserver_disagreement.total_ms"), 50.0);
  EXPECT_EQ(f.at("outages[0].nameservers[1].delay_ms"), 110000.0);
  EXPECT_EQ(f.at("outages[0].producers.affected"), 2.0);
  EXPECT_FALSE(f.at("outages[0].producers.stale_route_ms.p50").has_value());  // null: never
  for (const char* absent :
       {"outages[0].start_ms", "outages[0].end_ms", "outages[0].fault",
        "outages[0].nameservers[0].dropped_at_ms", "nameserver_disagreement.intervals[0].start_ms",
        "outages[0].producers.never_reasons.x",
        "outages[0].producers.per_producer[0].stale_route_ms",
        "outages[0].predicted.nameserver_removal_ms.max_ms"}) {
    EXPECT_EQ(f.count(absent), 0u) << absent;
  }
  ASSERT_EQ(record.outages.size(), 1u);
  EXPECT_EQ(record.outages[0]["predicted"]["nameserver_removal_ms"]["max_ms"], 125000);
}

TEST(SweepFigures, BrokerClientTablesGiveTheirTotalsAndRemovalCountsNotTheirBrokers) {
  json report = report_with(100000, 110000, 100000, 140000);
  report["broker_clients"] = {
      {"brokers", 2},
      {"heartbeats_processed", 40},
      {"removals", {{"scan_expiry", 1}, {"channel_close", 2}, {"idle", 0}, {"restart", 3}}},
      {"scan_expiry_delay_ms", {{"count", 1}, {"max", 120005}}},
      {"per_broker", json::array({{{"node", "b"}, {"heartbeats_processed", 20}}})}};
  const auto& f = seed_record_of(report, 0, 1).figures;
  EXPECT_EQ(f.at("broker_clients.heartbeats_processed"), 40.0);
  EXPECT_EQ(f.at("broker_clients.removals.scan_expiry"), 1.0);
  EXPECT_EQ(f.at("broker_clients.removals.restart"), 3.0);
  EXPECT_EQ(f.at("broker_clients.scan_expiry_delay_ms.max"), 120005.0);
  EXPECT_EQ(f.count("broker_clients.per_broker[0].heartbeats_processed"), 0u);
}

double removal_inside(const json& report) {
  return *seed_record_of(report, 0, 1)
              .figures.at("outages[0].within_predicted.nameserver_removal_ms");
}
double stale_inside(const json& report) {
  return *seed_record_of(report, 0, 1)
              .figures.at("outages[0].within_predicted.producer_stale_route_ms");
}

TEST(SweepFigures, InsideThePredictionIncludesBothEdges) {
  EXPECT_EQ(removal_inside(report_with(90000, 125000, 90000, 155000)), 1);
  EXPECT_EQ(stale_inside(report_with(90000, 125000, 90000, 155000)), 1);
  EXPECT_EQ(removal_inside(report_with(89999, 125000, 90000, 155000)), 0);
  EXPECT_EQ(removal_inside(report_with(90000, 125001, 90000, 155000)), 0);
  EXPECT_EQ(stale_inside(report_with(90000, 125000, 89999, 155000)), 0);
  EXPECT_EQ(stale_inside(report_with(90000, 125000, 90000, 155001)), 0);
}

TEST(SweepFigures, AProducerThatNeverLetGoIsOutside) {
  EXPECT_EQ(stale_inside(report_with(100000, 110000, 100000, 140000, /*never=*/1)), 0);
}

TEST(SweepFigures, NoPredictionNoInsideFigure) {
  json report = report_with(100000, 110000, 100000, 140000);
  report["outages"][0]["predicted"] = nullptr;
  EXPECT_EQ(seed_record_of(report, 0, 1)
                .figures.count("outages[0].within_predicted.nameserver_removal_ms"),
            0u);
}

TEST(SweepFigures, ALineReadsBackAsTheSameRecord) {
  const SeedRecord record = seed_record_of(report_with(100000, 110000, 100000, 140000), 1, 42);
  std::string error;
  const auto back = parse_seed_record_line(seed_record_line(record, true), error);
  ASSERT_TRUE(back) << error;
  EXPECT_EQ(back->figures, record.figures);
  EXPECT_EQ(back->point, 1u);
  EXPECT_EQ(back->seed, 42u);
  EXPECT_EQ(back->outages, record.outages);
  const auto lean = parse_seed_record_line(seed_record_line(record, false), error);
  ASSERT_TRUE(lean);
  EXPECT_TRUE(lean->outages.empty());
}

TEST(SweepFigures, MalformedLinesAreRefused) {
  std::string error;
  EXPECT_FALSE(parse_seed_record_line("not json", error));
  EXPECT_FALSE(parse_seed_record_line(
      R"({"point":0,"seed":1,"verdict":"pass","figures":{"a":"x"}})", error));
  EXPECT_EQ(error, "figure a: expected a number or null");
}

TEST(SweepFigures, WholeNumbersAreWrittenAsIntegers) {
  EXPECT_EQ(figure_json(135929.0).dump(), "135929");
  EXPECT_EQ(figure_json(0.12345).dump(), "0.123");
}

TEST(SweepFigures, TimeFiguresAreMillisecondLeavesAndStatisticsOfDurations) {
  for (const char* figure :
       {"outages[0].nameservers[2].delay_ms", "outages[0].producers.stale_route_ms.max",
        "nameserver_disagreement.total_ms", "route_health.lost.max", "route_health.missing.p50",
        "outages[1].route_health.stale.min", "route_health.lost.total_ms"}) {
    EXPECT_TRUE(is_time_figure(figure)) << figure;
  }
  for (const char* figure :
       {"outages[0].nameserver_drop_ms.count", "route_health.stale.never",
        "route_health.lost.count", "outages[0].within_predicted.producer_stale_route_ms",
        "sends.failed.total", "route_health.max", "lost.max", "max"}) {
    EXPECT_FALSE(is_time_figure(figure)) << figure;
  }
}

}  // namespace
}  // namespace nssim::reports

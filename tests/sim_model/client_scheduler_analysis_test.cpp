// client_scheduler_json on hand-made scheduler records (reports/README.md "Client scheduler"):
// route-poll delays and their nearest-rank p99, the time a scheduler was behind as a union of the
// waits of its due runs, heartbeat counts per client and per broker address, and F - R per broker
// removal. The route views: ns-0 and ns-1 list both masters from 1 s; ns-0 drops broker-a-0 at
// 40 s and ns-1 at 60 s (R = 60 s, the last NameServer); both drop broker-b-0 at 60.001 s.
#include "sim/analysis/client_scheduler_analysis.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "json_number_paths.h"
#include "sim/analysis/result_figures.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim {
namespace client_scheduler_analysis {  // named: a unity batch shares file scope

using nlohmann::json;

ScheduledRun poll(std::int64_t due_ms, std::int64_t start_ms) {
  return {ScheduledTask::kRoutePoll, due_ms, start_ms, start_ms + 2};
}
ScheduledRun heartbeat(std::int64_t due_ms, std::int64_t start_ms, std::int64_t end_ms) {
  return {ScheduledTask::kHeartbeat, due_ms, start_ms, end_ms};
}

struct ScheduledRunFixture {
  Scenario scenario;
  Topology topology;
  std::vector<Event> events;
  SendStats sends{{}};

  ScheduledRunFixture() {
    scenario = testing::small_cluster(core::Profile::kV5, 1);
    scenario.nameservers.count = 2;
    scenario.producers[0].count = 3;
    scenario.duration_ms = 120000;
    topology = build_topology(scenario);
    for (const char* ns : {"ns-0", "ns-1"}) {
      events.push_back({0, ns, EventKind::kProcessStart, {{"epoch", 1}}});
      view(1000, ns, {{"broker-a", addr("broker-a-0")}, {"broker-b", addr("broker-b-0")}});
    }
    view(40000, "ns-0", {{"broker-a", nullptr}});
    view(60000, "ns-1", {{"broker-a", nullptr}});
    view(60001, "ns-0", {{"broker-b", nullptr}});
    view(60001, "ns-1", {{"broker-b", nullptr}});
  }
  const std::string& addr(const std::string& node) const {
    return topology.nodes[static_cast<std::size_t>(topology.by_name.at(node))].broker_addr;
  }
  // A route view event: each group's master address now, null for a group gone.
  void view(std::int64_t t_ms, const std::string& ns, const std::map<std::string, json>& groups) {
    json changed = json::object();
    for (const auto& [group, master] : groups) {
      changed[group] = master.is_null() ? json() : json{{"0", master}};
    }
    events.push_back(
        {t_ms, ns, EventKind::kRouteView, {{"changed", changed}, {"topics_digest", 1}}});
  }
  ProducerObserver& client(const std::string& name) { return sends.observer_for(name, "producer"); }
  void beat(const std::string& name, const std::string& broker, SendCause cause) {
    client(name).on_heartbeat({broker.substr(0, broker.size() - 2), 0, addr(broker), 0, 1, cause});
  }
  json result() const {
    return client_scheduler_json(scenario, topology, RouteReplay(scenario, events), sends).value();
  }
};

// producer-0: a heartbeat to a silent address holds the thread from 31 s to 70 s, so the route
// poll due at 60.01 s and the heartbeat due at 61 s bunch up behind it. producer-1 polls exactly
// at R of broker-a and 1 ms before R of broker-b. producer-2 stops polling at 30.01 s.
struct BunchedRuns : ScheduledRunFixture {
  BunchedRuns() {
    for (const ScheduledRun& run : {poll(10, 10), heartbeat(1000, 1000, 1001), poll(30010, 30010),
                                    heartbeat(31000, 31000, 70000), poll(60010, 70000),
                                    heartbeat(61000, 70500, 70501), poll(90010, 90010)}) {
      client("producer-0").on_scheduled_run(run);
    }
    for (const ScheduledRun& run : {poll(0, 0), poll(30000, 30000), poll(60000, 60000),
                                    heartbeat(61000, 61000, 61001), poll(90000, 90000)}) {
      client("producer-1").on_scheduled_run(run);
    }
    for (const ScheduledRun& run : {poll(10, 10), poll(30010, 30010)}) {
      client("producer-2").on_scheduled_run(run);
    }
    beat("producer-0", "broker-a-0", SendCause::kOk);
    beat("producer-0", "broker-a-0", SendCause::kRequestTimeout);
    beat("producer-0", "broker-b-0", SendCause::kOk);
    beat("producer-1", "broker-a-0", SendCause::kConnectTimeout);
  }
};

json client_entry(const json& result, const std::string& name) {
  for (const auto& entry : result["per_client"]) {
    if (entry["name"] == name) return entry;
  }
  return nullptr;
}

TEST(ClientSchedulerAnalysis, NoSectionWithoutScheduledRuns) {
  ScheduledRunFixture run;
  run.sends.observer_for("producer-0", "producer");
  EXPECT_FALSE(client_scheduler_json(run.scenario, run.topology,
                                     RouteReplay(run.scenario, run.events), run.sends));
}

TEST(ClientSchedulerAnalysis, BehindIsTheUnionOfTheWaitsOfDueRuns) {
  const json result = BunchedRuns().result();
  // [60010, 70000) and [61000, 70500) overlap: once, 10490 ms, not their sum 19490; runs that
  // start exactly when due add nothing.
  EXPECT_EQ(client_entry(result, "producer-0")["behind_ms"], 10490);
  EXPECT_EQ(client_entry(result, "producer-1")["behind_ms"], 0);
  EXPECT_EQ(result["behind_ms"]["max"], 10490);
  EXPECT_EQ(result["behind_ms"]["count"], 3);
}

TEST(ClientSchedulerAnalysis, RoutePollDelayIsStartMinusDuePerClient) {
  const json result = BunchedRuns().result();
  const json worst = client_entry(result, "producer-0");
  EXPECT_EQ(worst["route_polls"], 4);
  EXPECT_EQ(worst["route_poll_delay_max_ms"], 9990);
  EXPECT_EQ(worst["route_poll_delay_p99_ms"], 9990);         // nearest rank of 4 values: the max
  EXPECT_EQ(result["per_client"][0]["name"], "producer-0");  // worst first
  EXPECT_EQ(result["route_polls"], 4 + 4 + 2);
  EXPECT_EQ(result["route_poll_delay_max_ms"]["max"], 9990);
  EXPECT_EQ(result["route_poll_delay_max_ms"]["min"], 0);
}

TEST(ClientSchedulerAnalysis, RoutePollP99IsTheNearestRank) {
  ScheduledRunFixture run;
  // 100 polls late by 0 .. 99 ms: p99 is the 99th value (98 ms), the max the 100th.
  for (std::int64_t k = 0; k < 100; ++k) {
    run.client("producer-0").on_scheduled_run(poll(k * 30000, k * 30000 + k));
  }
  const json entry = client_entry(run.result(), "producer-0");
  EXPECT_EQ(entry["route_poll_delay_p99_ms"], 98);
  EXPECT_EQ(entry["route_poll_delay_max_ms"], 99);
}

TEST(ClientSchedulerAnalysis, HeartbeatsPerClientAndPerBrokerAddress) {
  BunchedRuns run;
  const json result = run.result();
  const json worst = client_entry(result, "producer-0");
  EXPECT_EQ(worst["heartbeat_runs"], 3);
  EXPECT_EQ(worst["heartbeat_attempts"], 3);
  EXPECT_EQ(worst["heartbeat_failures"], 1);
  EXPECT_EQ(result["heartbeat_runs"], 4);
  EXPECT_EQ(result["heartbeat_attempts"], 4);
  EXPECT_EQ(result["heartbeat_failures"], 2);
  json by_broker = json::object();
  for (const auto& entry : result["heartbeats_by_broker"]) {
    by_broker[entry["broker_addr"].get<std::string>()] = {entry["broker_name"],
                                                          entry["attempts"],
                                                          entry["ok"],
                                                          entry["failed"]["total"],
                                                          entry["failed"]["request_timeout"],
                                                          entry["failed"]["connect_timeout"]};
  }
  EXPECT_EQ(by_broker[run.addr("broker-a-0")], json::parse(R"(["broker-a", 3, 1, 2, 1, 1])"));
  EXPECT_EQ(by_broker[run.addr("broker-b-0")], json::parse(R"(["broker-b", 1, 1, 0, 0, 0])"));
}

TEST(ClientSchedulerAnalysis, FMinusRFromTheLastNameServerToTheFirstPollAtOrAfterIt) {
  const json result = BunchedRuns().result();
  ASSERT_EQ(result["removals"].size(), 2U);
  const json& a = result["removals"][0];
  EXPECT_EQ(a["broker_name"], "broker-a");
  EXPECT_EQ(a["removed_at_ms"], 60000);  // ns-1, not ns-0's 40 s
  // producer-0: its poll due at 60.01 s started at 70 s; producer-1 polled at R itself (0 ms);
  // producer-2 never polled again.
  EXPECT_EQ(a["clients"], 3);
  EXPECT_EQ(a["f_minus_r_ms"]["count"], 2);
  EXPECT_EQ(a["f_minus_r_ms"]["min"], 0);
  EXPECT_EQ(a["f_minus_r_ms"]["max"], 10000);
  EXPECT_EQ(a["f_minus_r_ms"]["never"], 1);
  const json& b = result["removals"][1];
  EXPECT_EQ(b["removed_at_ms"], 60001);
  // One ms after producer-1's poll at 60 s: its next, at 90 s.
  EXPECT_EQ(b["f_minus_r_ms"]["min"], 9999);
  EXPECT_EQ(b["f_minus_r_ms"]["max"], 29999);
  EXPECT_EQ(result["f_minus_r_ms"]["count"], 4);
  EXPECT_EQ(result["f_minus_r_ms"]["never"], 2);
  EXPECT_EQ(result["f_minus_r_ms"]["max"], 29999);
}

TEST(ClientSchedulerAnalysis, RIsTheLastOfTheClientsOwnNameServers) {
  BunchedRuns run;
  run.scenario.producers[0].nameservers = {0};  // ns-0 only: it dropped broker-a at 40 s
  run.topology = build_topology(run.scenario);
  const json a = run.result()["removals"][0];
  EXPECT_EQ(a["removed_at_ms"], 60000);
  // producer-0's first poll from 40 s: 70 s; producer-1's: 60 s.
  EXPECT_EQ(a["f_minus_r_ms"]["max"], 30000);
  EXPECT_EQ(a["f_minus_r_ms"]["min"], 20000);
}

TEST(ClientSchedulerAnalysis, EveryFigureIsInTheCatalogue) {
  std::vector<std::string> paths;
  testing::number_paths(BunchedRuns().result(), "client_scheduler", paths);
  EXPECT_GT(paths.size(), 40U);
  for (const auto& path : paths) EXPECT_EQ(unknown_figure(path), std::nullopt) << path;
}

}  // namespace client_scheduler_analysis
}  // namespace nssim::sim

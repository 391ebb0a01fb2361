// Route health from hand-made histories: when a producer's route is stale (it holds a broker it
// cannot use) or lost (it lacks one it could use), when a NameServer is missing a broker, why
// each window began and ended, with every boundary at the exact millisecond.
#include "sim/analysis/route_health.h"

#include <gtest/gtest.h>

#include "sim_world/scenario_builder.h"

namespace nssim::sim {
namespace {

using nlohmann::json;

constexpr std::int64_t kBrokersUp = 1000;
constexpr std::int64_t kProducerUp = 2000;
constexpr std::int64_t kFirstRoute = 2010;

// One NameServer, broker-a and broker-b, one producer publishing TopicTest on both.
struct History {
  Scenario scenario;
  Topology topology;
  NetworkHistory network;
  std::vector<Event> events;
  SendStats sends{{}};

  History() {
    scenario = testing::small_cluster(core::Profile::kV5, 1);
    scenario.nameservers.count = 1;
    scenario.producers[0].count = 1;
    topology = build_topology(scenario);
    for (const auto& node : topology.nodes) network.add_node(node.name, node.link.latency_ms);
    start("ns-0", 0);
    start("broker-a-0", kBrokersUp);
    start("broker-b-0", kBrokersUp);
    start("producer-0", kProducerUp);
    view(kBrokersUp + 2, {"broker-a-0", "broker-b-0"});
    route(kFirstRoute, {"broker-a", "broker-b"});
  }
  NodeId id(const std::string& name) const { return topology.by_name.at(name); }
  const std::string& addr(const std::string& node) const {
    return topology.nodes[static_cast<std::size_t>(id(node))].broker_addr;
  }
  void start(const std::string& node, std::int64_t t_ms) {
    network.start_process(id(node), t_ms);
    events.push_back({t_ms, node, EventKind::kProcessStart, {{"epoch", 1}}});
    if (node == "ns-0") logged = json::object();
  }
  // ns-0's route view listing `brokers`, logged as the NameServer logs it: what changed since
  // its last view (groups with their ids now, null for a group gone).
  void view(std::int64_t t_ms, const std::vector<std::string>& brokers) {
    json listed = json::object();
    for (const auto& node : brokers) {
      const std::size_t group = topology.nodes[static_cast<std::size_t>(id(node))].group;
      listed[scenario.broker_groups[group].name]["0"] = addr(node);
    }
    json changed = json::object();
    for (const auto& [group, ids] : listed.items()) {
      if (!logged.contains(group) || logged[group] != ids) changed[group] = ids;
    }
    for (const auto& [group, ids] : logged.items()) {
      if (!listed.contains(group)) changed[group] = nullptr;
    }
    logged = listed;
    events.push_back(
        {t_ms, "ns-0", EventKind::kRouteView, {{"changed", changed}, {"topics_digest", 1}}});
  }
  json logged = json::object();  // ns-0's table as its views so far list it
  void removal(std::int64_t t_ms, const std::string& node, const char* path = "scan_expiry") {
    events.push_back(
        {t_ms,
         "ns-0",
         EventKind::kBrokerRemoved,
         {{"broker_addr", addr(node)}, {"path", path}, {"removed_from_routes", true}}});
  }
  void route(std::int64_t t_ms, const std::set<std::string>& groups) {
    sends.observer_for("producer-0", "producer").on_publish_info("TopicTest", t_ms, groups);
  }
  RouteHealth health() {
    std::stable_sort(events.begin(), events.end(),
                     [](const Event& a, const Event& b) { return a.t_ms < b.t_ms; });
    return route_health(scenario, topology, events, RouteReplay(scenario, events), sends, network);
  }
};

std::vector<RouteWindow> of_kind(const RouteHealth& health, RouteWindowKind kind) {
  std::vector<RouteWindow> out;
  for (const auto& window : health.routes) {
    if (window.kind == kind) out.push_back(window);
  }
  return out;
}

TEST(RouteHealth, AKilledBrokerHeldInTheRouteIsStaleFromTheKillToTheDrop) {
  History h;
  h.network.stop_process(h.id("broker-a-0"), DownKind::kCrash, 100000);
  h.route(119999, {"broker-b"});
  const auto health = h.health();
  const auto stale = of_kind(health, RouteWindowKind::kStale);
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].holder, "producer-0");
  EXPECT_EQ(stale[0].broker, "broker-a");
  EXPECT_EQ(stale[0].start_ms, 100000);
  EXPECT_EQ(stale[0].end_ms, 119999);
  EXPECT_EQ(stale[0].cause, WindowCause::kBrokerDown);
  EXPECT_EQ(stale[0].end_cause, WindowCause::kDroppedFromRoute);
  // A dead broker missing from the route is not lost.
  EXPECT_TRUE(of_kind(health, RouteWindowKind::kLost).empty());
}

TEST(RouteHealth, APausedBrokerThatResumesBeforeTheDropEndsTheStaleWindowAtTheResume) {
  History h;
  h.network.pause(h.id("broker-a-0"), 100000);
  h.network.resume(h.id("broker-a-0"), 160000);
  const auto stale = of_kind(h.health(), RouteWindowKind::kStale);
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].cause, WindowCause::kBrokerPaused);
  EXPECT_EQ(stale[0].end_ms, 160000);
  EXPECT_EQ(stale[0].end_cause, WindowCause::kBrokerUsableAgain);
}

TEST(RouteHealth, ACutBetweenProducerAndBrokerIsStaleAndAPowerOffSaysSo) {
  History h;
  h.network.cut(h.id("producer-0"), h.id("broker-a-0"), 100000);
  h.network.power_off(h.id("broker-b-0"), 200000);
  const auto stale = of_kind(h.health(), RouteWindowKind::kStale);
  ASSERT_EQ(stale.size(), 2u);
  EXPECT_EQ(stale[0].cause, WindowCause::kBrokerCutFromProducer);
  EXPECT_EQ(stale[0].start_ms, 100000);
  EXPECT_FALSE(stale[0].end_ms.has_value());
  EXPECT_EQ(stale[0].end_cause, WindowCause::kRunEnd);
  EXPECT_EQ(stale[1].cause, WindowCause::kBrokerPoweredOff);
  EXPECT_EQ(stale[1].start_ms, 200000);
}

TEST(RouteHealth, AHealthyBrokerTheNameServerExpiredIsLostUntilTheRouteHasItAgain) {
  History h;
  h.network.cut(h.id("broker-a-0"), h.id("ns-0"), 20000);
  h.removal(110000, "broker-a-0");
  h.view(110000, {"broker-b-0"});
  h.route(120000, {"broker-b"});
  h.network.heal(h.id("broker-a-0"), h.id("ns-0"), 130000);
  h.view(140000, {"broker-a-0", "broker-b-0"});
  h.route(150000, {"broker-a", "broker-b"});
  const auto health = h.health();
  EXPECT_TRUE(of_kind(health, RouteWindowKind::kStale).empty());
  // Unreachable from the NameServer until the heal, it is missing there only after it.
  ASSERT_EQ(health.missing.size(), 1u);
  EXPECT_EQ(health.missing[0].start_ms, 130000);
  EXPECT_EQ(health.missing[0].cause, WindowCause::kAwaitingRegistration);
  const auto lost = of_kind(health, RouteWindowKind::kLost);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].start_ms, 120000);
  EXPECT_EQ(lost[0].end_ms, 150000);
  EXPECT_EQ(lost[0].cause, WindowCause::kExpiredAtNameserver);
  EXPECT_EQ(lost[0].end_cause, WindowCause::kRouteRegained);
}

TEST(RouteHealth, ARemovalLongerAgoThanAPollAndAnAnswerIsNotTheCause) {
  History h;
  h.network.cut(h.id("broker-a-0"), h.id("ns-0"), 20000);
  // pollNameServerInterval 30000 + mqClientApiTimeout 3000 before the drop at 120000: 87000.
  h.removal(86999, "broker-a-0");
  h.route(120000, {"broker-b"});
  auto lost = of_kind(h.health(), RouteWindowKind::kLost);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].cause, WindowCause::kRouteChanged);

  History at_edge;
  at_edge.network.cut(at_edge.id("broker-a-0"), at_edge.id("ns-0"), 20000);
  at_edge.removal(87000, "broker-a-0");
  at_edge.route(120000, {"broker-b"});
  lost = of_kind(at_edge.health(), RouteWindowKind::kLost);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].cause, WindowCause::kExpiredAtNameserver);
}

TEST(RouteHealth, ANameServerThatDropsABrokerItCanReachMakesItMissingThereAndLostDownstream) {
  History h;
  h.removal(110000, "broker-a-0");
  h.view(110000, {"broker-b-0"});
  h.route(120000, {"broker-b"});
  const auto health = h.health();
  ASSERT_EQ(health.missing.size(), 1u);
  EXPECT_EQ(health.missing[0].start_ms, 110000);
  EXPECT_EQ(health.missing[0].cause, WindowCause::kRemovedWhileReachable);
  const auto lost = of_kind(health, RouteWindowKind::kLost);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].cause, WindowCause::kNameserverMissingBroker);
}

TEST(RouteHealth, ACleanShutdownIsMissingFromItsUnregisterUntilTheProcessStops) {
  History h;
  h.removal(100000, "broker-a-0", "unregister");
  h.view(100000, {"broker-b-0"});
  h.network.stop_process(h.id("broker-a-0"), DownKind::kShutdown, 100004);
  const auto health = h.health();
  ASSERT_EQ(health.missing.size(), 1u);
  EXPECT_EQ(health.missing[0].cause, WindowCause::kUnregistered);
  EXPECT_EQ(health.missing[0].end_ms, 100004);
  EXPECT_EQ(health.missing[0].end_cause, WindowCause::kBrokerUnusable);
}

TEST(RouteHealth, AWipedWritePermIsTheCauseOfTheLoss) {
  History h;
  FaultSpec wipe;
  wipe.kind = FaultKind::kWipeWritePerm;
  wipe.at_ms = 100000;
  wipe.broker_name = "broker-a";
  h.scenario.faults.push_back(wipe);
  h.route(110000, {"broker-b"});
  const auto lost = of_kind(h.health(), RouteWindowKind::kLost);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].cause, WindowCause::kWritePermWiped);
  EXPECT_EQ(lost[0].end_cause, WindowCause::kRunEnd);
}

TEST(RouteHealth, ARestartedBrokerIsLostUntilTheNextPollButNotBeforeTheFirstRoute) {
  History h;
  h.network.stop_process(h.id("broker-a-0"), DownKind::kCrash, 100000);
  h.route(110000, {"broker-b"});
  h.start("broker-a-0", 200000);
  h.route(229999, {"broker-a", "broker-b"});
  const auto lost = of_kind(h.health(), RouteWindowKind::kLost);
  // Nothing between the producer's start and its first route (kFirstRoute): it never held them.
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].start_ms, 200000);
  EXPECT_EQ(lost[0].end_ms, 229999);
  EXPECT_EQ(lost[0].cause, WindowCause::kAwaitingRoutePoll);
}

TEST(RouteHealth, ARestartedNameServerIsMissingEveryLiveBrokerUntilItRegisters) {
  History h;
  h.network.stop_process(h.id("ns-0"), DownKind::kCrash, 100000);
  h.start("ns-0", 200000);
  h.view(214999, {"broker-b-0"});
  h.view(215000, {"broker-a-0", "broker-b-0"});
  const auto health = h.health();
  ASSERT_EQ(health.missing.size(), 2u);
  EXPECT_EQ(health.missing[0].broker_node, "broker-a-0");
  EXPECT_EQ(health.missing[0].start_ms, 200000);
  EXPECT_EQ(health.missing[0].end_ms, 215000);
  EXPECT_EQ(health.missing[0].cause, WindowCause::kNameserverRestarted);
  EXPECT_EQ(health.missing[0].end_cause, WindowCause::kRegistered);
  EXPECT_EQ(health.missing[1].broker_node, "broker-b-0");
  EXPECT_EQ(health.missing[1].end_ms, 214999);
}

TEST(RouteHealth, ABrokerTheNameServerCannotReachIsNotMissing) {
  History h;
  h.network.cut(h.id("broker-a-0"), h.id("ns-0"), 100000);
  h.view(220000, {"broker-b-0"});
  h.network.heal(h.id("broker-a-0"), h.id("ns-0"), 300000);
  h.view(310000, {"broker-a-0", "broker-b-0"});
  const auto health = h.health();
  ASSERT_EQ(health.missing.size(), 1u);
  EXPECT_EQ(health.missing[0].start_ms, 300000);
  EXPECT_EQ(health.missing[0].end_ms, 310000);
  EXPECT_EQ(health.missing[0].cause, WindowCause::kAwaitingRegistration);
}

TEST(RouteHealth, StatisticsCountOpenWindowsAsNeverAndTotalThemToTheRunEnd) {
  History h;
  h.network.stop_process(h.id("broker-a-0"), DownKind::kCrash, 100000);
  h.route(130000, {"broker-b"});
  h.network.pause(h.id("broker-b-0"), 500000);
  const auto stats = route_health_stats_json(h.health(), {});
  EXPECT_EQ(stats["stale"]["count"], 1);
  EXPECT_EQ(stats["stale"]["never"], 1);
  EXPECT_EQ(stats["stale"]["max"], 30000);
  EXPECT_EQ(stats["stale"]["total_ms"], 30000 + (600000 - 500000));
  EXPECT_EQ(stats["stale"]["by_cause"], json({{"broker_down", 1}, {"broker_paused", 1}}));
  EXPECT_EQ(stats["stale"]["end_causes"], json({{"dropped_from_route", 1}, {"run_end", 1}}));
}

TEST(RouteHealth, ProducersPerSecondCountsEverySecondAWindowTouchesOnce) {
  RouteHealth health;
  health.duration_ms = 10000;
  auto window = [](std::string producer, std::int64_t start, std::optional<std::int64_t> end) {
    RouteWindow w;
    w.holder = std::move(producer);
    w.start_ms = start;
    w.end_ms = end;
    return w;
  };
  health.routes = {window("p0", 2500, 3500), window("p0", 3200, 3500), window("p1", 2500, 3000),
                   window("p2", 9000, std::nullopt)};
  // p0: seconds 2, 3; p1: second 2 only (its window ends exactly at 3000); p2: second 9.
  const std::vector<std::int64_t> expected = {0, 0, 2, 1, 0, 0, 0, 0, 0, 1};
  EXPECT_EQ(producers_per_second(health, RouteWindowKind::kStale), expected);
  EXPECT_EQ(producers_per_second(health, RouteWindowKind::kLost), std::vector<std::int64_t>(10, 0));
}

}  // namespace
}  // namespace nssim::sim

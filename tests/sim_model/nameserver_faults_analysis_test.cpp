// What each analysis that replays the NameServers' route views says about a NameServer that is
// killed and restarted, and one that is paused, read from one hand-made run through analyze_run:
// the disagreement intervals, the missing windows, the timeline's in_routes, an outage's recovery
// and the restart figures. The run:
//   ns-1 is killed at 10 s and restarted at 30 s (fault 0); broker-a re-registers there at 31 s,
//   broker-b at 46 s;
//   broker-b-0 is killed at 12 s and restarted at 16 s (fault 1): ns-0 drops it at once and lists
//   it again at 16 s + 2 ms, while ns-1 is down;
//   ns-0 is paused from 40 s to 50 s (fault 2); broker-a-0 is killed at 42 s for good (fault 3):
//   ns-1 drops it at once, ns-0 when it resumes.
// Each test's name says the rule its analysis follows.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/analysis/run_analysis.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim {
namespace nameserver_fault_analyses {  // named: a unity batch shares file scope

using nlohmann::json;

FaultSpec fault_on(FaultKind kind, const std::string& node, std::int64_t at_ms,
                   std::optional<std::int64_t> duration_ms) {
  FaultSpec fault;
  fault.kind = kind;
  fault.nodes = {node};
  fault.at_ms = at_ms;
  fault.duration_ms = duration_ms;
  return fault;
}

// A run written by hand: events and network history kept in step.
struct HandMadeRun {
  Scenario scenario;
  Topology topology;
  NetworkHistory network;
  std::vector<Event> events;
  std::map<std::string, json> logged;  // per NameServer: its table as its views so far list it

  explicit HandMadeRun(std::vector<FaultSpec> faults) {
    scenario = testing::small_cluster(core::Profile::kV5, 1);
    scenario.nameservers.count = 2;
    scenario.producers[0].count = 1;
    scenario.duration_ms = 60000;
    scenario.faults = std::move(faults);
    // Written in time order, so each fault's place in the file is its place here.
    for (std::size_t i = 0; i < scenario.faults.size(); ++i) scenario.faults[i].file_index = i;
    topology = build_topology(scenario);
    for (const auto& node : topology.nodes) network.add_node(node.name, node.link.latency_ms);
  }
  NodeId id(const std::string& name) const { return topology.by_name.at(name); }
  const std::string& addr(const std::string& node) const {
    return topology.nodes[static_cast<std::size_t>(id(node))].broker_addr;
  }
  void start(const std::string& node, std::int64_t t_ms) {
    network.start_process(id(node), t_ms);
    events.push_back({t_ms, node, EventKind::kProcessStart, {{"epoch", 1}}});
    logged[node] = json::object();
  }
  void fault(std::int64_t t_ms, EventKind phase, std::size_t index) {
    const FaultSpec& spec = scenario.faults[index];
    events.push_back(
        {t_ms,
         "controller",
         phase,
         {{"fault", index}, {"kind", fault_kind_name(spec.kind)}, {"nodes", spec.nodes}}});
  }
  void kill(std::int64_t t_ms, std::size_t index, const std::string& node) {
    fault(t_ms, EventKind::kFaultBegin, index);
    network.stop_process(id(node), DownKind::kCrash, t_ms);
  }
  // The NameServer's route view listing `brokers`, as it logs it: what changed since its last
  // view (groups with their ids now, null for a group gone).
  void view(std::int64_t t_ms, const std::string& ns, const std::vector<std::string>& brokers) {
    json listed = json::object();
    for (const auto& node : brokers) {
      const std::size_t group = topology.nodes[static_cast<std::size_t>(id(node))].group;
      listed[scenario.broker_groups[group].name]["0"] = addr(node);
    }
    json changed = json::object();
    for (const auto& [group, ids] : listed.items()) {
      if (!logged[ns].contains(group) || logged[ns][group] != ids) changed[group] = ids;
    }
    for (const auto& [group, ids] : logged[ns].items()) {
      if (!listed.contains(group)) changed[group] = nullptr;
    }
    logged[ns] = listed;
    events.push_back(
        {t_ms, ns, EventKind::kRouteView, {{"changed", changed}, {"topics_digest", 1}}});
  }
  void removal(std::int64_t t_ms, const std::string& ns, const std::string& broker) {
    events.push_back({t_ms,
                      ns,
                      EventKind::kBrokerRemoved,
                      {{"broker_addr", addr(broker)},
                       {"path", "connection_close"},
                       {"removed_from_routes", true}}});
  }
  json result() const {
    std::vector<TimeWindow> windows;
    for (const auto& f : scenario.faults) {
      windows.push_back({f.at_ms, f.duration_ms ? f.at_ms + *f.duration_ms : scenario.duration_ms});
    }
    WorldRecord record{topology,
                       {},
                       std::make_unique<SendStats>(windows),
                       std::make_unique<NetworkHistory>(network),
                       scenario.duration_ms,
                       {}};
    for (const Event& e : events) record.log.add(e.t_ms, e.node, e.kind, e.fields);
    return analyze_run(scenario, record);
  }
};

struct NameServerFaultRun : HandMadeRun {
  NameServerFaultRun()
      : HandMadeRun({fault_on(FaultKind::kKill, "ns-1", 10000, 20000),
                     fault_on(FaultKind::kKill, "broker-b-0", 12000, 4000),
                     fault_on(FaultKind::kPause, "ns-0", 40000, 10000),
                     fault_on(FaultKind::kKill, "broker-a-0", 42000, std::nullopt)}) {
    start("ns-0", 0);
    start("ns-1", 0);
    start("broker-a-0", 1000);
    start("broker-b-0", 1000);
    view(1002, "ns-0", {"broker-a-0", "broker-b-0"});
    view(1002, "ns-1", {"broker-a-0", "broker-b-0"});
    kill(10000, 0, "ns-1");
    kill(12000, 1, "broker-b-0");
    removal(12001, "ns-0", "broker-b-0");
    view(12001, "ns-0", {"broker-a-0"});
    fault(16000, EventKind::kFaultEnd, 1);
    start("broker-b-0", 16000);
    view(16002, "ns-0", {"broker-a-0", "broker-b-0"});
    fault(30000, EventKind::kFaultEnd, 0);
    start("ns-1", 30000);
    view(31002, "ns-1", {"broker-a-0"});
    fault(40000, EventKind::kFaultBegin, 2);
    network.pause(id("ns-0"), 40000);
    kill(42000, 3, "broker-a-0");
    removal(42001, "ns-1", "broker-a-0");
    view(42001, "ns-1", {});
    view(46002, "ns-1", {"broker-b-0"});
    fault(50000, EventKind::kFaultEnd, 2);
    network.resume(id("ns-0"), 50000);
    removal(50000, "ns-0", "broker-a-0");
    view(50000, "ns-0", {"broker-b-0"});
  }
};

json interval(std::int64_t start_ms, std::optional<std::int64_t> end_ms) {
  return {{"start_ms", start_ms}, {"end_ms", end_ms ? json(*end_ms) : json()}};
}

// The in_routes intervals of `broker_node` at `ns` in the timelines.
json in_routes(const json& result, const std::string& broker_node, const std::string& ns) {
  for (const auto& broker : result["timelines"]["brokers"]) {
    if (broker["node"] != broker_node) continue;
    for (const auto& row : broker["in_routes"]) {
      if (row["nameserver"] == ns) return row["intervals"];
    }
  }
  return nullptr;
}

TEST(NameServerFaultAnalyses, DisagreementLeavesOutAPausedNameServerAsItAnswersNobody) {
  const json result = NameServerFaultRun().result();
  // ns-1 is left out while down; from its restart its empty tables differ from ns-0's until ns-0
  // is paused; on resuming, ns-0 drops broker-a and holds what ns-1 holds.
  EXPECT_EQ(result["nameserver_disagreement"],
            json::parse(R"({"count": 1, "total_ms": 10000, "intervals": [
                              {"start_ms": 30000, "end_ms": 40000, "duration_ms": 10000}]})"));
}

TEST(NameServerFaultAnalyses, MissingWindowsOpenAtTheRestartAndNotWhileDownOrPaused) {
  const json result = NameServerFaultRun().result();
  json windows = json::array();
  for (const auto& window : result["route_health"]["missing_windows"]) {
    windows.push_back({window["nameserver"], window["broker_node"], window["start_ms"],
                       window["end_ms"], window["cause"], window["end_cause"]});
  }
  EXPECT_EQ(windows, json::parse(R"([
    ["ns-0", "broker-b-0", 16000, 16002, "awaiting_registration", "registered"],
    ["ns-1", "broker-a-0", 30000, 31002, "nameserver_restarted", "registered"],
    ["ns-1", "broker-b-0", 30000, 46002, "nameserver_restarted", "registered"]])"));
}

TEST(NameServerFaultAnalyses, InRoutesEndAtTheKillAndGoOnThroughThePause) {
  const json result = NameServerFaultRun().result();
  EXPECT_EQ(in_routes(result, "broker-a-0", "ns-0"), json::array({interval(1002, 50000)}));
  EXPECT_EQ(in_routes(result, "broker-a-0", "ns-1"),
            json::array({interval(1002, 10000), interval(31002, 42001)}));
  EXPECT_EQ(in_routes(result, "broker-b-0", "ns-0"),
            json::array({interval(1002, 12001), interval(16002, std::nullopt)}));
  EXPECT_EQ(in_routes(result, "broker-b-0", "ns-1"),
            json::array({interval(1002, 10000), interval(46002, std::nullopt)}));
}

TEST(NameServerFaultAnalyses, RecoveryWaitsForAKilledNameServerToListTheBrokerAfterItsRestart) {
  const json result = NameServerFaultRun().result();
  ASSERT_EQ(result["outages"].size(), 2u);
  const json& outage = result["outages"][0];
  ASSERT_EQ(outage["fault"], 1);
  json back = json::array();
  for (const auto& entry : outage["recovery"]["nameservers"]) {
    back.push_back({entry["nameserver"], entry["back_at_ms"]});
  }
  // ns-1 is down at broker-b's return (16 s) and lists nothing; restarted empty at 30 s, it lists
  // broker-b from its registration at 46 s.
  EXPECT_EQ(back, json::parse(R"([["ns-0", 16002], ["ns-1", 46002]])"));
  EXPECT_TRUE(result["outages"][1]["recovery"].is_null());  // broker-a-0 never comes back
}

// broker-b-0 is cut from the producer from 12 s to 25 s (fault 0), so the NameServers keep it;
// ns-1 is killed at 20 s and restarted at 21 s (fault 1), and its first registrations after the
// restart arrive at 31 s, after the outage's end.
TEST(NameServerFaultAnalyses, RecoveryCountsARestartedNameServerFromItsFirstRegistration) {
  FaultSpec cut;
  cut.kind = FaultKind::kPartition;
  cut.side_a = {"broker-b-0"};
  cut.side_b = {"producer-0"};
  cut.at_ms = 12000;
  cut.duration_ms = 13000;
  HandMadeRun run({cut, fault_on(FaultKind::kKill, "ns-1", 20000, 1000)});
  run.start("ns-0", 0);
  run.start("ns-1", 0);
  run.start("broker-a-0", 1000);
  run.start("broker-b-0", 1000);
  run.view(1002, "ns-0", {"broker-a-0", "broker-b-0"});
  run.view(1002, "ns-1", {"broker-a-0", "broker-b-0"});
  run.fault(12000, EventKind::kFaultBegin, 0);
  run.network.cut(run.id("broker-b-0"), run.id("producer-0"), 12000);
  run.network.cut(run.id("producer-0"), run.id("broker-b-0"), 12000);
  run.kill(20000, 1, "ns-1");
  run.fault(21000, EventKind::kFaultEnd, 1);
  run.start("ns-1", 21000);
  run.fault(25000, EventKind::kFaultEnd, 0);
  run.network.heal(run.id("broker-b-0"), run.id("producer-0"), 25000);
  run.network.heal(run.id("producer-0"), run.id("broker-b-0"), 25000);
  run.view(31002, "ns-1", {"broker-a-0", "broker-b-0"});
  const json result = run.result();
  ASSERT_EQ(result["outages"].size(), 1u);
  json back = json::array();
  for (const auto& entry : result["outages"][0]["recovery"]["nameservers"]) {
    back.push_back({entry["nameserver"], entry["back_at_ms"]});
  }
  // ns-1 restarted empty at 21 s: it lists broker-b again from its registration at 31 s.
  EXPECT_EQ(back, json::parse(R"([["ns-0", 25000], ["ns-1", 31002]])"));
}

TEST(NameServerFaultAnalyses, TheRestartIsRegisteredAgainByItsFirstView) {
  const json result = NameServerFaultRun().result();
  EXPECT_EQ(result["nameserver_restarts"], json::parse(R"([{
    "nameserver": "ns-1", "restart_ms": 30000, "first_registration_ms": 31002,
    "no_route": {"failed": 0, "last_end_ms": null, "after_first_registration_ms": null}}])"));
}

}  // namespace nameserver_fault_analyses
}  // namespace nssim::sim

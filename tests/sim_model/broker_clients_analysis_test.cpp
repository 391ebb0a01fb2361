// broker_clients_json on hand-made heartbeat records (reports/README.md "Broker client tables"):
// broker-a-0 starts at 1 s (its scans at 11 s, 21 s, ...); producer-0's and producer-1's
// heartbeats reach it at the instants each test gives. The idle close 120 000 ms after the last
// heartbeat, the FIN of a client's close, a restart, and the tables at the end.
#include "sim/analysis/broker_clients_analysis.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "json_number_paths.h"
#include "sim/analysis/result_figures.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim {
namespace broker_clients_analysis {  // named: a unity batch shares file scope

using nlohmann::json;

constexpr std::int64_t kBrokerUp = 1000;

struct Tables {
  Scenario scenario;
  Topology topology;
  NetworkHistory network;
  std::vector<Event> events;
  SendStats sends{{}};

  Tables() {
    scenario = testing::small_cluster(core::Profile::kV5, 1);
    scenario.producers[0].count = 2;
    scenario.duration_ms = 600'000;
    topology = build_topology(scenario);
    for (const auto& node : topology.nodes) network.add_node(node.name, node.link.latency_ms);
    for (const auto& node : topology.nodes) start(node.name, kBrokerUp);
  }
  NodeId id(const std::string& name) const { return topology.by_name.at(name); }
  void start(const std::string& node, std::int64_t t_ms) {
    network.start_process(id(node), t_ms);
    events.push_back({t_ms,
                      node,
                      EventKind::kProcessStart,
                      {{"epoch", network.state_at(id(node), t_ms).epoch}}});
  }
  // A heartbeat of `client` over its channel `channel` to broker-a-0, processed at processed_ms
  // (none: it never reached it), its timeout closing the channel when `closes`.
  void beat(const std::string& client, std::uint64_t channel, std::optional<std::int64_t> processed,
            bool closes = false) {
    const std::int64_t at = processed.value_or(0);
    const std::string& addr =
        topology.nodes[static_cast<std::size_t>(id("broker-a-0"))].broker_addr;
    sends.observer_for(client, "producer")
        .on_heartbeat({"broker-a", 0, addr, at, at + 3000,
                       processed ? SendCause::kOk : SendCause::kRequestTimeout, channel, processed,
                       closes});
  }
  json result() const {
    return broker_clients_json(topology, events, network, sends, scenario.duration_ms).value();
  }
  json broker() const { return result()["per_broker"][0]; }
};

TEST(BrokerClientsAnalysis, NoHeartbeatNoSection) {
  const Tables t;
  EXPECT_EQ(broker_clients_json(t.topology, t.events, t.network, t.sends, 1000), std::nullopt);
}

TEST(BrokerClientsAnalysis, HeartbeatsEvery30sKeepTheChannelToTheEnd) {
  Tables t;
  for (std::int64_t at = 5'000; at < 600'000; at += 30'000) t.beat("producer-0", 1, at);
  const json broker = t.broker();
  EXPECT_EQ(broker["node"], "broker-a-0");
  EXPECT_EQ(broker["heartbeats_processed"], 20);
  EXPECT_EQ(broker["producer_channels_at_end"], 1);
  EXPECT_EQ(broker["removals"],
            json({{"scan_expiry", 0}, {"channel_close", 0}, {"idle", 0}, {"restart", 0}}));
}

// The heartbeats stop at 65 s: the broker's channel idles out at 185 s exactly, before the scan
// of 191 s could find it expired; a heartbeat 120 000 ms after the last one is read first.
TEST(BrokerClientsAnalysis, TheChannelIdlesOut120000msAfterItsLastHeartbeat) {
  Tables t;
  t.beat("producer-0", 1, 5'000);
  t.beat("producer-0", 1, 65'000);
  t.beat("producer-1", 1, 5'000);
  t.beat("producer-1", 1, 125'000);  // exactly 120 000 ms later: read before the idle timer
  t.scenario.duration_ms = 184'999;
  EXPECT_EQ(t.result()["producer_channels_at_end"], 2);
  t.scenario.duration_ms = 185'000;
  const json at_idle = t.result();
  EXPECT_EQ(at_idle["producer_channels_at_end"], 1);
  EXPECT_EQ(at_idle["removals"]["idle"], 1);
  EXPECT_EQ(at_idle["removals"]["scan_expiry"], 0);
}

// After the idle close the client's next heartbeat comes over a new channel: registered again.
TEST(BrokerClientsAnalysis, AHeartbeatAfterTheIdleCloseRegistersAgain) {
  Tables t;
  t.beat("producer-0", 1, 5'000);
  t.beat("producer-0", 1, 300'000);
  const json result = t.result();
  EXPECT_EQ(result["removals"]["idle"], 2);  // at 125 s, and 420 s after the second
  EXPECT_EQ(result["producer_channels_at_end"], 0);
  EXPECT_EQ(result["heartbeats_processed"], 2);
}

// The client's close after a timed-out heartbeat reaches the broker one hop later, unless a cut
// drops the FIN.
TEST(BrokerClientsAnalysis, TheClientsCloseRemovesTheChannelWhenItsFinArrives) {
  Tables t;
  t.beat("producer-0", 1, 5'000);
  t.beat("producer-0", 1, 35'000, /*closes=*/true);  // processed, its response lost: 38 s close
  t.beat("producer-1", 1, 5'000);
  t.beat("producer-1", 1, 35'000, /*closes=*/true);
  t.network.cut(t.id("producer-1"), t.id("broker-a-0"), 37'000);
  const json result = t.result();
  EXPECT_EQ(result["removals"]["channel_close"], 1);
  EXPECT_EQ(result["removals"]["idle"], 1);  // producer-1's, at 155 s
  EXPECT_EQ(result["producer_channels_at_end"], 0);
}

TEST(BrokerClientsAnalysis, ARestartEmptiesTheTablesAndTheNextIncarnationStartsAfresh) {
  Tables t;
  t.beat("producer-0", 1, 5'000);
  t.beat("producer-0", 1, 35'000);
  t.network.stop_process(t.id("broker-a-0"), DownKind::kCrash, 50'000);
  t.start("broker-a-0", 60'000);
  t.beat("producer-0", 2, 65'000);
  t.beat("producer-0", 2, 95'000);
  t.scenario.duration_ms = 100'000;
  const json result = t.result();
  EXPECT_EQ(result["removals"]["restart"], 1);
  EXPECT_EQ(result["producer_channels_at_end"], 1);
  EXPECT_EQ(result["heartbeats_processed"], 4);
}

TEST(BrokerClientsAnalysis, EveryFigureIsInTheCatalogue) {
  Tables t;
  t.beat("producer-0", 1, 5'000);
  std::vector<std::string> paths;
  testing::number_paths(t.result(), "broker_clients", paths);
  EXPECT_EQ(paths.size(), 15U);  // the delay distribution is null without a scan expiry
  for (const auto& path : paths) EXPECT_EQ(unknown_figure(path), std::nullopt) << path;
}

}  // namespace broker_clients_analysis
}  // namespace nssim::sim

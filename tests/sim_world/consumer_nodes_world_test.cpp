// Consumer nodes in the world: no SimGrid host or actor, yet their processes start at their start
// instants and every fault on them is recorded in NetworkHistory at its instant with the brokers'
// restart rules (a restart is a new epoch, so a new clientId); the brokers' stored messages are
// kept per queue, one per stored attempt; the consumers' topics have route answers. The consumer
// model reads exactly these after the engine has run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "sim/scenario/scenario_loader.h"
#include "sim/world/incarnations.h"
#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"

namespace nssim::sim::testing {
namespace {

// The test file, under `profile`; 4.9 has no rocketmq.client.rebalance.minInterval.
Scenario plumbing(core::Profile profile) {
  const char* source = std::getenv("NSSIM_SOURCE_DIR");
  const std::filesystem::path file = std::filesystem::path(source != nullptr ? source : ".") /
                                     "tests" / "scenarios" / "consumers_plumbing.json";
  std::ifstream in(file);
  nlohmann::json document = nlohmann::json::parse(in);
  if (profile == core::Profile::kV4_9) {
    document["consumers"][0]["config"].erase("rocketmq.client.rebalance.minInterval");
  }
  LoadOptions options;
  options.profile = profile;
  return parse_scenario(document.dump(), file.string(), options);
}

nlohmann::json state_json(const NodeState& state) {
  return {{"host_up", state.host_up},
          {"process", static_cast<int>(state.process)},
          {"epoch", state.epoch},
          {"down_kind", static_cast<int>(state.down_kind)},
          {"latency_ms", state.latency_ms}};
}

// What the test reads from the record, in the child that ran it: each consumer's state at the
// given instants, whether consumer-0's path to broker-a-0 is open then, the stored messages
// against the sends' counts, and the route topics.
nlohmann::json consumer_view(WorldRecord& record, const std::vector<std::int64_t>& instants) {
  nlohmann::json view;
  const NetworkHistory& network = *record.network;
  for (const NodeId node : record.topology.consumers) {
    const std::string& name = record.topology.nodes[static_cast<std::size_t>(node)].name;
    for (const std::int64_t t : instants) {
      view["states"][name][std::to_string(t)] = state_json(network.state_at(node, t));
    }
    view["start_ms"][name] = record.topology.nodes[static_cast<std::size_t>(node)].start_ms;
  }
  const NodeId consumer = record.topology.by_name.at("consumer-0");
  const NodeId broker = record.topology.by_name.at("broker-a-0");
  for (const std::int64_t t : instants) {
    view["cut"][std::to_string(t)] =
        !network.path_open(consumer, broker, t) && !network.path_open(broker, consumer, t);
  }
  const SendCounts& totals = record.sends->totals();
  view["sends_ok"] = totals.sends - totals.failed();
  view["failed_but_stored"] = totals.failed_but_stored;
  view["duplicates_stored"] = totals.duplicates_stored;
  view["stored_total"] = record.stored ? record.stored->total() : -1;
  view["finished"] = record.stored && record.stored->finished();
  std::int64_t in_queues = 0;
  bool sorted = true;
  if (record.stored) {
    for (const auto& [key, queue] : record.stored->queues()) {
      in_queues += queue.size();
      view["queues"].push_back(key.broker_name + "/" + key.topic + "/" +
                               std::to_string(key.queue_id));
      for (std::int64_t i = 1; i < queue.size(); ++i) {
        sorted = sorted && queue.stored_ms(i - 1) <= queue.stored_ms(i);
      }
    }
  }
  view["in_queues"] = in_queues;
  view["sorted"] = sorted;
  view["hosts"] = record.topology.nodes.size();
  return view;
}

class ConsumerNodes : public ::testing::TestWithParam<core::Profile> {};

TEST_P(ConsumerNodes, FaultsOnConsumersAreRecordedAtTheirInstants) {
  const Scenario s = plumbing(GetParam());
  const std::vector<std::int64_t> instants = {
      0,      59999,  60000,  69999,  70000,  80000,  90000,  94999,  95000,  100000,
      109999, 110000, 119999, 120000, 150000, 169999, 170000, 200000, 209999, 210000};
  const auto result = run_isolated(s, [&](WorldRecord& record) {
    return nlohmann::json{{"view", consumer_view(record, instants)}};
  });
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const auto& view = result["view"];
  const auto at = [&view](const char* node, std::int64_t t) {
    return view["states"][node][std::to_string(t)];
  };
  const int up = static_cast<int>(ProcessState::kUp);
  const int down = static_cast<int>(ProcessState::kDown);
  const int paused = static_cast<int>(ProcessState::kPaused);
  // Started at their start instants (drawn in [20000, 30000]; auditor-0 at 25000), epoch 1.
  for (const char* node : {"consumer-0", "consumer-1", "consumer-2", "auditor-0"}) {
    EXPECT_EQ(at(node, 0)["process"], down) << node;
    EXPECT_EQ(at(node, 59999)["process"], up) << node;
    EXPECT_EQ(at(node, 59999)["epoch"], 1) << node;
    const std::int64_t start = view["start_ms"][node].get<std::int64_t>();
    EXPECT_GE(start, 20000) << node;
    EXPECT_LE(start, 30000) << node;
  }
  EXPECT_EQ(view["start_ms"]["auditor-0"], 25000);
  // kill consumer-0 at 60 s for 10 s: a crash, then a new incarnation.
  EXPECT_EQ(at("consumer-0", 60000)["process"], down);
  EXPECT_EQ(at("consumer-0", 60000)["down_kind"], static_cast<int>(DownKind::kCrash));
  EXPECT_TRUE(at("consumer-0", 60000)["host_up"]);
  EXPECT_EQ(at("consumer-0", 69999)["process"], down);
  EXPECT_EQ(at("consumer-0", 70000)["process"], up);
  EXPECT_EQ(at("consumer-0", 70000)["epoch"], 2);
  // poweroff consumer-1 at 80 s for 30 s: host and process down, booted and restarted.
  EXPECT_FALSE(at("consumer-1", 80000)["host_up"]);
  EXPECT_EQ(at("consumer-1", 80000)["process"], down);
  EXPECT_EQ(at("consumer-1", 80000)["down_kind"], static_cast<int>(DownKind::kPoweroff));
  EXPECT_FALSE(at("consumer-1", 109999)["host_up"]);
  EXPECT_TRUE(at("consumer-1", 110000)["host_up"]);
  EXPECT_EQ(at("consumer-1", 110000)["process"], up);
  EXPECT_EQ(at("consumer-1", 110000)["epoch"], 2);
  // pause consumer-2 at 90 s for 5 s: the same incarnation resumes.
  EXPECT_EQ(at("consumer-2", 90000)["process"], paused);
  EXPECT_EQ(at("consumer-2", 94999)["process"], paused);
  EXPECT_EQ(at("consumer-2", 95000)["process"], up);
  EXPECT_EQ(at("consumer-2", 95000)["epoch"], 1);
  // shutdown auditor-0 at 100 s for 20 s: a clean stop, then a new incarnation.
  EXPECT_EQ(at("auditor-0", 100000)["process"], down);
  EXPECT_EQ(at("auditor-0", 100000)["down_kind"], static_cast<int>(DownKind::kShutdown));
  EXPECT_EQ(at("auditor-0", 119999)["process"], down);
  EXPECT_EQ(at("auditor-0", 120000)["process"], up);
  EXPECT_EQ(at("auditor-0", 120000)["epoch"], 2);
  // partition consumers | broker-a from 150 s for 20 s, both ways.
  EXPECT_FALSE(view["cut"]["120000"]);
  EXPECT_TRUE(view["cut"]["150000"]);
  EXPECT_TRUE(view["cut"]["169999"]);
  EXPECT_FALSE(view["cut"]["170000"]);
  // latency consumer-0 50 ms from 200 s for 10 s, then its own 0.5 ms again.
  EXPECT_DOUBLE_EQ(at("consumer-0", 200000)["latency_ms"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(at("consumer-0", 209999)["latency_ms"].get<double>(), 50.0);
  EXPECT_DOUBLE_EQ(at("consumer-0", 210000)["latency_ms"].get<double>(), 0.5);
  EXPECT_DOUBLE_EQ(at("auditor-0", 200000)["latency_ms"].get<double>(), 2.0);
  // Consumer nodes are in result.json's nodes, without an address, as producers are.
  int consumers = 0;
  for (const auto& node : result["nodes"]) {
    if (node["role"] != "consumer") continue;
    ++consumers;
    EXPECT_FALSE(node.contains("addr")) << node.dump();
  }
  EXPECT_EQ(consumers, 4);
}

// 2 producers at 4 sends/s over about 250 s: some 2,000 sends, each stored once when it succeeds
// (no broker fault here), plus what a failed or retried send stored.
TEST_P(ConsumerNodes, StoredMessagesAreTheSendsStoredCopiesPerQueueInStoreOrder) {
  const auto result = run_isolated(plumbing(GetParam()), [](WorldRecord& record) {
    return nlohmann::json{{"view", consumer_view(record, {})}};
  });
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const auto& view = result["view"];
  EXPECT_TRUE(view["finished"]);
  const std::int64_t copies = view["sends_ok"].get<std::int64_t>() +
                              view["failed_but_stored"].get<std::int64_t>() +
                              view["duplicates_stored"].get<std::int64_t>();
  EXPECT_GT(copies, 1500);
  EXPECT_LT(copies, 2500);
  EXPECT_EQ(view["stored_total"], copies);
  EXPECT_EQ(view["in_queues"], copies);
  EXPECT_TRUE(view["sorted"]);
  // TopicTest has 4 queues on each group, Audit 16: every queue a producer picked is there.
  EXPECT_GE(view["queues"].size(), 8u);
  EXPECT_LE(view["queues"].size(), 8u + 32u);
  EXPECT_EQ(view["queues"][0], "broker-a/Audit/0");  // ordered by topic first
}

// A topic only consumers subscribe still has its NameServer answers kept: the consumer model
// reads them. Without consumers the list is the producers' and TBW102, as before.
TEST(ConsumerNodesRoutes, ConsumersTopicsAreAmongTheRouteQueryTopics) {
  Scenario s = plumbing(core::Profile::kV5);
  s.producers[0].topics = {"TopicTest"};
  const std::vector<std::string> topics = route_query_topics(s);
  EXPECT_EQ(std::count(topics.begin(), topics.end(), "Audit"), 1);
  EXPECT_EQ(topics.front(), "TBW102");
  s.consumers.clear();
  EXPECT_EQ(route_query_topics(s), (std::vector<std::string>{"TBW102", "TopicTest"}));
}

TEST(ConsumerNodesAbsent, NoStoredMessagesWithoutConsumers) {
  Scenario s = plumbing(core::Profile::kV5);
  s.consumers.clear();
  s.faults.clear();
  const auto result = run_isolated(s, [](WorldRecord& record) {
    return nlohmann::json{{"stored", record.stored != nullptr},
                          {"consumer_nodes", record.topology.consumers.size()}};
  });
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_FALSE(result["stored"]);
  EXPECT_EQ(result["consumer_nodes"], 0);
}

INSTANTIATE_TEST_SUITE_P(Simulator, ConsumerNodes,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

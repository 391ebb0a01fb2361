// The "consumers" block: push consumer sets by upstream names and defaults, their nodes after the
// producers in the one namespace of node names, faults on them, and every refusal as one line
// naming the file and the JSON path.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "scenario_error_helpers.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {
namespace {

using scenario_testing::error_of;
using scenario_testing::json;
using scenario_testing::minimal;

std::string plumbing_file() {
  const char* source = std::getenv("NSSIM_SOURCE_DIR");
  return (std::filesystem::path(source != nullptr ? source : ".") / "tests" / "scenarios" /
          "consumers_plumbing.json")
      .string();
}

json with_consumers(json consumers) {
  json doc = minimal();
  doc["consumers"] = std::move(consumers);
  return doc;
}

std::string consumer_error(const char* entry_json) {
  return error_of(with_consumers(json::array({json::parse(entry_json)})));
}

TEST(ScenarioConsumers, DefaultsAreUpstreams) {
  const Scenario s = parse_scenario(
      with_consumers(json::parse(R"([{"group": "g", "topics": ["TopicTest"]}])")).dump(), "x.json",
      {});
  ASSERT_EQ(s.consumers.size(), 1u);
  const ConsumerSpec& spec = s.consumers[0];
  EXPECT_EQ(spec.group, "g");
  EXPECT_EQ(spec.name_prefix, "consumer");
  EXPECT_EQ(spec.count, 1);
  EXPECT_EQ(spec.consume_ms, 1);
  EXPECT_EQ(spec.start.min_ms, 15000);
  EXPECT_EQ(spec.start.max_ms, 45000);
  EXPECT_TRUE(spec.nameservers.empty());
  const ConsumerConfig& c = spec.config;
  EXPECT_EQ(c.poll_name_server_interval, 30000);
  EXPECT_EQ(c.heartbeat_broker_interval, 30000);
  EXPECT_EQ(c.persist_consumer_offset_interval, 5000);
  EXPECT_EQ(c.mq_client_api_timeout, 3000);
  EXPECT_EQ(c.connect_timeout_millis, 3000);
  EXPECT_TRUE(c.client_close_socket_if_timeout);
  EXPECT_EQ(c.pull_batch_size, 32);
  EXPECT_EQ(c.pull_interval, 0);
  EXPECT_EQ(c.consume_thread_min, 20);
  EXPECT_EQ(c.consume_thread_max, 20);
  EXPECT_EQ(c.pull_time_delay_mills_when_exception, 1000);
  EXPECT_EQ(c.broker_suspend_max_time_millis, 15000);
  EXPECT_EQ(c.rebalance_wait_interval, 20000);
  EXPECT_EQ(c.rebalance_min_interval, 1000);
}

TEST(ScenarioConsumers, TheTestFileLoadsEveryField) {
  const Scenario s = load_scenario_file(plumbing_file(), {});
  ASSERT_EQ(s.consumers.size(), 2u);
  const ConsumerSpec& orders = s.consumers[0];
  EXPECT_EQ(orders.group, "orders");
  EXPECT_EQ(orders.count, 3);
  EXPECT_EQ(orders.topics, (std::vector<std::string>{"TopicTest"}));
  EXPECT_EQ(orders.consume_ms, 5);
  EXPECT_EQ(orders.start.min_ms, 20000);
  EXPECT_EQ(orders.start.max_ms, 30000);
  EXPECT_EQ(orders.config.pull_batch_size, 16);
  EXPECT_EQ(orders.config.consume_thread_min, 4);
  EXPECT_EQ(orders.config.consume_thread_max, 8);
  EXPECT_EQ(orders.config.persist_consumer_offset_interval, 2000);
  EXPECT_EQ(orders.config.rebalance_wait_interval, 10000);
  EXPECT_EQ(orders.config.rebalance_min_interval, 500);
  EXPECT_EQ(orders.nameservers, (std::vector<int>{1}));
  const ConsumerSpec& audit = s.consumers[1];
  EXPECT_EQ(audit.name_prefix, "auditor");
  EXPECT_EQ(audit.topics, (std::vector<std::string>{"Audit", "TopicTest"}));
  EXPECT_EQ(audit.start.min_ms, 25000);
  EXPECT_EQ(audit.start.max_ms, 25000);
  EXPECT_DOUBLE_EQ(audit.link.latency_ms, 2.0);
  // Faults on consumer nodes resolve to them; "consumers" is every consumer, in node order.
  ASSERT_EQ(s.faults.size(), 6u);
  EXPECT_EQ(s.faults[0].nodes, (std::vector<std::string>{"consumer-0"}));
  EXPECT_EQ(s.faults[3].nodes, (std::vector<std::string>{"auditor-0"}));
  EXPECT_EQ(s.faults[4].side_a,
            (std::vector<std::string>{"consumer-0", "consumer-1", "consumer-2", "auditor-0"}));
  EXPECT_EQ(s.faults[4].side_b, (std::vector<std::string>{"broker-a-0"}));
}

TEST(ScenarioConsumers, NodesComeAfterTheProducersWithTheirOwnAddresses) {
  const Scenario s = load_scenario_file(plumbing_file(), {});
  const Topology topology = build_topology(s);
  const std::vector<std::string> names = node_names(s);
  ASSERT_EQ(topology.nodes.size(), names.size());
  ASSERT_EQ(topology.nodes.size(), 2u + 2u + 2u + 4u);
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_EQ(topology.nodes[i].name, names[i]);
  ASSERT_EQ(topology.consumers.size(), 4u);
  const std::vector<std::string> expected = {"consumer-0", "consumer-1", "consumer-2", "auditor-0"};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const TopologyNode& node = topology.nodes[static_cast<std::size_t>(topology.consumers[i])];
    EXPECT_EQ(topology.consumers[i], static_cast<NodeId>(6 + i));  // after ns, brokers, producers
    EXPECT_EQ(node.name, expected[i]);
    EXPECT_EQ(node.role, NodeRole::kConsumer);
    EXPECT_STREQ(node_role_name(node.role), "consumer");
    EXPECT_EQ(node.consumer_spec, i < 3 ? 0u : 1u);
    EXPECT_EQ(node.broker_addr, "10.3.0." + std::to_string(i + 1));
    EXPECT_EQ(topology.by_name.at(node.name), topology.consumers[i]);
  }
  for (std::size_t i = 0; i < 3; ++i) {  // drawn from [20000, 30000] with the seed
    const std::int64_t start =
        topology.nodes[static_cast<std::size_t>(topology.consumers[i])].start_ms;
    EXPECT_GE(start, 20000);
    EXPECT_LE(start, 30000);
  }
  EXPECT_EQ(topology.nodes[static_cast<std::size_t>(topology.consumers[3])].start_ms, 25000);
  EXPECT_EQ(consumer_name("auditor", 0), "auditor-0");
}

TEST(ScenarioConsumers, WithoutConsumersTheTopologyIsUnchanged) {
  const Scenario s = parse_scenario(minimal().dump(), "x.json", {});
  const Topology topology = build_topology(s);
  EXPECT_TRUE(s.consumers.empty());
  EXPECT_TRUE(topology.consumers.empty());
  EXPECT_EQ(topology.nodes.size(), 3u + 3u + 2u);
}

TEST(ScenarioConsumers, SetReachesDottedSystemPropertyNames) {
  LoadOptions options;
  options.set = {"consumers[0].config.rocketmq.client.rebalance.waitInterval=30000",
                 "consumers[0].config.pullBatchSize=64"};
  const Scenario s = parse_scenario(
      with_consumers(json::parse(R"([{"group": "g", "topics": ["TopicTest"]}])")).dump(), "x.json",
      options);
  EXPECT_EQ(s.consumers[0].config.rebalance_wait_interval, 30000);
  EXPECT_EQ(s.consumers[0].config.pull_batch_size, 64);
  options.set = {"consumers[0].config.rocketmq.client.rebalance.waitIntervl=30000"};
  EXPECT_EQ(error_of(with_consumers(json::parse(R"([{"group": "g", "topics": ["TopicTest"]}])")),
                     options),
            "x.json: consumers[0].config.rocketmq.client.rebalance.waitIntervl: unknown field "
            "(did you mean rocketmq.client.rebalance.waitInterval?)");
}

TEST(ScenarioConsumers, RefusesWhatUpstreamRefusesOrNssimCannotModel) {
  EXPECT_EQ(consumer_error(R"({"topics": ["TopicTest"]})"),
            "x.json: consumers[0].group: is required");
  EXPECT_EQ(consumer_error(R"({"group": "", "topics": ["TopicTest"]})"),
            "x.json: consumers[0].group: must be 1 to 127 characters of letters, digits, _ - % |, "
            "got ''");
  EXPECT_EQ(consumer_error(R"({"group": "DEFAULT_CONSUMER", "topics": ["TopicTest"]})"),
            "x.json: consumers[0].group: must not be DEFAULT_CONSUMER (upstream refuses the "
            "default group)");
  EXPECT_EQ(consumer_error(R"({"group": "g"})"),
            "x.json: consumers[0].topics: is required: the topics the group subscribes");
  EXPECT_EQ(consumer_error(R"({"group": "g", "topics": []})"),
            "x.json: consumers[0].topics: must name at least one topic");
  EXPECT_EQ(consumer_error(R"({"group": "g", "topics": ["TopicTst"]})"),
            "x.json: consumers[0].topics[0]: no topic named 'TopicTst' (did you mean TopicTest?)");
  EXPECT_EQ(consumer_error(R"({"group": "g", "topics": ["TopicTest"], "count": 0})"),
            "x.json: consumers[0].count: must be >= 1");
  EXPECT_EQ(consumer_error(R"({"group": "g", "topics": ["TopicTest"], "consume_ms": -1})"),
            "x.json: consumers[0].consume_ms: must be >= 0");
  EXPECT_EQ(
      consumer_error(R"({"group": "g", "topics": ["TopicTest"], "config": {"pullBatchSize": 0}})"),
      "x.json: consumers[0].config.pullBatchSize: must be > 0");
  EXPECT_EQ(consumer_error(
                R"({"group": "g", "topics": ["TopicTest"], "config": {"pullBatchSize": 1025}})"),
            "x.json: consumers[0].config.pullBatchSize: must be <= 1024");
  EXPECT_EQ(consumer_error(
                R"({"group": "g", "topics": ["TopicTest"], "config": {"consumeThreadMin": 30}})"),
            "x.json: consumers[0].config.consumeThreadMin: must be <= consumeThreadMax (20), got "
            "30");
  EXPECT_EQ(consumer_error(
                R"({"group": "g", "topics": ["TopicTest"], "config": {"consumeThreadMin": 0}})"),
            "x.json: consumers[0].config.consumeThreadMin: must be > 0");
  EXPECT_EQ(consumer_error(R"({"group": "g", "topics": ["TopicTest"],
                               "config": {"persistConsumerOffsetInterval": 0}})"),
            "x.json: consumers[0].config.persistConsumerOffsetInterval: must be > 0");
  EXPECT_EQ(
      consumer_error(R"({"group": "g", "topics": ["TopicTest"], "config": {"pullInterval": -1}})"),
      "x.json: consumers[0].config.pullInterval: must be >= 0");
  EXPECT_EQ(consumer_error(
                R"({"group": "g", "topics": ["TopicTest"], "config": {"pullBatchSize": "32"}})"),
            "x.json: consumers[0].config.pullBatchSize: must be an integer, got \"32\"");
  EXPECT_EQ(consumer_error(R"({"group": "g", "topics": ["TopicTest"],
                               "config": {"messageModel": "BROADCASTING"}})")
                .rfind("x.json: consumers[0].config.messageModel: unknown field", 0),
            0u);
  EXPECT_EQ(consumer_error(R"({"group": "g", "topics": ["TopicTest"], "consumeOrderly": true})")
                .rfind("x.json: consumers[0].consumeOrderly: unknown field", 0),
            0u);
  EXPECT_EQ(consumer_error(R"({"group": "g", "topics": ["TopicTest"], "pullBatchSize": 8})"),
            error_of(with_consumers(
                json::parse(R"([{"group": "g", "topics": ["TopicTest"], "pullBatchSize": 8}])"))));
}

TEST(ScenarioConsumers, FiveXOnlySettingsAreRefusedUnder49) {
  json doc = with_consumers(json::parse(
      R"([{"group": "g", "topics": ["TopicTest"],
           "config": {"rocketmq.client.rebalance.minInterval": 500}}])"));
  doc["profile"] = "4.9";
  EXPECT_EQ(error_of(doc),
            "x.json: consumers[0].config.rocketmq.client.rebalance.minInterval: only exists in "
            "profile 5.x (this scenario runs profile 4.9)");
}

TEST(ScenarioConsumers, GroupsAndNodeNamesAreEachUsedOnce) {
  EXPECT_EQ(error_of(with_consumers(json::parse(
                R"([{"group": "g", "topics": ["TopicTest"]},
                    {"group": "g", "name_prefix": "other", "topics": ["TopicTest"]}])"))),
            "x.json: consumers[1].group: consumer group 'g' is already used by consumers[0] (one "
            "entry per group: give it a count)");
  EXPECT_EQ(consumer_error(R"({"group": "g", "name_prefix": "app", "topics": ["TopicTest"]})"),
            "x.json: consumers[0].name_prefix: 'app' is already used by producers[0]");
  EXPECT_EQ(error_of(with_consumers(json::parse(
                R"([{"group": "g", "topics": ["TopicTest"]},
                    {"group": "h", "topics": ["TopicTest"]}])"))),
            "x.json: consumers[1].name_prefix: 'consumer' is already used by consumers[0]");
  EXPECT_EQ(consumer_error(R"({"group": "g", "name_prefix": "broker-a", "topics": ["TopicTest"]})"),
            "x.json: consumers[0].name_prefix: 'broker-a' is already used by broker_groups[0]");
  EXPECT_EQ(
      consumer_error(R"({"group": "g", "name_prefix": "consumers", "topics": ["TopicTest"]})"),
      "x.json: consumers[0].name_prefix: 'consumers' is reserved (a partition keyword)");
}

TEST(ScenarioConsumers, FaultsTakeConsumerNodesAndSides) {
  json doc = with_consumers(
      json::parse(R"([{"group": "g", "name_prefix": "c", "count": 2, "topics": ["TopicTest"]}])"));
  doc["faults"] = json::parse(R"([
    {"kind": "kill", "node": "c-0", "at_ms": 1000, "duration_ms": 1000},
    {"kind": "partition", "from": ["c"], "to": ["brokers"], "at_ms": 2000},
    {"kind": "partition", "from": ["app"], "to": ["c-1"], "at_ms": 3000}])");
  const Scenario s = parse_scenario(doc.dump(), "x.json", {});
  EXPECT_EQ(s.faults[0].nodes, (std::vector<std::string>{"c-0"}));
  EXPECT_EQ(s.faults[1].side_a, (std::vector<std::string>{"c-0", "c-1"}));
  EXPECT_EQ(s.faults[2].side_b, (std::vector<std::string>{"c-1"}));
  doc["faults"] = json::parse(R"([
    {"kind": "pause", "node": "c-0", "at_ms": 1000, "duration_ms": 5000},
    {"kind": "kill", "node": "c-0", "at_ms": 2000}])");
  EXPECT_EQ(error_of(doc),
            "x.json: faults[1]: overlaps faults[0] on 'c-0' (one kill, poweroff, shutdown or pause "
            "per node at a time)");
}

TEST(ScenarioConsumers, ExploreTakesConsumerNodesAndSides) {
  json doc = with_consumers(
      json::parse(R"([{"group": "g", "name_prefix": "c", "count": 2, "topics": ["TopicTest"]}])"));
  doc["explore"] = json::parse(R"({"kinds": {"kill": 1, "partition": 1},
    "targets": ["c-0", "consumers", "c", "brokers"], "faults": {"min": 1, "max": 2},
    "at_ms": {"min_ms": 60000, "max_ms": 70000}, "duration_ms": {"min_ms": 1000, "max_ms": 9000}})");
  const Scenario s = parse_scenario(doc.dump(), "x.json", {});
  ASSERT_TRUE(s.explore.has_value());
  const auto& targets = s.explore->targets;
  ASSERT_EQ(targets.size(), 4u);
  EXPECT_EQ(targets[0].form, ExploreTargetForm::kNode);
  EXPECT_EQ(targets[0].kinds, (std::vector<FaultKind>{FaultKind::kKill, FaultKind::kPartition}));
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(targets[i].form, ExploreTargetForm::kSideOnly);
    EXPECT_EQ(targets[i].nodes, (std::vector<std::string>{"c-0", "c-1"}));
    EXPECT_EQ(targets[i].kinds, (std::vector<FaultKind>{FaultKind::kPartition}));
  }
}

}  // namespace
}  // namespace nssim::sim

// The scenario loader on valid input: upstream defaults per profile, count expansion, fault target
// and partition resolution, command-line overrides and expectation parsing.
#include "sim/scenario/scenario_loader.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace nssim::sim {
namespace {

using nlohmann::json;

json one_group_document() {
  return json::parse(R"({
    "name": "t", "duration_ms": 600000,
    "broker_groups": [{"name": "broker-a"}],
    "topics": [{"name": "TopicTest"}]
  })");
}

Scenario load(const json& document, const LoadOptions& options = {}) {
  return parse_scenario(document.dump(), "x.json", options);
}

void expect_upstream_defaults(const Scenario& s, std::int64_t register_broker_timeout_mills) {
  ASSERT_EQ(s.broker_groups.size(), 1u);
  const BrokerGroupSpec& group = s.broker_groups[0];
  EXPECT_EQ(group.cluster, "DefaultCluster");
  EXPECT_EQ(group.slaves, 0);
  const BrokerConfig& b = group.config;
  EXPECT_EQ(b.register_name_server_period, 30000);
  EXPECT_EQ(b.register_broker_timeout_mills, register_broker_timeout_mills);
  EXPECT_TRUE(b.force_register);
  EXPECT_EQ(b.broker_permission, 6);
  EXPECT_FALSE(b.enable_slave_acting_master);
  EXPECT_EQ(b.broker_heartbeat_interval, 1000);
  EXPECT_EQ(b.broker_not_active_timeout_millis, 10000);
  EXPECT_TRUE(b.compatible_with_old_name_srv);
  EXPECT_TRUE(b.auto_create_topic_enable);
  EXPECT_EQ(b.default_topic_queue_nums, 8);

  ASSERT_EQ(s.topics.size(), 1u);
  EXPECT_EQ(s.topics[0].read_queue_nums, 16);  // TopicConfig#defaultReadQueueNums
  EXPECT_EQ(s.topics[0].write_queue_nums, 16);
  EXPECT_EQ(s.topics[0].perm, 6);
  EXPECT_EQ(s.topics[0].groups, std::vector<std::string>{"broker-a"});

  EXPECT_EQ(s.nameservers.count, 3);
  EXPECT_EQ(s.nameservers.config.scan_not_active_broker_interval, 5000);
  EXPECT_EQ(s.nameservers.server_channel_max_idle_time_seconds, 120);
  EXPECT_EQ(s.nameservers.start.min_ms, 0);
  EXPECT_EQ(s.nameservers.start.max_ms, 5000);
  EXPECT_DOUBLE_EQ(s.nameservers.link.latency_ms, 0.5);
  EXPECT_DOUBLE_EQ(s.nameservers.link.bandwidth_mbps, 1000.0);
  EXPECT_EQ(s.seed, 1u);
  EXPECT_TRUE(s.producers.empty());
  EXPECT_TRUE(s.faults.empty());
  EXPECT_TRUE(s.expect.empty());
}

void expect_producer_defaults(const ProducerConfig& p) {
  EXPECT_EQ(p.poll_name_server_interval, 30000);
  EXPECT_EQ(p.heartbeat_broker_interval, 30000);
  EXPECT_EQ(p.mq_client_api_timeout, 3000);
  EXPECT_EQ(p.send_msg_timeout, 3000);
  EXPECT_EQ(p.retry_times_when_send_failed, 2);
  EXPECT_FALSE(p.send_latency_fault_enable);
  EXPECT_FALSE(p.retry_another_broker_when_not_store_ok);
  EXPECT_EQ(p.send_msg_max_timeout_per_request, -1);
  EXPECT_FALSE(p.start_detector_enable);
  EXPECT_EQ(p.connect_timeout_millis, 3000);
  EXPECT_TRUE(p.client_close_socket_if_timeout);
}

TEST(ScenarioLoader, DefaultsFollowUpstream5x) {
  const Scenario s = load(one_group_document());
  EXPECT_EQ(s.profile, core::Profile::kV5);
  expect_upstream_defaults(s, 24000);
}

TEST(ScenarioLoader, DefaultsFollowUpstream49) {
  json doc = one_group_document();
  doc["profile"] = "4.9";
  const Scenario s = load(doc);
  EXPECT_EQ(s.profile, core::Profile::kV4_9);
  expect_upstream_defaults(s, 6000);
}

TEST(ScenarioLoader, ProducerDefaultsFollowUpstreamInBothProfiles) {
  for (const char* profile : {"4.9", "5.x"}) {
    json doc = one_group_document();
    doc["profile"] = profile;
    doc["producers"] = json::parse(R"([{}])");
    const Scenario s = load(doc);
    ASSERT_EQ(s.producers.size(), 1u);
    const ProducerSpec& p = s.producers[0];
    EXPECT_EQ(p.name_prefix, "producer");
    EXPECT_EQ(p.count, 1);
    EXPECT_EQ(p.topics, std::vector<std::string>{"TopicTest"});
    EXPECT_DOUBLE_EQ(p.rate_per_s, 1.0);
    EXPECT_EQ(p.arrival, Arrival::kFixed);
    EXPECT_EQ(p.message_size_bytes, 1024);
    EXPECT_EQ(p.start.min_ms, 15000);
    EXPECT_EQ(p.start.max_ms, 45000);
    expect_producer_defaults(p.config);
  }
}

TEST(ScenarioLoader, ReadsEveryField) {
  json doc = json::parse(R"({
    "$schema": "./schema.json", "name": "full", "description": "d", "profile": "5.x",
    "seed": 18446744073709551615, "duration_ms": 900000,
    "nameservers": {"count": 2, "config": {"scanNotActiveBrokerInterval": "7000",
                    "orderMessageEnable": true, "waitSecondsForService": 30},
                    "serverChannelMaxIdleTimeSeconds": 60,
                    "link": {"latency_ms": 2, "bandwidth_mbps": 100}, "start_ms": 10},
    "broker_groups": [{"name": "broker-a", "cluster": "c1", "slaves": 1,
      "config": {"registerNameServerPeriod": 10000, "enableSlaveActingMaster": true,
                 "brokerNotActiveTimeoutMillis": 20000, "forceRegister": false},
      "link": {"latency_ms": 1.5}, "start": {"min_ms": 100, "max_ms": 200}}],
    "topics": [{"name": "T", "groups": ["broker-a"], "readQueueNums": 4, "writeQueueNums": 2,
                "perm": 4}],
    "producers": [{"name_prefix": "app", "count": 2, "topics": ["T"], "rate_per_s": 2.5,
      "arrival": "poisson", "message_size_bytes": 4096,
      "config": {"sendLatencyFaultEnable": true, "sendMsgMaxTimeoutPerRequest": 1000,
                 "retryTimesWhenSendFailed": 0}}]
  })");
  const Scenario s = load(doc);
  EXPECT_EQ(s.file, "x.json");
  EXPECT_EQ(s.description, "d");
  EXPECT_EQ(s.seed, 18446744073709551615ULL);
  EXPECT_EQ(s.nameservers.count, 2);
  EXPECT_EQ(s.nameservers.config.scan_not_active_broker_interval, 7000);
  EXPECT_TRUE(s.nameservers.config.order_message_enable);
  EXPECT_EQ(s.nameservers.config.wait_seconds_for_service, 30);
  EXPECT_EQ(s.nameservers.server_channel_max_idle_time_seconds, 60);
  EXPECT_DOUBLE_EQ(s.nameservers.link.latency_ms, 2.0);
  EXPECT_DOUBLE_EQ(s.nameservers.link.bandwidth_mbps, 100.0);
  EXPECT_EQ(s.nameservers.start.min_ms, 10);
  EXPECT_EQ(s.nameservers.start.max_ms, 10);
  const BrokerGroupSpec& g = s.broker_groups.at(0);
  EXPECT_EQ(g.cluster, "c1");
  EXPECT_EQ(g.slaves, 1);
  EXPECT_EQ(g.config.register_name_server_period, 10000);
  EXPECT_TRUE(g.config.enable_slave_acting_master);
  EXPECT_EQ(g.config.broker_not_active_timeout_millis, 20000);
  EXPECT_FALSE(g.config.force_register);
  EXPECT_DOUBLE_EQ(g.link.latency_ms, 1.5);
  EXPECT_DOUBLE_EQ(g.link.bandwidth_mbps, 1000.0);
  EXPECT_EQ(g.start.min_ms, 100);
  EXPECT_EQ(g.start.max_ms, 200);
  EXPECT_EQ(s.topics.at(0).read_queue_nums, 4);
  EXPECT_EQ(s.topics.at(0).write_queue_nums, 2);
  EXPECT_EQ(s.topics.at(0).perm, 4);
  const ProducerSpec& p = s.producers.at(0);
  EXPECT_EQ(p.count, 2);
  EXPECT_DOUBLE_EQ(p.rate_per_s, 2.5);
  EXPECT_EQ(p.arrival, Arrival::kPoisson);
  EXPECT_EQ(p.message_size_bytes, 4096);
  EXPECT_TRUE(p.config.send_latency_fault_enable);
  EXPECT_EQ(p.config.send_msg_max_timeout_per_request, 1000);
  EXPECT_EQ(p.config.retry_times_when_send_failed, 0);
}

TEST(ScenarioLoader, CountExpandsGroupsTopicsAndProducers) {
  json doc = one_group_document();
  doc["broker_groups"] = json::parse(R"([{"name": "broker-a", "slaves": 1},
                                         {"count": 3, "name_prefix": "b-", "cluster": "c2"}])");
  doc["topics"] = json::parse(R"([{"count": 2, "name_prefix": "topic-", "groups": ["b-1"]}])");
  doc["producers"] = json::parse(R"([{"name_prefix": "p", "count": 2}])");
  const Scenario s = load(doc);
  ASSERT_EQ(s.broker_groups.size(), 4u);
  EXPECT_EQ(s.broker_groups[1].name, "b-0");
  EXPECT_EQ(s.broker_groups[3].name, "b-2");
  EXPECT_EQ(s.broker_groups[3].cluster, "c2");
  ASSERT_EQ(s.topics.size(), 2u);
  EXPECT_EQ(s.topics[0].name, "topic-0");
  EXPECT_EQ(s.topics[1].name, "topic-1");
  EXPECT_EQ(s.topics[1].groups, std::vector<std::string>{"b-1"});
  EXPECT_EQ(s.producers.at(0).topics, (std::vector<std::string>{"topic-0", "topic-1"}));
  EXPECT_EQ(node_names(s),
            (std::vector<std::string>{"ns-0", "ns-1", "ns-2", "broker-a-0", "broker-a-1", "b-0-0",
                                      "b-1-0", "b-2-0", "p-0", "p-1"}));
  const auto brokers = broker_nodes(s);
  ASSERT_EQ(brokers.size(), 5u);
  EXPECT_EQ(brokers[1].name, "broker-a-1");
  EXPECT_EQ(brokers[1].broker_id, 1);
  EXPECT_EQ(brokers[4].group, "b-2");
  EXPECT_EQ(brokers[4].group_index, 3u);
  const auto producers = producer_nodes(s);
  ASSERT_EQ(producers.size(), 2u);
  EXPECT_EQ(producers[1].name, "p-1");
  EXPECT_EQ(producers[1].index, 1);
}

json with_faults(const char* faults) {
  json doc = one_group_document();
  doc["broker_groups"] =
      json::parse(R"([{"name": "broker-a", "slaves": 1}, {"name": "broker-b"}])");
  doc["producers"] = json::parse(R"([{"name_prefix": "app", "count": 2}])");
  doc["faults"] = json::parse(faults);
  return doc;
}

TEST(ScenarioLoader, FaultTargetsResolveToNodes) {
  const Scenario s = load(with_faults(R"([
    {"kind": "kill", "node": "broker-b-0", "at_ms": 1000, "duration_ms": 500},
    {"kind": "poweroff", "group": "broker-a", "at_ms": 2000},
    {"kind": "pause", "nameservers": "all", "at_ms": 3000, "duration_ms": 10},
    {"kind": "shutdown", "nameserver": "ns-1", "at_ms": 4000},
    {"kind": "latency", "node": "app-1", "latency_ms": 200, "at_ms": 5000, "duration_ms": 100},
    {"kind": "wipeWritePerm", "broker_name": "broker-b", "at_ms": 6000}
  ])"));
  ASSERT_EQ(s.faults.size(), 6u);
  EXPECT_EQ(s.faults[0].kind, FaultKind::kKill);
  EXPECT_EQ(s.faults[0].nodes, std::vector<std::string>{"broker-b-0"});
  EXPECT_EQ(s.faults[0].duration_ms, 500);
  EXPECT_EQ(s.faults[1].nodes, (std::vector<std::string>{"broker-a-0", "broker-a-1"}));
  EXPECT_FALSE(s.faults[1].duration_ms.has_value());
  EXPECT_EQ(s.faults[2].nodes, (std::vector<std::string>{"ns-0", "ns-1", "ns-2"}));
  EXPECT_EQ(s.faults[3].nodes, std::vector<std::string>{"ns-1"});
  EXPECT_EQ(s.faults[4].kind, FaultKind::kLatency);
  EXPECT_DOUBLE_EQ(s.faults[4].latency_ms, 200.0);
  EXPECT_EQ(s.faults[5].kind, FaultKind::kWipeWritePerm);
  EXPECT_EQ(s.faults[5].broker_name, "broker-b");
}

TEST(ScenarioLoader, UpdateTopicTakesMqadminDefaults) {
  const Scenario s = load(with_faults(R"([
    {"kind": "updateTopic", "broker_name": "broker-b", "topic": "TopicTest", "at_ms": 1000},
    {"kind": "updateTopic", "broker_name": "broker-a", "topic": "TopicTest", "at_ms": 2000,
     "readQueueNums": 4, "writeQueueNums": 2, "perm": 4}
  ])"));
  ASSERT_EQ(s.faults.size(), 2u);
  EXPECT_EQ(s.faults[0].kind, FaultKind::kUpdateTopic);
  EXPECT_EQ(s.faults[0].broker_name, "broker-b");
  EXPECT_TRUE(s.faults[0].nodes.empty());     // an admin operation, not an outage
  EXPECT_EQ(s.faults[0].read_queue_nums, 8);  // UpdateTopicSubCommand's defaults
  EXPECT_EQ(s.faults[0].write_queue_nums, 8);
  EXPECT_EQ(s.faults[0].perm, 6);
  EXPECT_EQ(s.faults[1].read_queue_nums, 4);
  EXPECT_EQ(s.faults[1].write_queue_nums, 2);
  EXPECT_EQ(s.faults[1].perm, 4);
}

TEST(ScenarioLoader, PartitionSidesResolveKeywordsGroupsAndProducerSets) {
  const Scenario s = load(with_faults(R"([
    {"kind": "partition", "from": ["brokers"], "to": ["nameservers"], "at_ms": 0},
    {"kind": "partition", "from": ["app", "broker-b"], "to": ["broker-a", "ns-2"],
     "one_way": true, "at_ms": 0},
    {"kind": "partition", "from": ["producers", "app-0"], "to": ["broker-a-1"], "at_ms": 0}
  ])"));
  ASSERT_EQ(s.faults.size(), 3u);
  EXPECT_EQ(s.faults[0].side_a,
            (std::vector<std::string>{"broker-a-0", "broker-a-1", "broker-b-0"}));
  EXPECT_EQ(s.faults[0].side_b, (std::vector<std::string>{"ns-0", "ns-1", "ns-2"}));
  EXPECT_FALSE(s.faults[0].one_way);
  // Sides come out deduplicated, in node order (NameServers, brokers, producers).
  EXPECT_EQ(s.faults[1].side_a, (std::vector<std::string>{"broker-b-0", "app-0", "app-1"}));
  EXPECT_EQ(s.faults[1].side_b, (std::vector<std::string>{"ns-2", "broker-a-0", "broker-a-1"}));
  EXPECT_TRUE(s.faults[1].one_way);
  EXPECT_EQ(s.faults[2].side_a, (std::vector<std::string>{"app-0", "app-1"}));
}

TEST(ScenarioLoader, FaultsAreSortedByTimeStably) {
  const Scenario s = load(with_faults(R"([
    {"kind": "addWritePerm", "broker_name": "broker-a", "at_ms": 5000},
    {"kind": "wipeWritePerm", "broker_name": "broker-a", "at_ms": 1000},
    {"kind": "kill", "node": "broker-b-0", "at_ms": 5000, "duration_ms": 10},
    {"kind": "kill", "node": "broker-b-0", "at_ms": 5010}
  ])"));
  ASSERT_EQ(s.faults.size(), 4u);
  EXPECT_EQ(s.faults[0].file_index, 1u);
  EXPECT_EQ(s.faults[1].file_index, 0u);
  EXPECT_EQ(s.faults[2].file_index, 2u);
  EXPECT_EQ(s.faults[3].file_index, 3u);
  EXPECT_STREQ(fault_kind_name(s.faults[0].kind), "wipeWritePerm");
}

TEST(ScenarioLoader, SetOverridesApplyBeforeValidation) {
  json doc = one_group_document();
  doc["producers"] = json::parse(R"([{"count": 2}])");
  LoadOptions options;
  options.set = {"producers[0].config.sendLatencyFaultEnable=true", "nameservers.count=5",
                 "description=plain text", "topics[0].perm=4", "broker_groups[0].slaves=2"};
  const Scenario s = load(doc, options);
  EXPECT_TRUE(s.producers.at(0).config.send_latency_fault_enable);
  EXPECT_EQ(s.nameservers.count, 5);
  EXPECT_EQ(s.description, "plain text");  // not JSON, so taken as a string
  EXPECT_EQ(s.topics.at(0).perm, 4);
  EXPECT_EQ(s.broker_groups.at(0).slaves, 2);
}

TEST(ScenarioLoader, SetCanReplaceWholeSections) {
  LoadOptions options;
  options.set = {R"(faults=[{"kind": "kill", "node": "broker-a-0", "at_ms": 10}])",
                 R"(description="42")"};
  const Scenario s = load(one_group_document(), options);
  ASSERT_EQ(s.faults.size(), 1u);
  EXPECT_EQ(s.faults[0].nodes, std::vector<std::string>{"broker-a-0"});
  EXPECT_EQ(s.description, "42");
}

TEST(ScenarioLoader, ProfileOverrideChoosesTheDefaults) {
  json doc = one_group_document();
  doc["profile"] = "5.x";
  LoadOptions options;
  options.profile = core::Profile::kV4_9;
  const Scenario s = load(doc, options);
  EXPECT_EQ(s.profile, core::Profile::kV4_9);
  EXPECT_EQ(s.broker_groups.at(0).config.register_broker_timeout_mills, 6000);
}

TEST(ScenarioLoader, ProfileOverrideKeepsExplicitSettings) {
  json doc = one_group_document();
  doc["profile"] = "4.9";
  doc["broker_groups"][0]["config"] = {{"registerBrokerTimeoutMills", 9000}};
  LoadOptions options;
  options.profile = core::Profile::kV5;
  EXPECT_EQ(load(doc, options).broker_groups.at(0).config.register_broker_timeout_mills, 9000);
}

TEST(ScenarioLoader, SeedOverrideWins) {
  json doc = one_group_document();
  doc["seed"] = 7;
  EXPECT_EQ(load(doc).seed, 7u);
  LoadOptions options;
  options.seed = 99;
  options.set = {"seed=8"};
  EXPECT_EQ(load(doc, options).seed, 99u);
}

TEST(ScenarioLoader, ExpectationsAreParsed) {
  json doc = one_group_document();
  doc["expect"] = {"sends.failed.total == 0",
                   "outages[0].producers.stale_route_ms.max<=predicted.stale_route_ms",
                   "  routes.changes >= 1.5e3  "};
  const Scenario s = load(doc);
  ASSERT_EQ(s.expect.size(), 3u);
  EXPECT_EQ(s.expect[0].figure, "sends.failed.total");
  EXPECT_EQ(s.expect[0].op, "==");
  EXPECT_EQ(s.expect[0].value, "0");
  EXPECT_EQ(s.expect[0].source, "sends.failed.total == 0");
  EXPECT_EQ(s.expect[1].figure, "outages[0].producers.stale_route_ms.max");
  EXPECT_EQ(s.expect[1].op, "<=");
  EXPECT_EQ(s.expect[1].value, "predicted.stale_route_ms");
  EXPECT_EQ(s.expect[2].figure, "routes.changes");
  EXPECT_EQ(s.expect[2].op, ">=");
  EXPECT_EQ(s.expect[2].value, "1.5e3");
}

TEST(ScenarioLoader, WholeNumbersWrittenAsFloatsAreIntegers) {
  json doc = one_group_document();
  doc["duration_ms"] = 6e5;
  EXPECT_EQ(load(doc).duration_ms, 600000);
}

TEST(ScenarioLoader, NodeNamingHelpers) {
  EXPECT_EQ(nameserver_name(2), "ns-2");
  EXPECT_EQ(broker_node_name("broker-a", 1), "broker-a-1");
  EXPECT_EQ(producer_name("producer", 3), "producer-3");
  EXPECT_EQ(parse_fault_kind("poweroff"), FaultKind::kPoweroff);
  EXPECT_FALSE(parse_fault_kind("Poweroff").has_value());
}

}  // namespace
}  // namespace nssim::sim

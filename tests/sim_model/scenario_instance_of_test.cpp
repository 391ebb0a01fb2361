// A producer set's "instance_of": its producers run in another set's processes, in their client
// instance. What is the process's or the instance's is taken from that set and refused here,
// with the path of the set to write it on.
#include <gtest/gtest.h>

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

json with_audit(json audit) {
  json doc = minimal();
  doc["topics"].push_back({{"name", "Audit"}});
  doc["producers"][0]["config"] = {{"pollNameServerInterval", 20000}, {"sendMsgTimeout", 5000}};
  audit["name_prefix"] = "audit";
  if (!audit.contains("instance_of")) audit["instance_of"] = "app";
  doc["producers"].push_back(audit);
  return doc;
}

TEST(ScenarioInstanceOf, TakesTheProcessesAndTheInstanceSettingsOfItsSet) {
  const Scenario s = parse_scenario(
      with_audit({{"topics", {"Audit"}}, {"rate_per_s", 4}, {"config", {{"sendMsgTimeout", 1000}}}})
          .dump(),
      "x.json", {});
  ASSERT_EQ(s.producers.size(), 2u);
  const ProducerSpec& audit = s.producers[1];
  EXPECT_EQ(audit.instance_of, 0u);
  EXPECT_EQ(audit.count, 2);
  EXPECT_EQ(audit.config.poll_name_server_interval, 20000);  // the instance's
  EXPECT_EQ(audit.config.send_msg_timeout, 1000);            // its own
  EXPECT_EQ(s.producers[0].config.send_msg_timeout, 5000);
  // No processes of its own: app-0 and app-1 are the only producer nodes.
  const Topology topology = build_topology(s);
  ASSERT_EQ(topology.producers.size(), 2u);
  EXPECT_EQ(topology.nodes[topology.producers[1]].name, "app-1");
  EXPECT_EQ(instance_topics(s, 0), (std::vector<std::string>{"TopicTest", "Audit"}));
}

TEST(ScenarioInstanceOf, RefusesWhatIsTheProcessesOrTheInstances) {
  EXPECT_EQ(error_of(with_audit({{"count", 3}})),
            "x.json: producers[1].count: is the process's: this set runs in the processes of "
            "producers[0] (instance_of), set it there");
  EXPECT_EQ(error_of(with_audit({{"start_ms", 1000}})),
            "x.json: producers[1].start_ms: is the process's: this set runs in the processes of "
            "producers[0] (instance_of), set it there");
  EXPECT_EQ(error_of(with_audit({{"config", {{"pollNameServerInterval", 5000}}}})),
            "x.json: producers[1].config.pollNameServerInterval: is the client instance's, which "
            "takes the ClientConfig of the first producer in it "
            "(MQClientManager#getOrCreateMQClientInstance): set it on producers[0]");
  EXPECT_EQ(error_of(with_audit({{"config", {{"namesrvAddr", "ns-0"}}}})),
            "x.json: producers[1].config.namesrvAddr: is the client instance's, which takes the "
            "ClientConfig of the first producer in it "
            "(MQClientManager#getOrCreateMQClientInstance): set it on producers[0]");
}

TEST(ScenarioInstanceOf, NamesAnEarlierSetThatOwnsItsProcesses) {
  EXPECT_EQ(error_of(with_audit({{"instance_of", "nobody"}})),
            "x.json: producers[1].instance_of: expected the name_prefix of an earlier producer "
            "set, got 'nobody'");
  json doc = with_audit(json::object());
  doc["producers"].push_back({{"name_prefix", "third"}, {"instance_of", "audit"}});
  EXPECT_EQ(error_of(doc),
            "x.json: producers[2].instance_of: 'audit' runs in another set's instance itself: "
            "name the set that owns the processes");
}

// As a partition side the set means the processes it runs in.
TEST(ScenarioInstanceOf, AsAPartitionSideItIsItsSetsProcesses) {
  json doc = with_audit(json::object());
  doc["faults"] = json::parse(
      R"([{"kind": "partition", "at_ms": 1000, "from": ["audit"], "to": ["broker-a"]}])");
  const Scenario s = parse_scenario(doc.dump(), "x.json", {});
  ASSERT_EQ(s.faults.size(), 1u);
  EXPECT_EQ(s.faults[0].side_a, (std::vector<std::string>{"app-0", "app-1"}));
}

}  // namespace
}  // namespace nssim::sim

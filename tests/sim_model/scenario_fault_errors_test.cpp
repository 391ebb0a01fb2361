// Wrong fault timelines, expectations and --set overrides, each with the exact one-line message.
#include <gtest/gtest.h>

#include "scenario_error_helpers.h"

namespace nssim::sim {
namespace {

using nlohmann::json;
using scenario_testing::error_of;
using scenario_testing::error_with;
using scenario_testing::fault_error;
using scenario_testing::minimal;

TEST(ScenarioFaultErrors, FaultTimeMustBeNonNegative) {
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "node": "broker-a-0", "at_ms": 10, "duration_ms": 5},
                            {"kind": "kill", "node": "broker-b-0", "at_ms": 10},
                            {"kind": "kill", "node": "broker-a-0", "at_ms": -5}])"),
            "x.json: faults[2].at_ms: must be >= 0");
}

TEST(ScenarioFaultErrors, FaultTimeMustBeInsideTheRun) {
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "node": "broker-a-0", "at_ms": 600000}])"),
            "x.json: faults[0].at_ms: must be < duration_ms (600000)");
  EXPECT_EQ(
      fault_error(R"([{"kind": "kill", "node": "broker-a-0", "at_ms": 1, "duration_ms": 0}])"),
      "x.json: faults[0].duration_ms: must be > 0");
}

TEST(ScenarioFaultErrors, FaultKindMustBeKnown) {
  EXPECT_EQ(fault_error(R"([{"kind": "kil", "at_ms": 1}])"),
            "x.json: faults[0].kind: unknown kind 'kil' (did you mean kill?)");
  EXPECT_EQ(fault_error(R"([{"kind": "explode", "at_ms": 1}])"),
            "x.json: faults[0].kind: unknown kind 'explode' (expected kill, poweroff, shutdown, "
            "pause, partition, latency, wipeWritePerm, addWritePerm or updateTopic)");
  EXPECT_EQ(fault_error(R"([{"at_ms": 1}])"), "x.json: faults[0].kind: is required");
}

TEST(ScenarioFaultErrors, FaultTargetMustExist) {
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "node": "zzz-9", "at_ms": 1}])"),
            "x.json: faults[0].node: no node named 'zzz-9'");
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "node": "broker-z-0", "at_ms": 1}])"),
            "x.json: faults[0].node: no node named 'broker-z-0' (did you mean broker-a-0?)");
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "group": "broker-c", "at_ms": 1}])"),
            "x.json: faults[0].group: no broker group named 'broker-c' (did you mean broker-a?)");
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "nameserver": "ns-3", "at_ms": 1}])"),
            "x.json: faults[0].nameserver: no NameServer named 'ns-3' (there are ns-0 to ns-2)");
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "nameservers": "some", "at_ms": 1}])"),
            "x.json: faults[0].nameservers: must be \"all\", got 'some'");
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "node": "app-0", "at_ms": 1}])"),
            "x.json: faults[0].node: 'app-0' is a producer; kill acts on NameServers and brokers");
}

TEST(ScenarioFaultErrors, FaultNeedsExactlyOneTarget) {
  EXPECT_EQ(fault_error(R"([{"kind": "pause", "at_ms": 1}])"),
            "x.json: faults[0]: needs a target: node, group, nameserver or nameservers");
  EXPECT_EQ(fault_error(R"([{"kind": "pause", "at_ms": 1, "node": "ns-0", "group": "broker-a"}])"),
            "x.json: faults[0].group: give only one of node, group, nameserver, nameservers");
}

TEST(ScenarioFaultErrors, FaultFieldsMustFitTheKind) {
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "node": "ns-0", "at_ms": 1, "latency_ms": 5}])"),
            "x.json: faults[0].latency_ms: not used by kind kill");
  EXPECT_EQ(fault_error(R"([{"kind": "wipeWritePerm", "broker_name": "broker-a", "at_ms": 1,
                             "duration_ms": 5}])"),
            "x.json: faults[0].duration_ms: not used by kind wipeWritePerm");
  EXPECT_EQ(fault_error(R"([{"kind": "latency", "node": "ns-0", "at_ms": 1}])"),
            "x.json: faults[0].latency_ms: is required");
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "node": "ns-0", "at_ms": 1, "nodes": "x"}])"),
            "x.json: faults[0].nodes: unknown field (did you mean node?)");
  EXPECT_EQ(fault_error(R"([{"kind": "addWritePerm", "broker_name": "broker-z", "at_ms": 1}])"),
            "x.json: faults[0].broker_name: no broker group named 'broker-z' (did you mean "
            "broker-a?)");
}

TEST(ScenarioFaultErrors, PartitionSidesMustBeNonEmptyAndDisjoint) {
  EXPECT_EQ(fault_error(R"([{"kind": "partition", "from": [], "to": ["ns-0"], "at_ms": 1}])"),
            "x.json: faults[0].from: must not be empty");
  EXPECT_EQ(fault_error(R"([{"kind": "partition", "from": ["ns-0"], "at_ms": 1}])"),
            "x.json: faults[0].to: is required");
  EXPECT_EQ(fault_error(R"([{"kind": "partition", "from": ["brokers"], "to": ["broker-a"],
                             "at_ms": 1}])"),
            "x.json: faults[0].to: 'broker-a-0' is on both sides");
  EXPECT_EQ(fault_error(R"([{"kind": "partition", "from": ["ns-0", "qqq"], "to": ["ns-1"],
                             "at_ms": 1}])"),
            "x.json: faults[0].from[1]: no node, group or keyword named 'qqq'");
  json doc = minimal();
  doc.erase("producers");
  doc["faults"] = json::parse(
      R"([{"kind": "partition", "from": ["producers"], "to": ["brokers"], "at_ms": 1}])");
  EXPECT_EQ(error_of(doc), "x.json: faults[0].from: names no node");
}

TEST(ScenarioFaultErrors, ProcessFaultsOnOneNodeMustNotOverlap) {
  EXPECT_EQ(fault_error(R"([{"kind": "kill", "node": "broker-a-0", "at_ms": 100, "duration_ms": 50},
                            {"kind": "pause", "group": "broker-a", "at_ms": 120}])"),
            "x.json: faults[1]: overlaps faults[0] on 'broker-a-0' (one kill, poweroff, shutdown "
            "or pause per node at a time)");
  EXPECT_EQ(fault_error(R"([{"kind": "latency", "node": "ns-0", "latency_ms": 1, "at_ms": 100},
                            {"kind": "latency", "node": "ns-0", "latency_ms": 2, "at_ms": 50,
                             "duration_ms": 60}])"),
            "x.json: faults[0]: overlaps faults[1] on 'ns-0' (one latency fault per node at a "
            "time)");
}

TEST(ScenarioFaultErrors, ExpectationSyntaxIsChecked) {
  EXPECT_EQ(error_with("expect", R"(["sends.failed.total = 0"])"),
            "x.json: expect[0]: expected '<figure> <op> <value>' with op one of < <= > >= == != "
            "(e.g. 'sends.failed.total == 0'), got 'sends.failed.total = 0'");
  EXPECT_EQ(error_with("expect", R"(["sends.failed.total == lots"])"),
            "x.json: expect[0]: the value must be a number or a predicted.* figure, got 'lots'");
  EXPECT_EQ(error_with("expect", R"(["a == 1", 2])"), "x.json: expect[1]: must be a string, got 2");
}

TEST(ScenarioFaultErrors, UpdateTopicNeedsAScenarioTopicAndValidQueues) {
  EXPECT_EQ(fault_error(R"([{"kind": "updateTopic", "broker_name": "broker-a", "at_ms": 1}])"),
            "x.json: faults[0].topic: is required");
  EXPECT_EQ(fault_error(R"([{"kind": "updateTopic", "broker_name": "broker-a",
                             "topic": "TopicTets", "at_ms": 1}])"),
            "x.json: faults[0].topic: no topic named 'TopicTets' (did you mean TopicTest?)");
  EXPECT_EQ(fault_error(R"([{"kind": "updateTopic", "broker_name": "broker-a",
                             "topic": "TopicTest", "writeQueueNums": 2000, "at_ms": 1}])"),
            "x.json: faults[0].writeQueueNums: must be <= 1024");
  EXPECT_EQ(fault_error(R"([{"kind": "updateTopic", "broker_name": "broker-a",
                             "topic": "TopicTest", "duration_ms": 5, "at_ms": 1}])"),
            "x.json: faults[0].duration_ms: not used by kind updateTopic");
  EXPECT_EQ(fault_error(R"([{"kind": "wipeWritePerm", "broker_name": "broker-a",
                             "topic": "TopicTest", "at_ms": 1}])"),
            "x.json: faults[0].topic: not used by kind wipeWritePerm");
}

TEST(ScenarioFaultErrors, SetNeedsAnExistingPathAndAValue) {
  LoadOptions options;
  options.set = {"nameservers.count"};
  EXPECT_EQ(error_of(minimal(), options), "x.json: --set 'nameservers.count': expected PATH=VALUE");
  options.set = {"producers[3].count=1"};
  EXPECT_EQ(error_of(minimal(), options),
            "x.json: --set 'producers[3].count': producers has 1 entries, so no [3]");
  options.set = {"faults[0].at_ms=1"};
  EXPECT_EQ(error_of(minimal(), options), "x.json: --set 'faults[0].at_ms': faults does not exist");
  // A list the path names by a near miss of one the file has is named.
  options.set = {"producer[0].count=2"};
  EXPECT_EQ(error_of(minimal(), options),
            "x.json: --set 'producer[0].count': producer does not exist (did you mean "
            "producers?)");
  options.set = {"name.x=1"};
  EXPECT_EQ(error_of(minimal(), options), "x.json: --set 'name.x': name is not an object");
  options.set = {"a..b=1"};
  EXPECT_EQ(error_of(minimal(), options),
            "x.json: --set 'a..b': not a field path (e.g. producers[0].config.sendMsgTimeout)");
  options.set = {"nameservers.cout=5"};
  EXPECT_EQ(error_of(minimal(), options),
            "x.json: nameservers.cout: unknown field (did you mean count?)");
  options.set = {"nameservers.count=three"};
  EXPECT_EQ(error_of(minimal(), options),
            "x.json: nameservers.count: must be an integer, got \"three\"");
}

// A --set value nests no deeper than a file may, counting the levels of its path: 63 levels
// under "faults" (one level) make 64 and are read (then fail as the wrong type); 64 are refused
// before the value is parsed further, and so is a value nested 60,000 deep.
TEST(ScenarioFaultErrors, SetValueNestedBeyondTheDepthLimitIsRefused) {
  LoadOptions options;
  const auto nested = [](std::size_t levels) {
    return std::string(levels, '[') + std::string(levels, ']');
  };
  options.set = {"faults=" + nested(63)};
  EXPECT_EQ(error_of(minimal(), options), "x.json: faults[0]: must be an object, got an array");
  for (const std::size_t levels : {64, 60000}) {
    options.set = {"faults=" + nested(levels)};
    EXPECT_EQ(error_of(minimal(), options),
              "x.json: --set 'faults': nested deeper than 64 levels, with the path's own")
        << levels;
  }
  options.set = {"producers[0].config=" + std::string(62, '[') + std::string(62, ']')};
  EXPECT_EQ(error_of(minimal(), options),
            "x.json: --set 'producers[0].config': nested deeper than 64 levels, with the path's "
            "own");
}

}  // namespace
}  // namespace nssim::sim

// Route health from whole simulations, in both profiles: in a split brain each side's NameServers
// rightly keep their own broker and drop the other's, each producer's route to the other side is
// stale until its poll after that drop, and no route is lost until the heal; after a NameServer
// restart the NameServer is missing every live broker until its next registration. Bounds come
// from RocketMQ's rules (spec 11), not from the model's predicted figures.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kSplitAtMs = 240000;
constexpr std::int64_t kSplitMs = 240000;
// Silent broker: a NameServer drops it at most T + S after the cut (expiry 120 s, scan 5 s in
// 5.x, 10 s in 4.9), and a producer follows within Q = 30 s plus the answer's few ms.
constexpr std::int64_t kStaleCeilingMs = 120000 + 10000 + 30000 + 10;
// Silent broker: the idle close or expiry comes at least I - P = 90 s after the cut.
constexpr std::int64_t kStaleFloorMs = 90000;

// broker-a, ns-0 and producers left-0, left-1 (namesrvAddr ns-0) against broker-b, ns-1, ns-2 and
// right-0, right-1 (namesrvAddr ns-1;ns-2).
Scenario split_brain(core::Profile profile, std::uint64_t seed) {
  Scenario s = small_cluster(profile, seed);
  s.producers[0].count = 2;
  s.producers[0].name_prefix = "left";
  s.producers[0].config.namesrv_addr = "ns-0";
  s.producers[0].nameservers = {0};
  ProducerSpec right = s.producers[0];
  right.name_prefix = "right";
  right.config.namesrv_addr = "ns-1;ns-2";
  right.nameservers = {1, 2};
  s.producers.push_back(right);
  FaultSpec split;
  split.kind = FaultKind::kPartition;
  split.at_ms = kSplitAtMs;
  split.duration_ms = kSplitMs;
  split.side_a = {"broker-a-0", "ns-0", "left-0", "left-1"};
  split.side_b = {"broker-b-0", "ns-1", "ns-2", "right-0", "right-1"};
  s.faults.push_back(split);
  return s;
}

std::string addr_of(const nlohmann::json& result, const std::string& node) {
  for (const auto& entry : result["nodes"]) {
    if (entry["name"] == node) return entry["addr"].get<std::string>();
  }
  ADD_FAILURE() << "no node " << node;
  return {};
}

class RouteHealthWorld : public ::testing::TestWithParam<core::Profile> {};

TEST_P(RouteHealthWorld, SplitBrainKeepsEachSidesBrokerAndIsStaleOnlyTowardsTheOther) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto result = run_isolated(split_brain(GetParam(), seed));
    ASSERT_FALSE(result.contains("error")) << result.dump();
    const auto& outage = result["outages"].at(0);
    for (const auto& entry : outage["nameservers"]) {
      const bool own_side = (entry["nameserver"] == "ns-0") ==
                            (entry["broker_addr"] == addr_of(result, "broker-a-0"));
      EXPECT_EQ(entry["outcome"], own_side ? "kept_reachable" : "dropped")
          << "seed " << seed << ": " << entry.dump();
    }
    EXPECT_EQ(outage["nameservers_missed"], 0);
    int stale = 0;
    for (const auto& window : result["route_health"]["route_windows"]) {
      const std::int64_t start = window["start_ms"].get<std::int64_t>();
      const bool left = window["producer"].get<std::string>().rfind("left", 0) == 0;
      if (window["kind"] == "stale") {
        ++stale;
        EXPECT_EQ(window["broker"], left ? "broker-b" : "broker-a") << window.dump();
        EXPECT_EQ(start, kSplitAtMs) << window.dump();
        EXPECT_EQ(window["cause"], "broker_cut_from_producer");
        EXPECT_EQ(window["end_cause"], "dropped_from_route") << window.dump();
        const std::int64_t held = window["end_ms"].get<std::int64_t>() - start;
        EXPECT_GT(held, kStaleFloorMs) << window.dump();
        EXPECT_LE(held, kStaleCeilingMs) << window.dump();
      } else {
        // Lost only after the heal, while the other side's broker re-registers and is re-polled.
        EXPECT_GE(start, kSplitAtMs + kSplitMs) << window.dump();
        EXPECT_EQ(window["cause"], "awaiting_route_poll") << window.dump();
      }
    }
    EXPECT_EQ(stale, 4) << "seed " << seed;
  }
}

TEST_P(RouteHealthWorld, ARestartedNameServerIsMissingEveryBrokerUntilItsNextRegistration) {
  Scenario s = small_cluster(GetParam(), 5);
  FaultSpec kill;
  kill.kind = FaultKind::kKill;
  kill.at_ms = 240000;
  kill.duration_ms = 10000;
  kill.nodes = {"ns-1"};
  s.faults.push_back(kill);
  const auto result = run_isolated(s);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const auto& missing = result["route_health"]["missing_windows"];
  ASSERT_EQ(missing.size(), 2u) << missing.dump();
  for (const auto& window : missing) {
    EXPECT_EQ(window["nameserver"], "ns-1");
    EXPECT_EQ(window["start_ms"], 250000) << window.dump();
    EXPECT_EQ(window["cause"], "nameserver_restarted");
    EXPECT_EQ(window["end_cause"], "registered");
    EXPECT_LE(window["end_ms"].get<std::int64_t>() - 250000, kRelearnWithinMs) << window.dump();
  }
  EXPECT_EQ(result["route_health"]["stale"]["count"], 0);
  EXPECT_EQ(result["sends"]["failed"]["total"], 0);
}

// A broker killed while one NameServer is itself down: that NameServer cannot drop it, so its
// entry says so instead of "missed"; the running ones drop it at once.
TEST_P(RouteHealthWorld, ANameServerDownDuringTheOutageIsNotJudgedMissed) {
  Scenario s = small_cluster(GetParam(), 2);
  FaultSpec down;
  down.kind = FaultKind::kKill;
  down.at_ms = 230000;
  down.duration_ms = 200000;
  down.nodes = {"ns-1"};
  s.faults.push_back(down);
  FaultSpec kill;
  kill.kind = FaultKind::kKill;
  kill.at_ms = 240000;
  kill.duration_ms = 120000;
  kill.nodes = {"broker-a-0"};
  s.faults.push_back(kill);
  const auto result = run_isolated(s);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const auto& outage = result["outages"].at(0);
  ASSERT_EQ(outage["brokers"], nlohmann::json::array({"broker-a-0"})) << outage.dump();
  for (const auto& entry : outage["nameservers"]) {
    EXPECT_EQ(entry["outcome"], entry["nameserver"] == "ns-1" ? "nameserver_down" : "dropped")
        << entry.dump();
  }
  EXPECT_EQ(outage["nameservers_missed"], 0);
}

INSTANTIATE_TEST_SUITE_P(Simulator, RouteHealthWorld,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

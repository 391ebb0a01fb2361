// Producers that poll only the NameServer a broker is cut from follow that NameServer, and only
// that one: they lose the healthy broker once ns-0 expires it (a lost route, not a stale one: the
// broker stays usable), while producers pointed at ns-1 keep it. Brokers register only with the
// NameServers of their namesrvAddr.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kCutAtMs = 240000;

Scenario cut_from_ns0(core::Profile profile, int polled_nameserver) {
  Scenario s = small_cluster(profile, 4);
  FaultSpec cut;
  cut.kind = FaultKind::kPartition;
  cut.at_ms = kCutAtMs;
  cut.side_a = {"broker-a-0"};
  cut.side_b = {"ns-0"};
  s.faults.push_back(cut);
  s.producers[0].config.namesrv_addr = nameserver_name(polled_nameserver);
  s.producers[0].nameservers = {polled_nameserver};
  return s;
}

class NamesrvAddr : public ::testing::TestWithParam<core::Profile> {};

TEST_P(NamesrvAddr, ProducersFollowTheOneNameServerTheyPoll) {
  const auto on_ns0 = run_isolated(cut_from_ns0(GetParam(), 0));
  const auto on_ns1 = run_isolated(cut_from_ns0(GetParam(), 1));
  ASSERT_FALSE(on_ns0.contains("error") || on_ns1.contains("error"));
  // Only ns-0 drops broker-a (both runs), 90 to 120 s after the cut (I - P, I; spec 11(a)).
  for (const auto* result : {&on_ns0, &on_ns1}) {
    const auto& drop = (*result)["outages"].at(0)["nameserver_drop_ms"];
    EXPECT_EQ(drop["count"], 1);
    EXPECT_EQ(drop["never"], 2);
    EXPECT_GT(drop["max"].get<std::int64_t>(), 90000);
    EXPECT_LE(drop["max"].get<std::int64_t>(), 120001);
  }
  // Polling ns-0 only, every producer loses broker-a within one poll of ns-0's removal, and
  // keeps it lost to the end of the run; no route is ever stale.
  const auto& health = on_ns0["route_health"];
  EXPECT_EQ(health["stale"]["count"], 0) << health.dump();
  EXPECT_EQ(health["lost"]["never"], 4) << health.dump();
  EXPECT_EQ(health["lost"]["by_cause"]["expired_at_nameserver"], 4) << health.dump();
  const std::int64_t removed_at =
      kCutAtMs + on_ns0["outages"].at(0)["nameserver_drop_ms"]["max"].get<std::int64_t>();
  for (const auto& window : health["route_windows"]) {
    EXPECT_EQ(window["kind"], "lost");
    EXPECT_GT(window["start_ms"].get<std::int64_t>(), removed_at) << window.dump();
    EXPECT_LE(window["start_ms"].get<std::int64_t>(), removed_at + 30010) << window.dump();
  }
  EXPECT_EQ(on_ns0["outages"].at(0)["producers"]["affected"], 0);
  // Polling ns-1, which keeps receiving broker-a's registrations, none loses it.
  EXPECT_EQ(on_ns1["route_health"]["lost"]["count"], 0);
  EXPECT_EQ(on_ns1["route_health"]["lost"]["never"], 0);
  EXPECT_EQ(on_ns1["route_health"]["stale"]["never"], 0);
  // The broker stays reachable from producers: no send fails in either run.
  EXPECT_EQ(on_ns0["sends"]["failed"]["total"], 0);
  EXPECT_EQ(on_ns1["sends"]["failed"]["total"], 0);
}

TEST_P(NamesrvAddr, ABrokerRegistersOnlyWithItsNameServers) {
  Scenario s = small_cluster(GetParam(), 2);
  s.broker_groups[1].config.namesrv_addr = "ns-2";
  s.broker_groups[1].nameservers = {2};
  const auto result = run_isolated(s);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  for (const auto& broker : result["timelines"]["brokers"]) {
    for (const auto& row : broker["in_routes"]) {
      const bool listed = !row["intervals"].empty();
      if (broker["broker_name"] == "broker-b") {
        EXPECT_EQ(listed, row["nameserver"] == "ns-2") << broker["node"] << " " << row.dump();
      } else {
        EXPECT_TRUE(listed) << broker["node"] << " " << row.dump();
      }
    }
  }
}

// With broker-b registered on ns-2 only, ns-0 knows TopicTest on broker-a alone: once it drops
// broker-a it answers TOPIC_NOT_EXIST, and the client keeps its old route (upstream
// MQClientInstance#updateTopicRouteInfoFromNameServer changes nothing without a route). The
// broker is healthy and reachable, so that old route is neither stale nor lost.
TEST_P(NamesrvAddr, ATopicItsNameServerNoLongerKnowsKeepsTheOldRoute) {
  Scenario s = cut_from_ns0(GetParam(), 0);
  s.broker_groups[1].config.namesrv_addr = "ns-2";
  s.broker_groups[1].nameservers = {2};
  const auto result = run_isolated(s);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  EXPECT_EQ(result["outages"].at(0)["nameserver_drop_ms"]["count"], 1);
  const auto& health = result["route_health"];
  for (const char* kind : {"stale", "lost"}) {
    EXPECT_EQ(health[kind]["count"].get<int>() + health[kind]["never"].get<int>(), 0)
        << kind << ": " << health.dump();
  }
  EXPECT_EQ(result["sends"]["failed"]["total"], 0);
}

INSTANTIATE_TEST_SUITE_P(Simulator, NamesrvAddr,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

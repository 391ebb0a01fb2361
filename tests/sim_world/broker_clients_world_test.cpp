// The broker's producer table in a whole simulation, both profiles: producer-0 is cut from
// broker-a-0 at 100 s for the rest of the run, so its heartbeats stop reaching broker-a-0, whose
// idle timer (serverChannelMaxIdleTimeSeconds, 120 s after the last heartbeat's response) closes
// the channel and drops the producer's entry exactly 120 000 ms after its last processed
// heartbeat: before the first scan tick more than 120 s after it, which would come in
// (120 s, 130 s]. broker-b-0 keeps the producer to the end.
#include <gtest/gtest.h>

#include <algorithm>

#include "sim/analysis/broker_clients_analysis.h"
#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace broker_clients_world {  // named: a unity batch shares file scope

constexpr std::int64_t kCutAtMs = 100'000;

Scenario producer_cut_from_broker(core::Profile profile) {
  Scenario s = small_cluster(profile, 1);
  s.duration_ms = 300'000;
  s.producers[0].count = 1;
  FaultSpec cut;
  cut.kind = FaultKind::kPartition;
  cut.at_ms = kCutAtMs;
  cut.side_a = {"producer-0"};
  cut.side_b = {"broker-a-0"};
  s.faults.push_back(cut);
  return s;
}

const nlohmann::json& broker_entry(const nlohmann::json& section, const std::string& node) {
  for (const auto& broker : section["per_broker"]) {
    if (broker["node"] == node) return broker;
  }
  static const nlohmann::json none;
  ADD_FAILURE() << "no " << node << " in " << section.dump();
  return none;
}

// The section as the tables stood 1 ms before and at 120 000 ms after producer-0's last
// heartbeat processed by broker-a-0.
nlohmann::json around_the_idle_close(WorldRecord& record) {
  const std::string& addr =
      record.topology.nodes[static_cast<std::size_t>(record.topology.by_name.at("broker-a-0"))]
          .broker_addr;
  std::int64_t last = -1;
  for (const auto& [handle, channel] : record.sends->schedules().at("producer-0").channels) {
    if (channel.address != addr) continue;
    for (const auto& stretch : channel.stretches) last = std::max(last, stretch.last_ms);
  }
  const auto at = [&](std::int64_t end_ms) {
    return broker_clients_json(record.topology, record.log.events(), *record.network, *record.sends,
                               end_ms)
        .value();
  };
  return {{"last_heartbeat_ms", last},
          {"before_idle", at(last + 119'999)},
          {"at_idle", at(last + 120'000)}};
}

class BrokerClientsWorld : public ::testing::TestWithParam<core::Profile> {};

TEST_P(BrokerClientsWorld, ABrokerDropsAProducerCutFromIt120sAfterItsLastHeartbeat) {
  const auto result = run_isolated(producer_cut_from_broker(GetParam()), around_the_idle_close);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const std::int64_t last = result["last_heartbeat_ms"].get<std::int64_t>();
  // heartbeatBrokerInterval 30 s: the last one before the cut came at most 30 s before it.
  EXPECT_GT(last, kCutAtMs - 30'000);
  EXPECT_LE(last, kCutAtMs);
  const auto& before = broker_entry(result["before_idle"], "broker-a-0");
  EXPECT_EQ(before["producer_channels_at_end"], 1) << before.dump();
  const auto& at_idle = broker_entry(result["at_idle"], "broker-a-0");
  EXPECT_EQ(at_idle["producer_channels_at_end"], 0) << at_idle.dump();
  EXPECT_EQ(at_idle["removals"]["idle"], 1) << at_idle.dump();
  EXPECT_EQ(at_idle["removals"]["scan_expiry"], 0) << at_idle.dump();
  const auto& whole = result["broker_clients"];
  EXPECT_EQ(broker_entry(whole, "broker-a-0")["removals"]["idle"], 1) << whole.dump();
  const auto& b = broker_entry(whole, "broker-b-0");
  EXPECT_EQ(b["producer_channels_at_end"], 1) << b.dump();
  EXPECT_EQ(b["removals"]["idle"], 0) << b.dump();
}

INSTANTIATE_TEST_SUITE_P(Simulator, BrokerClientsWorld,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace broker_clients_world
}  // namespace nssim::sim::testing

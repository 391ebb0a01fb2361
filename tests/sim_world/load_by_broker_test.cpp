// Where the load goes, per broker group: the per-broker attempts add up to the run's, a powered-off
// broker takes no successful attempt while it is down, and the latency fault strategy moves
// failed attempts away from it (sendLatencyFaultEnable), which the whole-run totals cannot show.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kLoadFaultAtMs = 240000;
constexpr std::int64_t kLoadDownMs = 200000;

Scenario poweroff(core::Profile profile, bool latency_fault_enable) {
  Scenario s =
      with_fault(small_cluster(profile, 3), FaultKind::kPoweroff, kLoadFaultAtMs, kLoadDownMs);
  s.producers[0].config.send_latency_fault_enable = latency_fault_enable;
  return s;
}

const nlohmann::json& broker_entry(const nlohmann::json& result, const std::string& name) {
  for (const auto& entry : result["sends_by_broker"]) {
    if (entry["broker_name"] == name) return entry;
  }
  static const nlohmann::json kNone;
  return kNone;
}

class LoadByBroker : public ::testing::TestWithParam<core::Profile> {};

TEST_P(LoadByBroker, BrokerAttemptsAddUpToTheRunsAttempts) {
  const auto result = run_isolated(poweroff(GetParam(), false));
  ASSERT_FALSE(result.contains("error")) << result.dump();
  ASSERT_EQ(result["sends_by_broker"].size(), 2u);
  std::int64_t attempts = 0, ok = 0;
  for (const auto& entry : result["sends_by_broker"]) {
    attempts += entry["attempts"].get<std::int64_t>();
    ok += entry["ok"].get<std::int64_t>();
    EXPECT_EQ(entry["attempts"].get<std::int64_t>(),
              entry["ok"].get<std::int64_t>() + entry["failed"]["total"].get<std::int64_t>());
  }
  EXPECT_EQ(attempts, result["sends"]["attempts"].get<std::int64_t>());
  EXPECT_EQ(ok, result["sends"]["ok"].get<std::int64_t>());
  EXPECT_GT(broker_entry(result, "broker-a")["failed"]["total"].get<std::int64_t>(), 0);
  EXPECT_EQ(result["sends_by_producer_group"].at(0)["total"], result["sends"]["total"]);
}

TEST_P(LoadByBroker, APoweredOffBrokerTakesNoSuccessfulAttempt) {
  const auto result = run_isolated(poweroff(GetParam(), false));
  ASSERT_FALSE(result.contains("error")) << result.dump();
  std::int64_t during = 0, before = 0;
  for (const auto& second : result["timeseries"]) {
    const std::int64_t t_ms = second["t_s"].get<std::int64_t>() * 1000;
    const auto n = second["ok_by_broker"].value("broker-a", std::int64_t{0});
    if (t_ms >= kLoadFaultAtMs + 1000 && t_ms < kLoadFaultAtMs + kLoadDownMs) during += n;
    if (t_ms >= kLoadFaultAtMs - 60000 && t_ms < kLoadFaultAtMs) before += n;
  }
  EXPECT_GT(before, 0);
  EXPECT_EQ(during, 0);
}

TEST_P(LoadByBroker, TheLatencyFaultStrategySteersAttemptsAwayFromTheDeadBroker) {
  const auto off = run_isolated(poweroff(GetParam(), false));
  const auto on = run_isolated(poweroff(GetParam(), true));
  ASSERT_FALSE(off.contains("error") || on.contains("error"));
  const auto failed_off = broker_entry(off, "broker-a")["failed"]["total"].get<std::int64_t>();
  const auto failed_on = broker_entry(on, "broker-a")["failed"]["total"].get<std::int64_t>();
  EXPECT_LT(failed_on * 2, failed_off) << "on " << failed_on << ", off " << failed_off;
}

INSTANTIATE_TEST_SUITE_P(Simulator, LoadByBroker,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

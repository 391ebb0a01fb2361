// After a broker comes back: it registers with every NameServer at start (BrokerController#start
// -> registerBrokerAll), so each NameServer lists it again within a round trip of its process
// start, and each producer uses it again at its next route poll, within pollNameServerInterval.
// A host boots before its process starts, so a power-off's recovery is measured from the end.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kRecoveryFaultAtMs = 240000;
constexpr std::int64_t kRecoveryDownMs = 120000;
constexpr std::int64_t kPollMs = 30000;  // pollNameServerInterval

class Recovery : public ::testing::TestWithParam<core::Profile> {};

TEST_P(Recovery, NameServersRelistTheBrokerAtOnceAndProducersWithinAPoll) {
  for (const FaultKind kind : {FaultKind::kKill, FaultKind::kShutdown}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const auto result = run_isolated(
          with_fault(small_cluster(GetParam(), seed), kind, kRecoveryFaultAtMs, kRecoveryDownMs));
      ASSERT_FALSE(result.contains("error")) << result.dump();
      const auto& recovery = result["outages"].at(0)["recovery"];
      const std::string what = std::string(fault_kind_name(kind)) + " seed " +
                               std::to_string(seed) + ": " + recovery.dump();
      EXPECT_EQ(recovery["nameserver_ms"]["count"], 3) << what;
      EXPECT_EQ(recovery["nameserver_ms"]["never"], 0) << what;
      EXPECT_GE(recovery["nameserver_ms"]["min"].get<std::int64_t>(), 1) << what;
      EXPECT_LE(recovery["nameserver_ms"]["max"].get<std::int64_t>(), 100) << what;
      EXPECT_EQ(recovery["producer_ms"]["never"], 0) << what;
      EXPECT_GT(recovery["producer_ms"]["count"].get<int>(), 0) << what;
      EXPECT_LE(recovery["producer_ms"]["max"].get<std::int64_t>(), kPollMs + 110) << what;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Simulator, Recovery,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

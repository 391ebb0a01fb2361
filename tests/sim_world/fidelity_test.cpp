// The windows the simulator measures against the bounds RocketMQ's rules predict (spec section
// 11), for each way a broker fails and each profile, over several seeds (so start phases vary).
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kFaultAtMs = 240000;
constexpr int kSeeds = 8;

struct Bounds {
  std::int64_t removal_min_ms;
  std::int64_t removal_max_ms;
  std::int64_t stale_max_ms;
};

// T = 120 s expiry and idle, P = 30 s registration, Q = 30 s poll, S = scan period; the
// milliseconds of slack cover network latency and the producers' 3 s scheduler waits.
Bounds bounds_for(FaultKind kind, core::Profile profile) {
  const std::int64_t scan = profile == core::Profile::kV4_9 ? 10000 : 5000;
  switch (kind) {
    case FaultKind::kKill:
      return {0, 50, 30000 + 50};
    case FaultKind::kShutdown:
      return {0, 3000, 30000 + 3000};
    default:
      return {90000, 120000 + scan + 50, 120000 + scan + 30000 + 3000};
  }
}

class BrokerFailure : public ::testing::TestWithParam<std::tuple<core::Profile, FaultKind>> {};

TEST_P(BrokerFailure, WindowsStayWithinPredictedBounds) {
  const auto [profile, kind] = GetParam();
  const Bounds bounds = bounds_for(kind, profile);
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    const auto result = run_isolated(with_fault(small_cluster(profile, seed), kind, kFaultAtMs));
    ASSERT_FALSE(result.contains("error")) << result.dump();
    const auto& outage = result["outages"].at(0);
    for (const auto& ns : outage["nameservers"]) {
      ASSERT_FALSE(ns["dropped_at_ms"].is_null()) << "seed " << seed << ": " << ns.dump();
      const auto delay = ns["delay_ms"].get<std::int64_t>();
      EXPECT_GE(delay, bounds.removal_min_ms) << "seed " << seed << ": " << ns.dump();
      EXPECT_LE(delay, bounds.removal_max_ms) << "seed " << seed << ": " << ns.dump();
    }
    const auto& stale = outage["producers"]["stale_route_ms"];
    EXPECT_EQ(stale["never"].get<int>(), 0)
        << "seed " << seed << ": " << outage["producers"].dump();
    ASSERT_FALSE(stale["max"].is_null());
    EXPECT_LE(stale["max"].get<std::int64_t>(), bounds.stale_max_ms) << "seed " << seed;
    EXPECT_GT(stale["min"].get<std::int64_t>(), 0) << "seed " << seed;
  }
}

std::string name_of(const ::testing::TestParamInfo<BrokerFailure::ParamType>& info) {
  const auto [profile, kind] = info.param;
  std::string name =
      std::string(fault_kind_name(kind)) + (profile == core::Profile::kV4_9 ? "V49" : "V5x");
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    Simulator, BrokerFailure,
    ::testing::Combine(::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                       ::testing::Values(FaultKind::kKill, FaultKind::kPoweroff,
                                         FaultKind::kShutdown, FaultKind::kPartition,
                                         FaultKind::kPause)),
    name_of);

}  // namespace
}  // namespace nssim::sim::testing

// Faults on a NameServer rather than a broker, in both profiles: a powered-off or paused
// NameServer costs producers nothing but their route polls to it (brokers stay reachable, the
// other NameServers keep every broker), and when it comes back it relearns every broker within one
// registration period. A NameServer cut from every broker drops them all within its expiry
// window while the others keep them.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kNameServerFaultAtMs = 240000;
constexpr std::int64_t kNameServerDownMs = 150000;

Scenario nameserver_fault(core::Profile profile, FaultKind kind, std::uint64_t seed) {
  Scenario s = small_cluster(profile, seed);
  FaultSpec fault;
  fault.kind = kind;
  fault.at_ms = kNameServerFaultAtMs;
  fault.duration_ms = kNameServerDownMs;
  if (kind == FaultKind::kPartition) {
    fault.side_a = {"ns-0"};
    fault.side_b = {"broker-a-0", "broker-b-0"};
  } else {
    fault.nodes = {"ns-0"};
  }
  s.faults.push_back(fault);
  return s;
}

// Intervals of `broker` in `nameserver`'s routes, from result.json's timelines.
nlohmann::json in_routes(const nlohmann::json& result, const std::string& broker,
                         const std::string& nameserver) {
  for (const auto& b : result["timelines"]["brokers"]) {
    if (b["node"] != broker) continue;
    for (const auto& row : b["in_routes"]) {
      if (row["nameserver"] == nameserver) return row["intervals"];
    }
  }
  return nlohmann::json::array();
}

void expect_other_nameservers_untouched(const nlohmann::json& result) {
  for (const auto& detection : result["timelines"]["detections"]) {
    EXPECT_EQ(detection["nameserver"], "ns-0") << detection.dump();
  }
  for (const char* ns : {"ns-1", "ns-2"}) {
    for (const char* broker : {"broker-a-0", "broker-b-0"}) {
      EXPECT_EQ(in_routes(result, broker, ns).size(), 1u) << broker << " in " << ns;
    }
  }
}

class NameServerFaults : public ::testing::TestWithParam<core::Profile> {};

TEST_P(NameServerFaults, APoweredOffNameServerCostsNoSendAndRelearnsEveryBroker) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto result = run_isolated(nameserver_fault(GetParam(), FaultKind::kPoweroff, seed));
    ASSERT_FALSE(result.contains("error")) << result.dump();
    EXPECT_EQ(result["sends"]["failed"]["total"], 0) << "seed " << seed;
    expect_other_nameservers_untouched(result);
    // Its tables died with it; after the restart each broker is back within one period.
    const std::int64_t back_ms = kNameServerFaultAtMs + kNameServerDownMs;
    for (const char* broker : {"broker-a-0", "broker-b-0"}) {
      const auto intervals = in_routes(result, broker, "ns-0");
      ASSERT_EQ(intervals.size(), 2u) << broker << " seed " << seed << ": " << intervals.dump();
      EXPECT_LE(intervals[0]["end_ms"].get<std::int64_t>(), kNameServerFaultAtMs + 1);
      const std::int64_t relearnt = intervals[1]["start_ms"].get<std::int64_t>();
      EXPECT_GT(relearnt, back_ms) << broker << " seed " << seed;
      EXPECT_LE(relearnt, back_ms + kRelearnWithinMs) << broker << " seed " << seed;
    }
  }
}

TEST_P(NameServerFaults, APausedNameServerCostsNoSendAndOthersKeepEveryBroker) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto result = run_isolated(nameserver_fault(GetParam(), FaultKind::kPause, seed));
    ASSERT_FALSE(result.contains("error")) << result.dump();
    EXPECT_EQ(result["sends"]["failed"]["total"], 0) << "seed " << seed;
    expect_other_nameservers_untouched(result);
  }
}

TEST_P(NameServerFaults, ANameServerCutFromEveryBrokerDropsThemAllAlone) {
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const auto result = run_isolated(nameserver_fault(GetParam(), FaultKind::kPartition, seed));
    ASSERT_FALSE(result.contains("error")) << result.dump();
    EXPECT_EQ(result["sends"]["failed"]["total"], 0) << "seed " << seed;
    expect_other_nameservers_untouched(result);
    for (const char* broker : {"broker-a-0", "broker-b-0"}) {
      const auto intervals = in_routes(result, broker, "ns-0");
      ASSERT_GE(intervals.size(), 1u) << broker;
      // Silent to ns-0: removed I - P = 90 s to min(I, T + S) + lat = 120 s after the cut
      // (spec 11(a)); back with the first registration after the heal, within P.
      const std::int64_t removed =
          intervals[0]["end_ms"].get<std::int64_t>() - kNameServerFaultAtMs;
      EXPECT_GT(removed, 90000) << broker << " seed " << seed;
      EXPECT_LE(removed, 120001) << broker << " seed " << seed;
      ASSERT_EQ(intervals.size(), 2u) << broker << " seed " << seed;
      EXPECT_LE(intervals[1]["start_ms"].get<std::int64_t>(),
                kNameServerFaultAtMs + kNameServerDownMs + kRelearnWithinMs);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Simulator, NameServerFaults,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

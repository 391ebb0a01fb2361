// A broker host that goes silent (power-off, partition from every NameServer, frozen process):
// each NameServer's removal window, the producers' stale-route window and the detection path,
// both ends checked against the bounds of fidelity_cases.h for each profile and setting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <string>
#include <tuple>

#include "sim_world/fidelity_cases.h"

namespace nssim::sim::testing {
namespace {

class HostLoss : public ::testing::TestWithParam<std::tuple<FidelityCase, FaultKind>> {};

// Every NameServer removes the broker strictly after the floor and no later than the ceiling, in
// every seed. Over the seeds the window is also used end to end: the earliest removal lies in its
// first quarter and the latest in its last, so a model that always removes at one fixed delay, or
// never near an end, fails too.
TEST_P(HostLoss, EveryNameServerRemovesTheBrokerInsideItsWindow) {
  const auto& [c, kind] = GetParam();
  const auto runs = run_seeds(c, kind);
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kSeeds));
  std::int64_t earliest = INT64_MAX;
  std::int64_t latest = INT64_MIN;
  for (const auto& run : runs) {
    const auto delays = removal_delays(run);
    EXPECT_EQ(delays.size(), 3u) << run.where();
    for (std::size_t i = 0; i < delays.size(); ++i) {
      EXPECT_GT(delays[i], c.removal_floor_ms) << run.where() << ", ns-" << i;
      EXPECT_LE(delays[i], c.removal_ceiling_ms) << run.where() << ", ns-" << i;
      earliest = std::min(earliest, delays[i]);
      latest = std::max(latest, delays[i]);
    }
  }
  const std::int64_t quarter = (c.removal_ceiling_ms - c.removal_floor_ms) / 4;
  EXPECT_LT(earliest, c.removal_floor_ms + quarter) << "the window's floor is never approached";
  EXPECT_GT(latest, c.removal_ceiling_ms - quarter) << "the window's ceiling is never approached";
}

// A producer keeps the silent broker until a route poll after its NameServer dropped it (spec
// 11(b)): never before the first removal of its seed (so never within a few failed sends), and at
// most Q plus the answer after the last one. For a dead or frozen broker that is the end of a
// stale route; for a broker cut from the NameServers alone, the start of a lost one.
TEST_P(HostLoss, ProducersDropTheBrokerAtAPollAfterTheRemoval) {
  const auto& [c, kind] = GetParam();
  const auto runs = run_seeds(c, kind);
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kSeeds));
  for (const auto& run : runs) {
    const auto delays = removal_delays(run);
    ASSERT_FALSE(delays.empty()) << run.where();
    const std::int64_t first_removal = *std::min_element(delays.begin(), delays.end());
    const std::int64_t last_removal = *std::max_element(delays.begin(), delays.end());
    const auto windows = drop_delays(run);
    EXPECT_EQ(windows.size(), 4u) << run.where();
    for (std::int64_t stale : windows) {
      EXPECT_GT(stale, c.removal_floor_ms) << run.where();
      EXPECT_LE(stale, c.stale_ceiling_ms) << run.where();
      EXPECT_GT(stale, first_removal) << run.where() << ": dropped before any NameServer did";
      EXPECT_LE(stale, last_removal + c.poll_name_server_interval + kRouteAnswerSlackMs)
          << run.where() << ": kept past the poll after the last removal";
    }
  }
}

// The path of each removal is the one the settings allow (spec 14.1-14.2), and where two are
// possible, both occur over the seeds.
TEST_P(HostLoss, DetectionPathIsIdleCloseOrScanAsTheSettingsPredict) {
  const auto& [c, kind] = GetParam();
  const auto runs = run_seeds(c, kind);
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kSeeds));
  std::map<std::string, int> total;
  for (const auto& run : runs) {
    std::map<std::string, int> paths;
    for (const auto& entry : run.outage["nameservers"]) {
      ++paths[entry["path"].is_string() ? entry["path"].get<std::string>() : "none"];
    }
    for (const auto& [path, count] : paths) total[path] += count;
    switch (c.paths) {
      case PathMix::kIdleCloseOnly:
        EXPECT_EQ(paths, (std::map<std::string, int>{{"idle_close", 3}})) << run.where();
        break;
      case PathMix::kScanExpiryOnly:
        EXPECT_EQ(paths, (std::map<std::string, int>{{"scan_expiry", 3}})) << run.where();
        break;
      case PathMix::kIdleCloseButScanAtTheMetadataNameServer:
        EXPECT_GE(paths["idle_close"], 2) << run.where();
        EXPECT_EQ(paths["idle_close"] + paths["scan_expiry"], 3) << run.where();
        break;
    }
  }
  if (c.paths == PathMix::kIdleCloseButScanAtTheMetadataNameServer) {
    EXPECT_EQ(total.size(), 2u);
    EXPECT_GT(total["scan_expiry"], 0) << "the metadata NameServer is never removed by the scan";
    EXPECT_GT(total["idle_close"], 0);
  }
}

std::string host_loss_name(const ::testing::TestParamInfo<HostLoss::ParamType>& info) {
  const auto& [c, kind] = info.param;
  std::string name = std::string(fault_kind_name(kind)) + c.name;
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    Simulator, HostLoss,
    ::testing::Combine(
        ::testing::Values(kV49Defaults, kV5xDefaults, kV49FastRegistrationAndPoll,
                          kV5xFastRegistrationPollAndScan, kV49IdleBeyondScan, kV5xIdleBeyondScan),
        ::testing::Values(FaultKind::kPoweroff, FaultKind::kPartition, FaultKind::kPause)),
    host_loss_name);

}  // namespace
}  // namespace nssim::sim::testing

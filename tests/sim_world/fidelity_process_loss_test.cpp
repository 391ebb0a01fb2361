// A broker process that ends while its host stays up (kill, clean shutdown): the NameServers drop
// it within milliseconds by the path the kind predicts, and producers follow at their next route
// poll, checked against the bounds of fidelity_cases.h for each profile and setting.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <tuple>

#include "sim_world/fidelity_cases.h"

namespace nssim::sim::testing {
namespace {

class ProcessLoss : public ::testing::TestWithParam<std::tuple<FidelityCase, FaultKind>> {};

// Kill: every NameServer sees the FIN one latency later (connection_close). Shutdown: the
// unregistrations arrive one after the other (unregister), one round trip apart, under 4.9 after
// the store's shutdown.
TEST_P(ProcessLoss, EveryNameServerRemovesTheBrokerWithinMilliseconds) {
  const auto& [c, kind] = GetParam();
  const auto runs = run_seeds(c, kind);
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kSeeds));
  const std::string path = kind == FaultKind::kKill ? "connection_close" : "unregister";
  for (const auto& run : runs) {
    for (const auto& entry : run.outage["nameservers"]) {
      EXPECT_EQ(entry["path"], path) << run.where() << ": " << entry.dump();
    }
    auto delays = removal_delays(run);
    ASSERT_EQ(delays.size(), 3u) << run.where();
    std::sort(delays.begin(), delays.end());
    const std::int64_t store_ms = c.profile == core::Profile::kV4_9 ? kV49StoreShutdownMs : 0;
    for (std::size_t k = 0; k < delays.size(); ++k) {
      const std::int64_t min_ms =
          kind == FaultKind::kKill ? kKillRemovalMinMs : store_ms + kShutdownRemovalMs[k];
      const std::int64_t max_ms = kind == FaultKind::kKill
                                      ? kKillRemovalMaxMs
                                      : store_ms + kShutdownRemovalMs[k] + kShutdownSlackMs;
      EXPECT_GE(delays[k], min_ms) << run.where() << ", removal " << k;
      EXPECT_LE(delays[k], max_ms) << run.where() << ", removal " << k;
    }
  }
}

// Producers drop the broker at a route poll after the removal (spec 11(b)): within the poll
// period, and over the seeds spread across it (the fault falls at every phase of the poll), so a
// producer that dropped the broker at its first refused send would fail the spread.
TEST_P(ProcessLoss, ProducersDropTheRouteAtTheirNextPoll) {
  const auto& [c, kind] = GetParam();
  const auto runs = run_seeds(c, kind);
  ASSERT_EQ(runs.size(), static_cast<std::size_t>(kSeeds));
  const std::int64_t store_ms = c.profile == core::Profile::kV4_9 ? kV49StoreShutdownMs : 0;
  const std::int64_t ceiling =
      kind == FaultKind::kKill ? c.kill_stale_ceiling_ms : c.shutdown_stale_ceiling_ms + store_ms;
  std::int64_t latest = 0;
  for (const auto& run : runs) {
    const auto delays = removal_delays(run);
    ASSERT_FALSE(delays.empty()) << run.where();
    const std::int64_t first_removal = *std::min_element(delays.begin(), delays.end());
    const auto windows = drop_delays(run);
    EXPECT_EQ(windows.size(), 4u) << run.where();
    for (std::int64_t stale : windows) {
      EXPECT_GT(stale, first_removal) << run.where() << ": dropped before any NameServer did";
      EXPECT_LE(stale, ceiling) << run.where();
      latest = std::max(latest, stale);
    }
  }
  EXPECT_GT(latest, c.poll_name_server_interval * 3 / 4)
      << "no producer waited for most of a poll period";
}

std::string process_loss_name(const ::testing::TestParamInfo<ProcessLoss::ParamType>& info) {
  const auto& [c, kind] = info.param;
  std::string name = std::string(fault_kind_name(kind)) + c.name;
  name[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(name[0])));
  return name;
}

INSTANTIATE_TEST_SUITE_P(
    Simulator, ProcessLoss,
    ::testing::Combine(::testing::Values(kV49Defaults, kV5xDefaults, kV49FastRegistrationAndPoll,
                                         kV5xFastRegistrationPollAndScan),
                       ::testing::Values(FaultKind::kKill, FaultKind::kShutdown)),
    process_loss_name);

}  // namespace
}  // namespace nssim::sim::testing

// The settings the fidelity tests run under, with the bounds RocketMQ's rules give for them
// worked out by hand (spec sections 1, 6, 9, 11 and 14) and written down as constants, never
// taken from the simulator's own `predicted.*`. Every case runs the small cluster of
// scenario_builder.h with one fault on broker-a-0, over kSeeds seeds, with the fault moved across
// one registration period so that every phase of the last registration is exercised.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {

inline constexpr int kSeeds = 40;
inline constexpr std::int64_t kFaultBaseMs = 240000;  // every broker and producer runs by then

// Notation of spec 11: P registerNameServerPeriod, T broker expiry (120 s), I
// serverChannelMaxIdleTimeSeconds, S scan period, Q pollNameServerInterval, c the fault, L the
// last registration before it (c - P < L <= c), R the removal, F the producer's first route
// poll after R.
//
// lat, broker to NameServer one way, is 1 ms: every node's access link has latency_ms 0.5
// (LinkSpec) and host-to-host latency is the sum of both ends (star platform).

// The route answer after the poll that sees the removal: two one-way trips plus the transfer.
// Upstream can also delay the poll by up to one heartbeat to the dead broker (mqClientApiTimeout,
// 3000 ms) on the client's single scheduler thread (spec 11(b), 15.7); the simulator does not
// model that heartbeat (sim/client/producer_route_poll.cpp), so no such slack is allowed here.
inline constexpr std::int64_t kRouteAnswerSlackMs = 10;

// ---- Host loss (poweroff, partition from every NameServer, pause) ----
// Floor, spec 11(a) and 14.1: R = min(last read on the connection + I, first scan tick strictly
// after L + T) (NettyServerConfig#serverChannelMaxIdleTimeSeconds + IdleStateHandler;
// RouteInfoManager#scanNotActiveBroker), the last read is >= L > c - P, so R - c > min(I, T) - P.
// Ceiling, spec 14.1-14.2: the last read is <= c + lat, so the idle close comes by c + lat + I and
// the scan by L + lat + T + S: R - c <= min(I, T + S) + lat. With I = T = 120 s the 125 s / 130 s
// of 11(a) are reached only when the idle close cannot fire first.
//
// Stale route, spec 11(b) (MQClientInstance#startScheduledTask,
// updateTopicRouteInfoFromNameServer): F - R in (0, Q], so the stale window ends after the
// producer's NameServer removed the broker and at most Q (+ the answer) later:
// stale <= removal ceiling + Q + kRouteAnswerSlackMs.

// Defaults, both profiles: P 30 s, I 120 s, Q 30 s; S 10 s (4.9) or 5 s (5.x), both > 0 so
// min(I, T + S) = I.
inline constexpr std::int64_t kDefaultRemovalFloorMs = 90000;     // min(120 000, 120 000) - 30 000
inline constexpr std::int64_t kDefaultRemovalCeilingMs = 120001;  // min(120 000, 120 000 + S) + 1
inline constexpr std::int64_t kDefaultStaleCeilingMs = 150011;    // 120 001 + 30 000 + 10

// Fast registration and poll: P 10 s, Q 5 s, I 120 s; 5.x scans every 2 s, 4.9 every 10 s
// whatever scanNotActiveBrokerInterval says (NamesrvController#initialize hard-codes it).
inline constexpr std::int64_t kFastRemovalFloorMs = 110000;    // min(120 000, 120 000) - 10 000
inline constexpr std::int64_t kFastRemovalCeilingMs = 120001;  // min(120 000, 120 000 + S) + 1
inline constexpr std::int64_t kFastStaleCeilingMs = 125011;    // 120 001 + 5 000 + 10

// Idle close beyond the scan: P 10 s, Q 5 s, I 600 s (> T + S, so only the scan can remove the
// broker); S 10 s (4.9, hard-coded although the scenario sets 2 s) or 8 s (5.x).
inline constexpr std::int64_t kScanOnlyRemovalFloorMs = 110000;  // min(600 000, 120 000) - 10 000
inline constexpr std::int64_t kScanOnlyV49RemovalCeilingMs = 130001;  // 120 000 + 10 000 + 1
inline constexpr std::int64_t kScanOnlyV49StaleCeilingMs = 135011;    // 130 001 + 5 000 + 10
inline constexpr std::int64_t kScanOnlyV5xRemovalCeilingMs = 128001;  // 120 000 + 8 000 + 1
inline constexpr std::int64_t kScanOnlyV5xStaleCeilingMs = 133011;    // 128 001 + 5 000 + 10

// ---- Process loss (kill, shutdown) ----
// Kill: the kernel closes the broker's connections and each FIN reaches its NameServer one
// latency later, whose channel close removes the broker at once (spec 6 and 14.4;
// BrokerHousekeepingService#onChannelClose; 5.x through BatchUnregistrationService, same instant
// here).
inline constexpr std::int64_t kKillRemovalMinMs = 1;  // lat
inline constexpr std::int64_t kKillRemovalMaxMs = 3;  // lat + 2 ms of transfer and rounding
// Shutdown: UNREGISTER_BROKER to one NameServer after the other, each waiting for its answer
// (spec 9, BrokerOuterAPI#unregisterBrokerAll): the k-th (k = 0, 1, 2) arrives 2k * lat + lat after
// the shutdown began. Upstream shuffles the NameServer list (NettyRemotingClient#
// updateNameServerAddressList), so only the sorted delays are fixed.
inline constexpr std::int64_t kShutdownRemovalMs[] = {1, 3, 5};  // (2k + 1) * lat
inline constexpr std::int64_t kShutdownSlackMs = 2;
// 4.9 unregisters after its message store's shutdown, which sleeps 1 s first
// (DefaultMessageStore#shutdown); 5.x unregisters before it stops anything.
inline constexpr std::int64_t kV49StoreShutdownMs = 1000;
// Stale route after a process loss, spec 11(b): F - c in (0, Q], plus the removal's milliseconds
// and the answer: Q + removal max + kRouteAnswerSlackMs.
inline constexpr std::int64_t kDefaultKillStaleCeilingMs = 30013;      // 30 000 + 3 + 10
inline constexpr std::int64_t kDefaultShutdownStaleCeilingMs = 30017;  // 30 000 + 5 + 2 + 10
inline constexpr std::int64_t kFastKillStaleCeilingMs = 5013;          // 5 000 + 3 + 10
inline constexpr std::int64_t kFastShutdownStaleCeilingMs = 5017;      // 5 000 + 5 + 2 + 10

// Which detection path a host loss takes at each NameServer (spec 14.1-14.2).
enum class PathMix {
  // I = T: the idle close fires at last read + I, the scan only at a tick strictly after L + T.
  kIdleCloseOnly,
  // I > T + S: the scan always comes first.
  kScanExpiryOnly,
  // 5.x: BrokerController#refreshMetadata keeps the connection to the broker's chosen NameServer
  // busy (GET_BROKER_CLUSTER_INFO every 5 s), so that one can be removed by the scan; the others
  // idle-close. Over the seeds both happen.
  kIdleCloseButScanAtTheMetadataNameServer,
};

struct FidelityCase {
  const char* name;  // the test-name suffix, e.g. "V49Defaults"
  core::Profile profile;
  std::int64_t register_name_server_period;
  std::int64_t poll_name_server_interval;
  std::int64_t server_channel_max_idle_time_seconds;
  std::int64_t scan_not_active_broker_interval;  // 4.9 ignores it
  // Host loss.
  std::int64_t removal_floor_ms;    // R - c > this
  std::int64_t removal_ceiling_ms;  // R - c <= this
  std::int64_t stale_ceiling_ms;
  PathMix paths;
  // Process loss.
  std::int64_t kill_stale_ceiling_ms;
  std::int64_t shutdown_stale_ceiling_ms;
};

inline constexpr FidelityCase kV49Defaults{
    .name = "V49Defaults",
    .profile = core::Profile::kV4_9,
    .register_name_server_period = 30000,
    .poll_name_server_interval = 30000,
    .server_channel_max_idle_time_seconds = 120,
    .scan_not_active_broker_interval = 5000,
    .removal_floor_ms = kDefaultRemovalFloorMs,
    .removal_ceiling_ms = kDefaultRemovalCeilingMs,
    .stale_ceiling_ms = kDefaultStaleCeilingMs,
    .paths = PathMix::kIdleCloseOnly,
    .kill_stale_ceiling_ms = kDefaultKillStaleCeilingMs,
    .shutdown_stale_ceiling_ms = kDefaultShutdownStaleCeilingMs,
};
inline constexpr FidelityCase kV5xDefaults{
    .name = "V5xDefaults",
    .profile = core::Profile::kV5,
    .register_name_server_period = 30000,
    .poll_name_server_interval = 30000,
    .server_channel_max_idle_time_seconds = 120,
    .scan_not_active_broker_interval = 5000,
    .removal_floor_ms = kDefaultRemovalFloorMs,
    .removal_ceiling_ms = kDefaultRemovalCeilingMs,
    .stale_ceiling_ms = kDefaultStaleCeilingMs,
    .paths = PathMix::kIdleCloseButScanAtTheMetadataNameServer,
    .kill_stale_ceiling_ms = kDefaultKillStaleCeilingMs,
    .shutdown_stale_ceiling_ms = kDefaultShutdownStaleCeilingMs,
};
inline constexpr FidelityCase kV49FastRegistrationAndPoll{
    .name = "V49FastRegistrationAndPoll",
    .profile = core::Profile::kV4_9,
    .register_name_server_period = 10000,
    .poll_name_server_interval = 5000,
    .server_channel_max_idle_time_seconds = 120,
    .scan_not_active_broker_interval = 2000,
    .removal_floor_ms = kFastRemovalFloorMs,
    .removal_ceiling_ms = kFastRemovalCeilingMs,
    .stale_ceiling_ms = kFastStaleCeilingMs,
    .paths = PathMix::kIdleCloseOnly,
    .kill_stale_ceiling_ms = kFastKillStaleCeilingMs,
    .shutdown_stale_ceiling_ms = kFastShutdownStaleCeilingMs,
};
inline constexpr FidelityCase kV5xFastRegistrationPollAndScan{
    .name = "V5xFastRegistrationPollAndScan",
    .profile = core::Profile::kV5,
    .register_name_server_period = 10000,
    .poll_name_server_interval = 5000,
    .server_channel_max_idle_time_seconds = 120,
    .scan_not_active_broker_interval = 2000,
    .removal_floor_ms = kFastRemovalFloorMs,
    .removal_ceiling_ms = kFastRemovalCeilingMs,
    .stale_ceiling_ms = kFastStaleCeilingMs,
    .paths = PathMix::kIdleCloseButScanAtTheMetadataNameServer,
    .kill_stale_ceiling_ms = kFastKillStaleCeilingMs,
    .shutdown_stale_ceiling_ms = kFastShutdownStaleCeilingMs,
};
inline constexpr FidelityCase kV49IdleBeyondScan{
    .name = "V49IdleBeyondScan",
    .profile = core::Profile::kV4_9,
    .register_name_server_period = 10000,
    .poll_name_server_interval = 5000,
    .server_channel_max_idle_time_seconds = 600,
    .scan_not_active_broker_interval = 2000,
    .removal_floor_ms = kScanOnlyRemovalFloorMs,
    .removal_ceiling_ms = kScanOnlyV49RemovalCeilingMs,
    .stale_ceiling_ms = kScanOnlyV49StaleCeilingMs,
    .paths = PathMix::kScanExpiryOnly,
    .kill_stale_ceiling_ms = kFastKillStaleCeilingMs,
    .shutdown_stale_ceiling_ms = kFastShutdownStaleCeilingMs,
};
inline constexpr FidelityCase kV5xIdleBeyondScan{
    .name = "V5xIdleBeyondScan",
    .profile = core::Profile::kV5,
    .register_name_server_period = 10000,
    .poll_name_server_interval = 5000,
    .server_channel_max_idle_time_seconds = 600,
    .scan_not_active_broker_interval = 8000,
    .removal_floor_ms = kScanOnlyRemovalFloorMs,
    .removal_ceiling_ms = kScanOnlyV5xRemovalCeilingMs,
    .stale_ceiling_ms = kScanOnlyV5xStaleCeilingMs,
    .paths = PathMix::kScanExpiryOnly,
    .kill_stale_ceiling_ms = kFastKillStaleCeilingMs,
    .shutdown_stale_ceiling_ms = kFastShutdownStaleCeilingMs,
};

// gtest prints a case by its name in test listings and messages.
inline void PrintTo(const FidelityCase& c, std::ostream* os) { *os << c.name; }

inline Scenario fidelity_scenario(const FidelityCase& c, std::uint64_t seed) {
  Scenario s = small_cluster(c.profile, seed);
  s.nameservers.server_channel_max_idle_time_seconds = c.server_channel_max_idle_time_seconds;
  s.nameservers.config.scan_not_active_broker_interval = c.scan_not_active_broker_interval;
  for (auto& group : s.broker_groups) {
    group.config.register_name_server_period = c.register_name_server_period;
  }
  for (auto& producers : s.producers) {
    producers.config.poll_name_server_interval = c.poll_name_server_interval;
  }
  return s;
}

// Seed k's fault falls (k - 1) / kSeeds of a registration period after kFaultBaseMs. The brokers'
// start offsets (drawn from [5 s, 15 s]) cover only a third of a 30 s period, so without this the
// last registration would sit 5 to 15 s before the fault in every seed.
inline std::int64_t fault_at_ms(const FidelityCase& c, std::uint64_t seed) {
  return kFaultBaseMs +
         static_cast<std::int64_t>(seed - 1) * c.register_name_server_period / kSeeds;
}

struct SeedOutage {
  std::uint64_t seed = 0;
  std::int64_t at_ms = 0;
  nlohmann::json outage;         // the run's outages[0]
  nlohmann::json route_windows;  // the run's route_health.route_windows
  FaultKind kind = FaultKind::kKill;

  std::string where() const {
    return "seed " + std::to_string(seed) + ", fault at " + std::to_string(at_ms) + " ms";
  }
};

// Runs `kind` on broker-a-0 for seeds 1..kSeeds. A run that failed, or whose outage is not the
// one fault on broker-a-0 with one entry per NameServer (ns-0, ns-1, ns-2) and four producers that
// held a stale route (a partition from the NameServers alone leaves the broker usable, so it makes
// four lost routes instead), is a test failure and is left out of the list.
inline std::vector<SeedOutage> run_seeds(const FidelityCase& c, FaultKind kind) {
  std::vector<SeedOutage> runs;
  for (std::uint64_t seed = 1; seed <= kSeeds; ++seed) {
    SeedOutage run{seed, fault_at_ms(c, seed), {}, {}, kind};
    const auto result = run_isolated(with_fault(fidelity_scenario(c, seed), kind, run.at_ms));
    if (result.contains("error") || result["outages"].size() != 1) {
      ADD_FAILURE() << run.where() << ": " << result.dump().substr(0, 2000);
      continue;
    }
    run.outage = result["outages"][0];
    run.route_windows = result["route_health"]["route_windows"];
    const auto& ns = run.outage["nameservers"];
    const bool broker_usable = kind == FaultKind::kPartition;
    // Windows of a kind, ended or still open at the run's end.
    auto windows = [&run](const char* window_kind) {
      const auto& stats = run.outage["route_health"][window_kind];
      return stats["count"].get<int>() + stats["never"].get<int>();
    };
    const bool shaped = run.outage["kind"] == fault_kind_name(kind) &&
                        run.outage["brokers"] == nlohmann::json::array({"broker-a-0"}) &&
                        ns.size() == 3 && ns[0]["nameserver"] == "ns-0" &&
                        ns[1]["nameserver"] == "ns-1" && ns[2]["nameserver"] == "ns-2" &&
                        run.outage["producers"]["affected"] == (broker_usable ? 0 : 4) &&
                        windows("stale") == (broker_usable ? 0 : 4) &&
                        windows("lost") == (broker_usable ? 4 : 0);
    if (!shaped) {
      ADD_FAILURE() << run.where() << ": not one fault on broker-a-0 seen by 3 NameServers "
                    << "and 4 producers' stale (or lost) routes: "
                    << run.outage.dump().substr(0, 2000);
      continue;
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

// The removal delay (R - c) at each NameServer, or a failure for one that never removed it.
inline std::vector<std::int64_t> removal_delays(const SeedOutage& run) {
  std::vector<std::int64_t> delays;
  for (const auto& entry : run.outage["nameservers"]) {
    if (entry["delay_ms"].is_number_integer()) {
      delays.push_back(entry["delay_ms"].get<std::int64_t>());
    } else {
      ADD_FAILURE() << run.where() << ": never removed: " << entry.dump();
    }
  }
  return delays;
}

// When each producer stopped using broker-a after the fault (its time since the fault's start),
// or a failure for one that kept it: the end of its stale window, or for a partition from the
// NameServers alone, where the broker stays usable, the start of its lost window.
inline std::vector<std::int64_t> drop_delays(const SeedOutage& run) {
  std::vector<std::int64_t> delays;
  if (run.kind == FaultKind::kPartition) {
    for (const auto& window : run.route_windows) {
      if (window["kind"] != "lost" || window["broker"] != "broker-a") continue;
      EXPECT_EQ(window["cause"], "expired_at_nameserver") << run.where();
      delays.push_back(window["start_ms"].get<std::int64_t>() - run.at_ms);
    }
    return delays;
  }
  for (const auto& producer : run.outage["producers"]["per_producer"]) {
    if (producer["stale_route_ms"].is_number_integer()) {
      delays.push_back(producer["stale_route_ms"].get<std::int64_t>());
    } else {
      ADD_FAILURE() << run.where() << ": kept the route: " << producer.dump();
    }
  }
  return delays;
}

}  // namespace nssim::sim::testing

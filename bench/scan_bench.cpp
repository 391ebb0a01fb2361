// File: scanNotActiveBroker over 10,000 live masters (each with its 8 system topics), when none
// has expired (the 5 s steady state) and when all have; for 5.x also the batch unregistration
// that follows a mass expiry.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <utility>

#include "bench_data.h"

namespace nssim::bench {
namespace {

using core::Profile;
using core::RouteInfoManager;

constexpr std::int64_t kExpiredMs = core::kDefaultBrokerChannelExpiredTimeMs;

// `brokers` masters registered at kStartMs. Built once per (profile, size); iterations that
// mutate the registry work on a copy.
const RouteInfoManager& live_registry(Profile profile, int brokers) {
  static std::map<std::pair<Profile, int>, std::unique_ptr<RouteInfoManager>> registries;
  auto& slot = registries[{profile, brokers}];
  if (!slot) {
    slot = std::make_unique<RouteInfoManager>(profile, default_config());
    for (int index = 0; index < brokers; ++index) {
      slot->register_broker(
          make_master_request(profile, index, make_system_topics(index, kStartMs)), kStartMs);
    }
  }
  return *slot;
}

// Half-way between two heartbeats: nobody is near expiry.
void BM_ScanNoneExpire(benchmark::State& state, Profile profile) {
  RouteInfoManager manager = live_registry(profile, static_cast<int>(state.range(0)));
  const std::int64_t now_ms = kStartMs + kHeartbeatIntervalMs / 2;
  for (auto _ : state) {
    auto result = manager.scan_not_active_broker(now_ms);
    benchmark::DoNotOptimize(result);
  }
  state.counters["brokers"] = static_cast<double>(manager.broker_live_table().size());
}

// Every broker went silent 120 s + 1 ms ago. 4.9 removes each at once (onChannelDestroy); 5.x
// queues unregister requests, up to unRegisterBrokerQueueCapacity (3,000), and drops the rest.
// Copying the registry is not timed.
void BM_ScanAllExpire(benchmark::State& state, Profile profile) {
  const RouteInfoManager& prototype = live_registry(profile, static_cast<int>(state.range(0)));
  const std::int64_t now_ms = kStartMs + kExpiredMs + 1;
  std::size_t expired = 0;
  std::size_t queued = 0;
  for (auto _ : state) {
    auto manager = std::make_unique<RouteInfoManager>(prototype);
    core::ScanResult result;
    state.SetIterationTime(
        time_one_call([&] { result = manager->scan_not_active_broker(now_ms); }));
    expired = result.expired.size();
    queued = manager->pending_unregistrations();
  }
  state.counters["expired"] = static_cast<double>(expired);
  state.counters["queued"] = static_cast<double>(queued);
}

// 5.x: BatchUnregistrationService's drain after an all-expire scan (the scan is not timed).
void BM_ProcessPendingUnregistrations(benchmark::State& state, Profile profile) {
  const RouteInfoManager& prototype = live_registry(profile, static_cast<int>(state.range(0)));
  const std::int64_t now_ms = kStartMs + kExpiredMs + 1;
  std::size_t removed = 0;
  for (auto _ : state) {
    auto manager = std::make_unique<RouteInfoManager>(prototype);
    benchmark::DoNotOptimize(manager->scan_not_active_broker(now_ms));
    std::vector<core::BrokerRemoval> removals;
    state.SetIterationTime(
        time_one_call([&] { removals = manager->process_pending_unregistrations(); }));
    removed = removals.size();
  }
  state.counters["removed"] = static_cast<double>(removed);
}

constexpr int kBrokers = 10'000;
constexpr int kFewBrokers = 1'000;  // the mass-expiry cases also at a tenth, to show the growth

BENCHMARK_CAPTURE(BM_ScanNoneExpire, v4_9, Profile::kV4_9)->Arg(kBrokers);
BENCHMARK_CAPTURE(BM_ScanNoneExpire, v5, Profile::kV5)->Arg(kBrokers);
BENCHMARK_CAPTURE(BM_ScanAllExpire, v4_9, Profile::kV4_9)
    ->Arg(kFewBrokers)
    ->Arg(kBrokers)
    ->UseManualTime();
BENCHMARK_CAPTURE(BM_ScanAllExpire, v5, Profile::kV5)
    ->Arg(kFewBrokers)
    ->Arg(kBrokers)
    ->UseManualTime();
BENCHMARK_CAPTURE(BM_ProcessPendingUnregistrations, v5, Profile::kV5)
    ->Arg(kFewBrokers)
    ->Arg(kBrokers)
    ->UseManualTime();

}  // namespace
}  // namespace nssim::bench

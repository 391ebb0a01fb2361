// File: REGISTER_BROKER cost for a master with 1,000 topics: the first registration, the 30 s
// heartbeat with an unchanged DataVersion, and a re-registration after a topic change.
//
// register_broker takes its request by value. The timed region is the call with the request moved
// in: it includes freeing the request (the parameter dies with the call expression) but not
// building or copying it. BM_RegisterRequestCopy and BM_RegisterRequestFree time those two parts
// on their own, so the core's own work is a registration's time minus the free.
#include <benchmark/benchmark.h>

#include <memory>
#include <utility>

#include "bench_data.h"

namespace nssim::bench {
namespace {

using core::Profile;
using core::RegisterBrokerRequest;
using core::RouteInfoManager;

constexpr int kTopics = 1000;
constexpr int kBrokerIndex = 7;  // 10.0.0.8:10911, broker-0007

RegisterBrokerRequest master_with_user_topics(Profile profile) {
  return make_master_request(profile, kBrokerIndex, make_user_topics(0, kTopics, kStartMs));
}

// (a) Into an empty manager: every topic and the group are created.
void BM_RegisterFirst(benchmark::State& state, Profile profile) {
  const RegisterBrokerRequest request = master_with_user_topics(profile);
  for (auto _ : state) {
    auto manager = std::make_unique<RouteInfoManager>(profile, default_config());
    RegisterBrokerRequest copy = request;
    state.SetIterationTime(time_one_call(
        [&] { benchmark::DoNotOptimize(manager->register_broker(std::move(copy), kStartMs)); }));
  }
  state.counters["topics"] = kTopics;
}

// (b) The periodic registerBrokerAll: same DataVersion, only the live entry is refreshed (4.9);
// 5.x still asks isTopicConfigChanged for every topic.
void BM_RegisterHeartbeatUnchanged(benchmark::State& state, Profile profile) {
  const RegisterBrokerRequest request = master_with_user_topics(profile);
  RouteInfoManager manager(profile, default_config());
  manager.register_broker(request, kStartMs);
  std::int64_t now_ms = kStartMs;
  for (auto _ : state) {
    RegisterBrokerRequest copy = request;
    now_ms += kHeartbeatIntervalMs;
    state.SetIterationTime(time_one_call(
        [&] { benchmark::DoNotOptimize(manager.register_broker(std::move(copy), now_ms)); }));
  }
}

// (c) A topic was created or updated on the broker: the DataVersion moved on, so every topic's
// QueueData is rewritten.
void BM_RegisterDataVersionChanged(benchmark::State& state, Profile profile) {
  const RegisterBrokerRequest request = master_with_user_topics(profile);
  RouteInfoManager manager(profile, default_config());
  manager.register_broker(request, kStartMs);
  std::int64_t now_ms = kStartMs;
  for (auto _ : state) {
    RegisterBrokerRequest copy = request;
    now_ms += kHeartbeatIntervalMs;
    auto& data_version = copy.topic_config_wrapper->data_version;
    data_version.timestamp = now_ms;
    ++data_version.counter;
    state.SetIterationTime(time_one_call(
        [&] { benchmark::DoNotOptimize(manager.register_broker(std::move(copy), now_ms)); }));
  }
}

// What passing an lvalue adds: copying the 1,000-topic request into the parameter.
void BM_RegisterRequestCopy(benchmark::State& state, Profile profile) {
  const RegisterBrokerRequest request = master_with_user_topics(profile);
  for (auto _ : state) {
    std::unique_ptr<RegisterBrokerRequest> copy;
    state.SetIterationTime(
        time_one_call([&] { copy = std::make_unique<RegisterBrokerRequest>(request); }));
    benchmark::DoNotOptimize(copy);
  }
}

// The part of every timed registration above that is not the core's work: freeing the request.
void BM_RegisterRequestFree(benchmark::State& state, Profile profile) {
  const RegisterBrokerRequest request = master_with_user_topics(profile);
  for (auto _ : state) {
    auto copy = std::make_unique<RegisterBrokerRequest>(request);
    state.SetIterationTime(time_one_call([&] { copy.reset(); }));
  }
}

BENCHMARK_CAPTURE(BM_RegisterFirst, v4_9, Profile::kV4_9)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterFirst, v5, Profile::kV5)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterHeartbeatUnchanged, v4_9, Profile::kV4_9)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterHeartbeatUnchanged, v5, Profile::kV5)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterDataVersionChanged, v4_9, Profile::kV4_9)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterDataVersionChanged, v5, Profile::kV5)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterRequestCopy, v4_9, Profile::kV4_9)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterRequestCopy, v5, Profile::kV5)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterRequestFree, v4_9, Profile::kV4_9)->UseManualTime();
BENCHMARK_CAPTURE(BM_RegisterRequestFree, v5, Profile::kV5)->UseManualTime();

}  // namespace
}  // namespace nssim::bench

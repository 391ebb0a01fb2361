// File: pickupTopicRouteData in a registry of 100 master groups x 1,000 topics, in the two
// layouts that bound a route's size: one group per route and 100 groups per route.
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "bench_data.h"

namespace nssim::bench {
namespace {

using core::Profile;
using core::RouteInfoManager;

constexpr int kGroups = 100;
constexpr int kTopicsPerGroup = 1000;

enum class Layout {
  kOwnTopics,     // group g serves topics g*1000 .. g*1000+999: 100,000 topics, 1 group each
  kSharedTopics,  // every group serves topics 0 .. 999: 1,000 topics, 100 groups each
};

struct RouteRegistry {
  std::unique_ptr<RouteInfoManager> manager;
  std::vector<std::string> lookup_order;  // every topic once, scattered
};

RouteRegistry build_registry(Profile profile, Layout layout) {
  RouteRegistry registry{std::make_unique<RouteInfoManager>(profile, default_config()), {}};
  for (int group = 0; group < kGroups; ++group) {
    const int first_topic = layout == Layout::kOwnTopics ? group * kTopicsPerGroup : 0;
    registry.manager->register_broker(
        make_master_request(profile, group,
                            make_user_topics(first_topic, kTopicsPerGroup, kStartMs)),
        kStartMs);
  }
  const int topic_count =
      layout == Layout::kOwnTopics ? kGroups * kTopicsPerGroup : kTopicsPerGroup;
  for (int index : scattered_order(topic_count)) registry.lookup_order.push_back(topic_name(index));
  return registry;
}

// Built once per (profile, layout) and kept for the whole run.
const RouteRegistry& registry_for(Profile profile, Layout layout) {
  static RouteRegistry registries[2][2];
  RouteRegistry& slot =
      registries[profile == Profile::kV5 ? 1 : 0][layout == Layout::kSharedTopics ? 1 : 0];
  if (!slot.manager) slot = build_registry(profile, layout);
  return slot;
}

// Each iteration looks up the next topic in the scattered order and drops the answer inside the
// timed loop, as a request handler would. Nothing changes between lookups, so after the first
// pass over the topics every answer is the registry's shared route (the steady state between
// registrations that change something).
void BM_PickupTopicRouteData(benchmark::State& state, Profile profile, Layout layout) {
  const RouteRegistry& registry = registry_for(profile, layout);
  const RouteInfoManager& manager = *registry.manager;
  const auto& topics = registry.lookup_order;
  std::size_t next = 0;
  std::size_t broker_datas = 0;
  for (auto _ : state) {
    auto route = manager.pickup_topic_route_data(topics[next]);
    broker_datas += route->broker_datas.size();
    benchmark::DoNotOptimize(route);
    if (++next == topics.size()) next = 0;
  }
  state.counters["groups_per_route"] =
      static_cast<double>(broker_datas) / static_cast<double>(state.iterations());
  state.counters["topics"] = static_cast<double>(topics.size());
}

// The lookup right after a change: the registry's route answers are shared until something a
// route shows changes, so this is what the first caller after a registration that changed a route
// pays (the route is built as Java builds it per call). Flipping one group's write permission,
// untimed, is the change.
void BM_PickupTopicRouteDataAfterChange(benchmark::State& state, Profile profile) {
  static RouteRegistry registries[2];
  RouteRegistry& registry = registries[profile == Profile::kV5 ? 1 : 0];
  if (!registry.manager) registry = build_registry(profile, Layout::kSharedTopics);
  RouteInfoManager& manager = *registry.manager;
  const auto& topics = registry.lookup_order;
  std::size_t next = 0;
  bool wipe = true;
  for (auto _ : state) {
    if (wipe) {
      manager.wipe_write_perm_of_broker_by_lock(broker_name(0));
    } else {
      manager.add_write_perm_of_broker_by_lock(broker_name(0));
    }
    wipe = !wipe;
    std::shared_ptr<const core::TopicRouteData> route;
    state.SetIterationTime(
        time_one_call([&] { route = manager.pickup_topic_route_data(topics[next]); }));
    benchmark::DoNotOptimize(route);
    if (++next == topics.size()) next = 0;
  }
}

BENCHMARK_CAPTURE(BM_PickupTopicRouteData, own_topics_v4_9, Profile::kV4_9, Layout::kOwnTopics);
BENCHMARK_CAPTURE(BM_PickupTopicRouteData, own_topics_v5, Profile::kV5, Layout::kOwnTopics);
BENCHMARK_CAPTURE(BM_PickupTopicRouteData, shared_topics_v4_9, Profile::kV4_9,
                  Layout::kSharedTopics);
BENCHMARK_CAPTURE(BM_PickupTopicRouteData, shared_topics_v5, Profile::kV5, Layout::kSharedTopics);
BENCHMARK_CAPTURE(BM_PickupTopicRouteDataAfterChange, shared_topics_v4_9, Profile::kV4_9)
    ->UseManualTime();
BENCHMARK_CAPTURE(BM_PickupTopicRouteDataAfterChange, shared_topics_v5, Profile::kV5)
    ->UseManualTime();

}  // namespace
}  // namespace nssim::bench

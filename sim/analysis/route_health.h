// File: route health over a run, judged against the network as the transport rules saw it. A
// producer's route to a broker is *stale* while its publish info holds a broker it cannot use
// (down, paused, powered off, cut from it) and *lost* while a broker it could use is missing from
// its publish info; a NameServer is *missing* a broker that is up, reachable from it and absent
// from its routes. Every window carries why it began and why it ended (reports/README.md).
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "sim/analysis/route_replay.h"
#include "sim/network/network_history.h"
#include "sim/record/event_log.h"
#include "sim/record/send_stats.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

enum class RouteWindowKind { kStale, kLost, kMissing };

// Why a route window began or ended (route_health.json's cause and end_cause, reports/README.md
// Route health lists each), one enum with its names.
enum class WindowCause : std::uint8_t {
  // a stale window begins: the producer cannot use the broker it holds
  kBrokerPoweredOff,
  kBrokerDown,
  kBrokerPaused,
  kBrokerCutFromProducer,
  // a lost window begins: the producer no longer holds a broker it can use
  kAwaitingRoutePoll,
  kWritePermWiped,
  kNameserverRestarted,
  kNameserverMissingBroker,
  kExpiredAtNameserver,
  kRouteChanged,
  // a missing window begins (also kNameserverRestarted): a NameServer lists it no more
  kAwaitingRegistration,
  kUnregistered,
  kRemovedWhileReachable,
  // a window ends
  kBrokerUsableAgain,
  kDroppedFromRoute,
  kRouteRegained,
  kBrokerUnusable,
  kRegistered,
  kNameserverDown,
  kRunEnd,
};
const char* window_cause_name(WindowCause cause);

// One stretch of a producer's route to one broker group (its master), or of a NameServer's
// routes missing one broker. `end_ms` is absent when the window was still open at the run's end.
struct RouteWindow {
  RouteWindowKind kind = RouteWindowKind::kStale;
  std::string holder;  // the producer, or the NameServer for a missing window
  std::string broker;  // brokerName
  std::string broker_node;
  std::string broker_addr;
  std::int64_t start_ms = 0;
  std::optional<std::int64_t> end_ms;
  WindowCause cause = WindowCause::kRunEnd;      // why it began
  WindowCause end_cause = WindowCause::kRunEnd;  // why it ended (kRunEnd while open)
};

struct RouteHealth {
  std::vector<RouteWindow> routes;   // stale and lost, by producer, broker, then time
  std::vector<RouteWindow> missing;  // by NameServer, broker node, then time
  std::int64_t duration_ms = 0;
};

RouteHealth route_health(const Scenario& scenario, const Topology& topology,
                         const std::vector<Event>& events, const RouteReplay& replay,
                         const SendStats& sends, const NetworkHistory& network);

// {"stale", "lost", "missing"}: each {count, never, min, p50, p99, max, total_ms, by_cause,
// end_causes} over the windows `keep` admits (all when empty); `never` counts windows still open
// at the run's end, which have no duration.
nlohmann::json route_health_stats_json(const RouteHealth& health,
                                       const std::function<bool(const RouteWindow&)>& keep);

// The whole-run "route_health" object of result.json: the statistics plus the windows
// themselves, at most kListedRouteWindows of each list (the statistics cover all).
inline constexpr std::size_t kListedRouteWindows = 1000;
nlohmann::json route_health_json(const RouteHealth& health);

// Per second 0 .. ceil(duration/1000)-1: how many producers had a window of `kind` open at some
// time in that second.
std::vector<std::int64_t> producers_per_second(const RouteHealth& health, RouteWindowKind kind);

}  // namespace nssim::sim

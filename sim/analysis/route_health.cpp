// File: route_health and its JSON (see route_health.h). Each window is found by walking the
// instants at which its inputs change: the network between the two nodes, the producer's publish
// info changes, the NameServer's route views. Between two such instants nothing it depends on
// moves.
#include "sim/analysis/route_health.h"

#include <algorithm>
#include <map>
#include <set>

#include "sim/analysis/distribution.h"

namespace nssim::sim {

namespace {

bool process_up(const NetworkHistory& network, NodeId node, std::int64_t t_ms) {
  return network.state_at(node, t_ms).process == ProcessState::kUp;
}

// What a TCP exchange between the two running processes needs.
bool usable(const NetworkHistory& network, NodeId a, NodeId b, std::int64_t t_ms) {
  return process_up(network, a, t_ms) && process_up(network, b, t_ms) &&
         network.reachable(a, b, t_ms);
}

// Why a producer cannot use broker `b` at t_ms.
WindowCause stale_cause(const NetworkHistory& network, NodeId b, std::int64_t t_ms) {
  const NodeState state = network.state_at(b, t_ms);
  if (!state.host_up) return WindowCause::kBrokerPoweredOff;
  if (state.process == ProcessState::kDown) return WindowCause::kBrokerDown;
  if (state.process == ProcessState::kPaused) return WindowCause::kBrokerPaused;
  return WindowCause::kBrokerCutFromProducer;
}

std::vector<std::int64_t> merged(std::vector<std::int64_t> a, const std::vector<std::int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end());
  a.erase(std::unique(a.begin(), a.end()), a.end());
  return a;
}

RouteWindow prototype(RouteWindowKind kind, const std::string& holder, const std::string& broker,
                      const TopologyNode& node) {
  RouteWindow window;
  window.kind = kind;
  window.holder = holder;
  window.broker = broker;
  window.broker_node = node.name;
  window.broker_addr = node.broker_addr;
  return window;
}

// Opens and closes windows as a boolean condition changes from instant to instant.
class WindowTracker {
 public:
  WindowTracker(std::vector<RouteWindow>& out, RouteWindow prototype)
      : out_(out), prototype_(std::move(prototype)) {}

  void update(bool open_now, std::int64_t t_ms, const std::function<WindowCause()>& cause,
              const std::function<WindowCause()>& end_cause) {
    if (open_now && !open_) {
      RouteWindow window = prototype_;
      window.start_ms = t_ms;
      window.cause = cause();
      out_.push_back(std::move(window));
    } else if (!open_now && open_) {
      out_.back().end_ms = t_ms;
      out_.back().end_cause = end_cause();
    }
    open_ = open_now;
  }
  void finish() {
    if (open_) out_.back().end_cause = WindowCause::kRunEnd;
  }

 private:
  std::vector<RouteWindow>& out_;
  RouteWindow prototype_;
  bool open_ = false;
};

// The instants in [0, duration] of `instants`, with 0 first.
std::vector<std::int64_t> within_run(const std::vector<std::int64_t>& instants,
                                     std::int64_t duration_ms) {
  std::vector<std::int64_t> out = {0};
  for (std::int64_t t : instants) {
    if (t > 0 && t <= duration_ms) out.push_back(t);
  }
  return out;
}

// Whether `ns` logged the broker's UNREGISTER_BROKER removal at t_ms.
bool unregistered_at(const std::vector<Event>& events, const std::string& ns,
                     const std::string& addr, std::int64_t t_ms) {
  const auto first = std::lower_bound(events.begin(), events.end(), t_ms,
                                      [](const Event& e, std::int64_t t) { return e.t_ms < t; });
  for (auto it = first; it != events.end() && it->t_ms == t_ms; ++it) {
    if (it->node == ns && it->kind == EventKind::kBrokerRemoved &&
        it->fields.value("broker_addr", "") == addr &&
        it->fields.value("path", "") == "unregister") {
      return true;
    }
  }
  return false;
}

void missing_windows(const Scenario& scenario, const Topology& topology,
                     const std::vector<Event>& events, const RouteReplay& replay,
                     const NetworkHistory& network, RouteHealth& health) {
  for (int i = 0; i < scenario.nameservers.count; ++i) {
    const std::string ns_name = nameserver_name(i);
    const NodeId ns = topology.by_name.at(ns_name);
    const NameServerReplay& views = replay.nameserver(ns_name);
    for (const NodeId b : topology.brokers) {
      const TopologyNode& node = topology.nodes[static_cast<std::size_t>(b)];
      const BrokerGroupSpec& group = scenario.broker_groups[node.group];
      if (!group.nameservers.empty() &&
          std::find(group.nameservers.begin(), group.nameservers.end(), i) ==
              group.nameservers.end()) {
        continue;  // not in its namesrvAddr: never registers there
      }
      const std::string& addr = node.broker_addr;
      WindowTracker tracker(health.missing,
                            prototype(RouteWindowKind::kMissing, ns_name, group.name, node));
      std::optional<std::int64_t> first_listed;
      std::optional<std::int64_t> last_listed;
      bool was_usable = false;
      // Between these instants neither the network between the two nor the broker's listing
      // moves (other brokers' route changes cannot open or close its window).
      for (const std::int64_t t :
           within_run(merged(network.change_times_between(ns, b), views.listing_changes(addr)),
                      scenario.duration_ms)) {
        const bool listed = views.lists(addr, t);
        const bool up = usable(network, ns, b, t);
        tracker.update(
            up && !listed && first_listed.has_value(), t,
            [&]() -> WindowCause {
              const auto restart = views.last_start_at_or_before(t);
              if (restart && (!last_listed || *restart > *last_listed)) {
                return WindowCause::kNameserverRestarted;
              }
              if (!was_usable) return WindowCause::kAwaitingRegistration;
              return unregistered_at(events, ns_name, addr, t)
                         ? WindowCause::kUnregistered
                         : WindowCause::kRemovedWhileReachable;
            },
            [&]() -> WindowCause {
              if (listed) return WindowCause::kRegistered;
              return process_up(network, ns, t) ? WindowCause::kBrokerUnusable
                                                : WindowCause::kNameserverDown;
            });
        if (listed) {
          if (!first_listed) first_listed = t;
          last_listed = t;
        }
        was_usable = up;
      }
      tracker.finish();
    }
  }
}

// Whether a wipeWritePerm of `group` is in force at t_ms (not undone by a later addWritePerm).
bool write_perm_wiped(const Scenario& scenario, const std::string& group, std::int64_t t_ms) {
  bool wiped = false;
  for (const auto& fault : scenario.faults) {
    if (fault.broker_name != group || fault.at_ms > t_ms) continue;
    if (fault.kind == FaultKind::kWipeWritePerm) wiped = true;
    if (fault.kind == FaultKind::kAddWritePerm) wiped = false;
  }
  return wiped;
}

// Why a producer lost a broker it can use at t_ms: what the NameServers it asks did. A route poll
// answer reflects a NameServer's routes at most mqClientApiTimeout before it arrives.
// A removal counts when it happened within one poll interval before that answer.
WindowCause lost_cause(const RouteHealth& health, const std::vector<std::string>& nameservers,
                       const std::string& addr, std::int64_t t_ms, const ProducerConfig& config,
                       const std::vector<Event>& events) {
  const std::int64_t answer_age_ms = config.mq_client_api_timeout;
  for (const auto& window : health.missing) {
    if (window.broker_addr != addr || window.start_ms > t_ms ||
        (window.end_ms && *window.end_ms < t_ms - answer_age_ms) ||
        std::find(nameservers.begin(), nameservers.end(), window.holder) == nameservers.end()) {
      continue;
    }
    return window.cause == WindowCause::kNameserverRestarted
               ? WindowCause::kNameserverRestarted
               : WindowCause::kNameserverMissingBroker;
  }
  const std::int64_t since = t_ms - answer_age_ms - config.poll_name_server_interval;
  for (const auto& event : events) {
    if (event.t_ms > t_ms) break;
    if (event.t_ms >= since && event.kind == EventKind::kBrokerRemoved &&
        event.fields.value("removed_from_routes", false) &&
        event.fields.value("broker_addr", "") == addr &&
        std::find(nameservers.begin(), nameservers.end(), event.node) != nameservers.end()) {
      return WindowCause::kExpiredAtNameserver;
    }
  }
  return WindowCause::kRouteChanged;
}

void route_windows(const Scenario& scenario, const Topology& topology,
                   const std::vector<Event>& events, const SendStats& sends,
                   const NetworkHistory& network, RouteHealth& health) {
  const auto& changes_by_producer = sends.publish_changes();
  // Which topics each group serves and each producer spec sends, as topic indices in scenario
  // order, worked out once: per producer and group they cost 10^9 string compares at 100,000
  // producers.
  std::vector<std::vector<std::size_t>> served_by_group(scenario.broker_groups.size());
  for (std::size_t g = 0; g < scenario.broker_groups.size(); ++g) {
    for (std::size_t t = 0; t < scenario.topics.size(); ++t) {
      const auto& groups = scenario.topics[t].groups;
      if (groups.empty() ||
          std::find(groups.begin(), groups.end(), scenario.broker_groups[g].name) != groups.end()) {
        served_by_group[g].push_back(t);
      }
    }
  }
  std::vector<std::vector<bool>> sent_by_spec(scenario.producers.size());
  for (std::size_t i = 0; i < scenario.producers.size(); ++i) {
    const std::vector<std::string> sent = instance_topics(scenario, i);
    for (const auto& topic : scenario.topics) {
      sent_by_spec[i].push_back(std::find(sent.begin(), sent.end(), topic.name) != sent.end());
    }
  }
  for (const auto& producer : producer_nodes(scenario)) {
    const auto found = changes_by_producer.find(producer.name);
    if (found == changes_by_producer.end()) continue;  // its publish info never changed
    const ProducerSpec& spec = scenario.producers[producer.spec_index];
    const std::vector<bool>& sent = sent_by_spec[producer.spec_index];
    const NodeId p = topology.by_name.at(producer.name);
    std::vector<std::string> nameservers;
    for (int i = 0; i < scenario.nameservers.count; ++i) {
      if (spec.nameservers.empty() ||
          std::find(spec.nameservers.begin(), spec.nameservers.end(), i) != spec.nameservers.end())
        nameservers.push_back(nameserver_name(i));
    }
    for (const NodeId b : topology.brokers) {
      const TopologyNode& node = topology.nodes[static_cast<std::size_t>(b)];
      if (node.broker_id != 0) continue;  // publish info holds masters only
      const BrokerGroupSpec& group = scenario.broker_groups[node.group];
      // The producer's topics this group serves, and their publish-info changes.
      std::vector<const std::vector<PublishChange>*> topic_changes;
      std::vector<std::int64_t> instants;
      for (const std::size_t t : served_by_group[node.group]) {
        if (!sent[t]) continue;
        const auto changes = found->second.find(scenario.topics[t].name);
        if (changes == found->second.end()) continue;
        topic_changes.push_back(&changes->second);
        for (const auto& change : changes->second) instants.push_back(change.t_ms);
      }
      if (topic_changes.empty()) continue;
      auto held_at = [&](std::int64_t t) {
        return std::any_of(topic_changes.begin(), topic_changes.end(), [&](const auto* changes) {
          return publish_info_holds(*changes, t, group.name);
        });
      };
      WindowTracker stale(health.routes,
                          prototype(RouteWindowKind::kStale, producer.name, group.name, node));
      std::vector<RouteWindow> lost_windows;
      WindowTracker lost(lost_windows,
                         prototype(RouteWindowKind::kLost, producer.name, group.name, node));
      bool ever_held = false;
      bool was_usable = false;
      for (const std::int64_t t :
           within_run(merged(network.change_times_between(p, b), instants), scenario.duration_ms)) {
        const bool held = held_at(t);
        const bool producer_up = process_up(network, p, t);
        const bool up = usable(network, p, b, t);
        stale.update(
            producer_up && held && !up, t, [&] { return stale_cause(network, b, t); },
            [&] {
              return held ? WindowCause::kBrokerUsableAgain : WindowCause::kDroppedFromRoute;
            });
        lost.update(
            ever_held && !held && up, t,
            [&]() -> WindowCause {
              if (write_perm_wiped(scenario, group.name, t)) return WindowCause::kWritePermWiped;
              if (!was_usable) return WindowCause::kAwaitingRoutePoll;
              return lost_cause(health, nameservers, node.broker_addr, t, spec.config, events);
            },
            [&] { return held ? WindowCause::kRouteRegained : WindowCause::kBrokerUnusable; });
        ever_held = ever_held || held;
        was_usable = up;
      }
      stale.finish();
      lost.finish();
      health.routes.insert(health.routes.end(), lost_windows.begin(), lost_windows.end());
    }
  }
}

const char* kind_name(RouteWindowKind kind) {
  return kind == RouteWindowKind::kStale ? "stale" : "lost";
}

nlohmann::json stats_json(const std::vector<const RouteWindow*>& windows,
                          std::int64_t duration_ms) {
  std::vector<std::int64_t> durations;
  std::int64_t total = 0;
  std::map<std::string, std::int64_t> causes;
  std::map<std::string, std::int64_t> end_causes;
  for (const RouteWindow* window : windows) {
    total += window->end_ms.value_or(duration_ms) - window->start_ms;
    if (window->end_ms) durations.push_back(*window->end_ms - window->start_ms);
    ++causes[window_cause_name(window->cause)];
    ++end_causes[window_cause_name(window->end_cause)];
  }
  nlohmann::json stats = distribution_json(durations, windows.size() - durations.size());
  stats["total_ms"] = total;
  stats["by_cause"] = causes;
  stats["end_causes"] = end_causes;
  return stats;
}

nlohmann::json window_json(const RouteWindow& window, const char* holder_key) {
  return {{holder_key, window.holder},
          {"broker", window.broker},
          {"broker_node", window.broker_node},
          {"start_ms", window.start_ms},
          {"end_ms", window.end_ms ? nlohmann::json(*window.end_ms) : nlohmann::json()},
          {"cause", window_cause_name(window.cause)},
          {"end_cause", window_cause_name(window.end_cause)}};
}

}  // namespace

const char* window_cause_name(WindowCause cause) {
  switch (cause) {
    case WindowCause::kBrokerPoweredOff:
      return "broker_powered_off";
    case WindowCause::kBrokerDown:
      return "broker_down";
    case WindowCause::kBrokerPaused:
      return "broker_paused";
    case WindowCause::kBrokerCutFromProducer:
      return "broker_cut_from_producer";
    case WindowCause::kAwaitingRoutePoll:
      return "awaiting_route_poll";
    case WindowCause::kWritePermWiped:
      return "write_perm_wiped";
    case WindowCause::kNameserverRestarted:
      return "nameserver_restarted";
    case WindowCause::kNameserverMissingBroker:
      return "nameserver_missing_broker";
    case WindowCause::kExpiredAtNameserver:
      return "expired_at_nameserver";
    case WindowCause::kRouteChanged:
      return "route_changed";
    case WindowCause::kAwaitingRegistration:
      return "awaiting_registration";
    case WindowCause::kUnregistered:
      return "unregistered";
    case WindowCause::kRemovedWhileReachable:
      return "removed_while_reachable";
    case WindowCause::kBrokerUsableAgain:
      return "broker_usable_again";
    case WindowCause::kDroppedFromRoute:
      return "dropped_from_route";
    case WindowCause::kRouteRegained:
      return "route_regained";
    case WindowCause::kBrokerUnusable:
      return "broker_unusable";
    case WindowCause::kRegistered:
      return "registered";
    case WindowCause::kNameserverDown:
      return "nameserver_down";
    case WindowCause::kRunEnd:
      return "run_end";
  }
  return "unknown";
}

RouteHealth route_health(const Scenario& scenario, const Topology& topology,
                         const std::vector<Event>& events, const RouteReplay& replay,
                         const SendStats& sends, const NetworkHistory& network) {
  RouteHealth health;
  health.duration_ms = scenario.duration_ms;
  missing_windows(scenario, topology, events, replay, network, health);
  route_windows(scenario, topology, events, sends, network, health);
  return health;
}

nlohmann::json route_health_stats_json(const RouteHealth& health,
                                       const std::function<bool(const RouteWindow&)>& keep) {
  std::vector<const RouteWindow*> stale;
  std::vector<const RouteWindow*> lost;
  std::vector<const RouteWindow*> missing;
  for (const auto& window : health.routes) {
    if (keep && !keep(window)) continue;
    (window.kind == RouteWindowKind::kStale ? stale : lost).push_back(&window);
  }
  for (const auto& window : health.missing) {
    if (!keep || keep(window)) missing.push_back(&window);
  }
  return {{"stale", stats_json(stale, health.duration_ms)},
          {"lost", stats_json(lost, health.duration_ms)},
          {"missing", stats_json(missing, health.duration_ms)}};
}

nlohmann::json route_health_json(const RouteHealth& health) {
  nlohmann::json out = route_health_stats_json(health, {});
  std::vector<const RouteWindow*> routes;
  for (const auto& window : health.routes) routes.push_back(&window);
  std::stable_sort(routes.begin(), routes.end(), [](const RouteWindow* a, const RouteWindow* b) {
    return a->start_ms < b->start_ms;
  });
  nlohmann::json route_list = nlohmann::json::array();
  for (const RouteWindow* window : routes) {
    if (route_list.size() == kListedRouteWindows) break;
    nlohmann::json entry = window_json(*window, "producer");
    entry["kind"] = kind_name(window->kind);
    route_list.push_back(std::move(entry));
  }
  std::vector<const RouteWindow*> missing;
  for (const auto& window : health.missing) missing.push_back(&window);
  std::stable_sort(missing.begin(), missing.end(), [](const RouteWindow* a, const RouteWindow* b) {
    return a->start_ms < b->start_ms;
  });
  nlohmann::json missing_list = nlohmann::json::array();
  for (const RouteWindow* window : missing) {
    if (missing_list.size() == kListedRouteWindows) break;
    missing_list.push_back(window_json(*window, "nameserver"));
  }
  out["route_windows"] = std::move(route_list);
  out["missing_windows"] = std::move(missing_list);
  return out;
}

std::vector<std::int64_t> producers_per_second(const RouteHealth& health, RouteWindowKind kind) {
  // Per producer, the seconds [first, last) its windows touch, merged so that a second shared by
  // two windows (two brokers, say) counts the producer once.
  std::map<std::string, std::vector<std::pair<std::int64_t, std::int64_t>>> touched;
  const std::int64_t seconds = (health.duration_ms + 999) / 1000;
  for (const auto& window : health.routes) {
    const std::int64_t end = window.end_ms.value_or(health.duration_ms);
    if (window.kind != kind || end <= window.start_ms) continue;
    touched[window.holder].emplace_back(window.start_ms / 1000,
                                        std::min(seconds, (end + 999) / 1000));
  }
  std::vector<std::int64_t> change(static_cast<std::size_t>(seconds) + 1, 0);
  for (auto& [holder, list] : touched) {
    std::sort(list.begin(), list.end());
    std::int64_t covered_until = 0;
    for (auto [first, last] : list) {
      first = std::max(first, covered_until);
      if (first >= last) continue;
      ++change[static_cast<std::size_t>(first)];
      --change[static_cast<std::size_t>(last)];
      covered_until = last;
    }
  }
  std::vector<std::int64_t> counts(static_cast<std::size_t>(seconds), 0);
  std::int64_t running = 0;
  for (std::size_t s = 0; s < counts.size(); ++s) counts[s] = running += change[s];
  return counts;
}

}  // namespace nssim::sim

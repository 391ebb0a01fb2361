// File: outages_json and settings_json (see outage_analysis.h), with the section 11 predictions.
#include "sim/analysis/outage_analysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "sim/analysis/distribution.h"
#include "sim/analysis/route_health.h"

namespace nssim::sim {

namespace {

struct Settings {
  std::int64_t period_ms;  // P: registerNameServerPeriod, clamped as the broker does
  std::int64_t expiry_ms;  // T: brokerChannelExpiredTime (or the acting-master timeout)
  std::int64_t scan_ms;    // S: scan period
  std::int64_t idle_ms;    // I: serverChannelMaxIdleTimeSeconds
  std::int64_t poll_ms;    // Q: pollNameServerInterval
  std::int64_t send_timeout_ms;
};

Settings settings_of(const Scenario& scenario, const BrokerGroupSpec* group) {
  Settings s{};
  const BrokerConfig broker = group ? group->config : BrokerConfig{};
  s.period_ms = std::max<std::int64_t>(
      10000, std::min<std::int64_t>(broker.register_name_server_period, 60000));
  s.expiry_ms = 120000;
  if (scenario.profile == core::Profile::kV5 && broker.enable_slave_acting_master) {
    s.expiry_ms = broker.broker_not_active_timeout_millis;
    s.period_ms = broker.broker_heartbeat_interval;
  }
  s.scan_ms = scenario.profile == core::Profile::kV4_9
                  ? 10000
                  : scenario.nameservers.config.scan_not_active_broker_interval;
  s.idle_ms = scenario.nameservers.server_channel_max_idle_time_seconds * 1000;
  s.poll_ms =
      scenario.producers.empty() ? 30000 : scenario.producers[0].config.poll_name_server_interval;
  s.send_timeout_ms =
      scenario.producers.empty() ? 3000 : scenario.producers[0].config.send_msg_timeout;
  return s;
}

// Spec section 11: the window in which a NameServer drops the broker and producers stop using
// it, by how the broker failed. Silent failures are anchored at the last registration L, with
// c - P < L <= c; removal comes from the idle close at L + I or the first scan tick past L + T.
nlohmann::json rule_windows_json(FaultKind kind, const Settings& s) {
  const bool silent =
      kind == FaultKind::kPoweroff || kind == FaultKind::kPartition || kind == FaultKind::kPause;
  if (kind == FaultKind::kLatency) return nullptr;
  nlohmann::json removal;
  if (silent) {
    // An idle time of 0 disables the idle close (Netty's IdleStateHandler), leaving the scan.
    const std::int64_t detect = s.idle_ms > 0 ? std::min(s.idle_ms, s.expiry_ms) : s.expiry_ms;
    removal = {{"min_ms", detect - s.period_ms}, {"max_ms", s.expiry_ms + s.scan_ms}};
  } else {
    removal = {{"min_ms", 0}, {"max_ms", kind == FaultKind::kShutdown ? 3000 : 1000}};
  }
  const nlohmann::json stale = {{"min_ms", removal["min_ms"]},
                                {"max_ms", removal["max_ms"].get<std::int64_t>() + s.poll_ms}};
  return {{"nameserver_removal_ms", removal}, {"producer_stale_route_ms", stale}};
}

// The rules' windows as a prediction of this fault: a fault of `fault_ms` that ends by the
// earliest removal cannot fire either rule (the broker answers again before any NameServer may
// drop it), so it gets no window, only why (reports/README.md, outages[].predicted).
nlohmann::json predicted_json(const nlohmann::json& windows, std::int64_t fault_ms) {
  if (!windows.is_object()) return windows;
  const std::int64_t earliest_ms = windows["nameserver_removal_ms"]["min_ms"].get<std::int64_t>();
  if (fault_ms > earliest_ms) return windows;
  return {{"nameserver_removal_ms", nullptr},
          {"producer_stale_route_ms", nullptr},
          {"not_predicted", "fault_ends_before_earliest_removal"},
          {"earliest_removal_ms", earliest_ms}};
}

struct OutageSubject {
  std::vector<std::string> nodes;       // broker node names
  std::set<std::string> addrs;          // their broker addresses
  std::set<std::string> master_groups;  // groups whose master is a subject
};

OutageSubject subject_of(const FaultSpec& fault, const Scenario& scenario,
                         const Topology& topology) {
  std::vector<std::string> names = fault.nodes;
  names.insert(names.end(), fault.side_a.begin(), fault.side_a.end());
  names.insert(names.end(), fault.side_b.begin(), fault.side_b.end());
  OutageSubject subject;
  for (const auto& name : names) {
    auto id = topology.by_name.find(name);
    if (id == topology.by_name.end()) continue;
    const TopologyNode& node = topology.nodes[static_cast<std::size_t>(id->second)];
    if (node.role != NodeRole::kBroker) continue;
    subject.nodes.push_back(name);
    subject.addrs.insert(node.broker_addr);
    if (node.broker_id == 0) subject.master_groups.insert(scenario.broker_groups[node.group].name);
  }
  return subject;
}

// The longest stretch in [start, end) in which the running NameServer could not exchange with
// broker `b` (its process not running, or a path between them cut). A stretch ends while the
// NameServer itself is not running: it cannot drop anything then, and restarts with empty tables.
std::int64_t longest_unusable_ms(const NetworkHistory& network, NodeId ns, NodeId b,
                                 std::int64_t start, std::int64_t end) {
  auto usable = [&](std::int64_t t) {
    return network.state_at(ns, t).process != ProcessState::kUp ||
           (network.state_at(b, t).process == ProcessState::kUp && network.reachable(ns, b, t));
  };
  std::vector<std::int64_t> instants = {start};
  for (std::int64_t t : network.change_times_between(ns, b)) {
    if (t > start && t < end) instants.push_back(t);
  }
  instants.push_back(end);
  std::int64_t longest = 0;
  std::optional<std::int64_t> since;
  for (std::size_t k = 0; k + 1 < instants.size(); ++k) {
    if (!usable(instants[k])) {
      if (!since) since = instants[k];
      longest = std::max(longest, instants[k + 1] - *since);
    } else {
      since.reset();
    }
  }
  return longest;
}

// Whether the NameServer's process was not running at some instant in [start, end).
bool nameserver_down_during(const NetworkHistory& network, NodeId ns, std::int64_t start,
                            std::int64_t end) {
  if (network.state_at(ns, start).process != ProcessState::kUp) return true;
  for (std::int64_t t : network.change_times_between(ns, ns)) {
    if (t > start && t < end && network.state_at(ns, t).process != ProcessState::kUp) return true;
  }
  return false;
}

// When each NameServer dropped each subject address from its routes, and by which path; and for
// those that kept it, whether keeping it was right: a NameServer that could reach the broker all
// along, or could not for less than RocketMQ's longest detection (`removal_max_ms`), did right.
nlohmann::json nameserver_drops(const OutageSubject& subject, const Scenario& scenario,
                                const Topology& topology, const NetworkHistory& network,
                                const std::vector<Event>& events, std::int64_t start,
                                std::int64_t end, std::optional<std::int64_t> removal_max_ms,
                                std::vector<std::int64_t>& delays) {
  nlohmann::json entries = nlohmann::json::array();
  for (int i = 0; i < scenario.nameservers.count; ++i) {
    const std::string ns = nameserver_name(i);
    for (const auto& addr : subject.addrs) {
      nlohmann::json entry = {{"nameserver", ns}, {"broker_addr", addr}};
      for (const auto& event : events) {
        if (event.t_ms < start || event.t_ms >= end || event.node != ns ||
            event.kind != EventKind::kBrokerRemoved)
          continue;
        if (event.fields.value("broker_addr", "") != addr ||
            !event.fields.value("removed_from_routes", false))
          continue;
        entry["dropped_at_ms"] = event.t_ms;
        entry["delay_ms"] = event.t_ms - start;
        entry["path"] = event.fields["path"];
        delays.push_back(event.t_ms - start);
        break;
      }
      if (entry.contains("dropped_at_ms")) {
        entry["outcome"] = "dropped";
      } else {
        entry["dropped_at_ms"] = nullptr;
        const std::int64_t unusable = longest_unusable_ms(
            network, topology.by_name.at(ns), topology.broker_addresses.at(addr), start, end);
        entry["unreachable_ms"] = unusable;
        if (nameserver_down_during(network, topology.by_name.at(ns), start, end)) {
          entry["outcome"] = "nameserver_down";
        } else if (unusable == 0) {
          entry["outcome"] = "kept_reachable";
        } else if (!removal_max_ms || unusable <= *removal_max_ms) {
          entry["outcome"] = "kept_within_rules";
        } else {
          entry["outcome"] = "missed";
        }
      }
      entries.push_back(std::move(entry));
    }
  }
  return entries;
}

// Whether group and producer share a NameServer (their namesrvAddr lists; empty is all), so that
// the group's routes can reach that producer at all.
bool shares_a_nameserver(const BrokerGroupSpec& group, const ProducerSpec* producer) {
  if (producer == nullptr || group.nameservers.empty() || producer->nameservers.empty()) {
    return true;
  }
  for (const int index : group.nameservers) {
    if (std::find(producer->nameservers.begin(), producer->nameservers.end(), index) !=
        producer->nameservers.end()) {
      return true;
    }
  }
  return false;
}

// Whether every group serving `topic` that the producer's NameServers know of is a subject of
// the outage: then its NameServers answer TOPIC_NOT_EXIST and the client keeps the old route.
bool topic_only_on(const Scenario& scenario, const std::string& topic,
                   const std::set<std::string>& groups, const ProducerSpec* producer) {
  for (const auto& spec : scenario.topics) {
    if (spec.name != topic) continue;
    for (const auto& g : scenario.broker_groups) {
      const bool serves = spec.groups.empty() || std::find(spec.groups.begin(), spec.groups.end(),
                                                           g.name) != spec.groups.end();
      if (serves && shares_a_nameserver(g, producer) && groups.count(g.name) == 0) return false;
    }
    return true;
  }
  return false;
}

bool any_drop_before(const std::vector<Event>& events, const OutageSubject& subject,
                     std::int64_t start, std::int64_t end) {
  for (const auto& event : events) {
    if (event.t_ms >= start && event.t_ms < end && event.kind == EventKind::kBrokerRemoved &&
        event.fields.value("removed_from_routes", false) &&
        subject.addrs.count(event.fields.value("broker_addr", "")) != 0) {
      return true;
    }
  }
  return false;
}

// The producer set a producer node belongs to, by name.
std::optional<std::size_t> producer_spec_of(const Scenario& scenario, const std::string& producer) {
  for (const auto& node : producer_nodes(scenario)) {
    if (node.name == producer) return node.spec_index;
  }
  return std::nullopt;
}

// Whether one of the topics the producer's instance sends to that `group` serves lives only on
// subject groups.
bool some_topic_only_on(const Scenario& scenario, std::optional<std::size_t> spec_index,
                        const std::string& group, const std::set<std::string>& groups) {
  if (!spec_index) return false;
  const ProducerSpec* producer = &scenario.producers[*spec_index];
  const std::vector<std::string> topics = instance_topics(scenario, *spec_index);
  for (const auto& topic : scenario.topics) {
    const bool sent = std::find(topics.begin(), topics.end(), topic.name) != topics.end();
    const bool served = topic.groups.empty() || std::find(topic.groups.begin(), topic.groups.end(),
                                                          group) != topic.groups.end();
    if (sent && served && topic_only_on(scenario, topic.name, groups, producer)) return true;
  }
  return false;
}

// How long each producer kept a stale route to a subject group after the fault: from the fault's
// start until a route update without the group reached its publish info. Only producers with a
// stale window (route_health.h) that began in the outage count; one whose window ended otherwise
// (the broker became usable again, the run ended) has no value, and a reason.
nlohmann::json producers_json(const OutageSubject& subject, const Scenario& scenario,
                              const RouteHealth& health, const std::vector<Event>& events,
                              std::int64_t start, std::int64_t end,
                              const std::optional<std::int64_t>& back) {
  std::map<std::string, std::vector<const RouteWindow*>> windows;  // by producer, name order
  for (const auto& window : health.routes) {
    if (window.kind == RouteWindowKind::kStale && window.start_ms >= start &&
        window.start_ms <= end &&
        std::find(subject.nodes.begin(), subject.nodes.end(), window.broker_node) !=
            subject.nodes.end()) {
      windows[window.holder].push_back(&window);
    }
  }
  std::vector<std::int64_t> delays;
  std::map<std::string, std::int64_t> never_reasons;
  nlohmann::json per_producer = nlohmann::json::array();
  for (const auto& [producer, stale] : windows) {
    std::optional<std::int64_t> worst;
    std::string reason;
    for (const RouteWindow* window : stale) {
      if (window->end_cause == WindowCause::kDroppedFromRoute) {
        if (reason.empty()) worst = std::max(worst.value_or(0), *window->end_ms - start);
      } else if (!any_drop_before(events, subject, start, end)) {
        reason =
            back ? "broker_returned_before_nameservers_dropped_it" : "nameservers_kept_the_route";
      } else if (some_topic_only_on(scenario, producer_spec_of(scenario, producer), window->broker,
                                    subject.master_groups)) {
        reason = "topic_not_exist_keeps_stale_route";
      } else {
        reason = "route_not_refreshed_before_outage_end";
      }
    }
    nlohmann::json entry = {{"name", producer}};
    if (reason.empty()) {
      delays.push_back(*worst);
      entry["stale_route_ms"] = *worst;
    } else {
      ++never_reasons[reason];
      entry["stale_route_ms"] = nullptr;
      entry["reason"] = reason;
    }
    per_producer.push_back(std::move(entry));
  }
  const std::size_t never = per_producer.size() - delays.size();
  return {{"affected", per_producer.size()},
          {"stale_route_ms", distribution_json(delays, never)},
          {"never_reasons", never_reasons},
          {"per_producer", per_producer}};
}

// After the fault ends: when each NameServer lists the broker again (route_replay.h: a NameServer
// that is down lists nothing, a restarted one only what registered since) and each producer that
// had dropped its group publishes to it again.
nlohmann::json recovery_json(const OutageSubject& subject, const Scenario& scenario,
                             const RouteReplay& replay, const SendStats& sends, std::int64_t start,
                             const std::optional<std::int64_t>& back) {
  if (!back) return nullptr;
  nlohmann::json entries = nlohmann::json::array();
  std::vector<std::int64_t> ns_delays;
  for (int i = 0; i < scenario.nameservers.count; ++i) {
    const std::string ns = nameserver_name(i);
    const NameServerReplay& routes = replay.nameserver(ns);
    for (const std::string& addr : subject.addrs) {
      // Listed at the end, else from the first listing after it.
      std::optional<std::int64_t> at;
      for (const ReplayInterval& interval : routes.listed(addr)) {
        if (interval.contains(*back)) at = *back;
        if (interval.start_ms > *back) at = interval.start_ms;
        if (at) break;
      }
      nlohmann::json entry = {{"nameserver", ns}, {"broker_addr", addr}};
      entry["back_at_ms"] = at ? nlohmann::json(*at) : nlohmann::json();
      if (at) ns_delays.push_back(*at - *back);
      entries.push_back(std::move(entry));
    }
  }
  // Per producer that published to a subject group before the fault and had dropped it by the
  // fault's end: when it publishes to every such group again (the slowest of them).
  std::vector<std::int64_t> producer_delays;
  std::size_t producer_never = 0;
  for (const auto& [producer, topics] : sends.publish_changes()) {
    std::optional<std::int64_t> slowest;
    bool dropped_any = false;
    bool never = false;
    for (const auto& [topic, changes] : topics) {
      for (const auto& group : subject.master_groups) {
        if (!publish_info_holds(changes, start, group) || publish_info_holds(changes, *back, group))
          continue;
        dropped_any = true;
        const auto regained = std::find_if(changes.begin(), changes.end(), [&](const auto& c) {
          return c.t_ms > *back && c.brokers.count(group) != 0;
        });
        if (regained == changes.end()) {
          never = true;
        } else {
          slowest = std::max(slowest.value_or(0), regained->t_ms - *back);
        }
      }
    }
    if (!dropped_any) continue;
    if (never) {
      ++producer_never;
    } else {
      producer_delays.push_back(*slowest);
    }
  }
  return {{"nameservers", entries},
          {"nameserver_ms", distribution_json(ns_delays, entries.size() - ns_delays.size())},
          {"producer_ms", distribution_json(producer_delays, producer_never)}};
}

}  // namespace

nlohmann::json settings_json(const Scenario& scenario) {
  const Settings s =
      settings_of(scenario, scenario.broker_groups.empty() ? nullptr : &scenario.broker_groups[0]);
  return {{"registerNameServerPeriod", s.period_ms},
          {"brokerChannelExpiredTime", s.expiry_ms},
          {"scanNotActiveBrokerInterval", s.scan_ms},
          {"serverChannelMaxIdleTimeSeconds", s.idle_ms / 1000},
          {"pollNameServerInterval", s.poll_ms},
          {"sendMsgTimeout", s.send_timeout_ms}};
}

nlohmann::json outages_json(const Scenario& scenario, const Topology& topology,
                            const std::vector<Event>& events, const RouteReplay& replay,
                            const SendStats& sends, const NetworkHistory& network,
                            const RouteHealth& health) {
  nlohmann::json outages = nlohmann::json::array();
  for (std::size_t i = 0; i < scenario.faults.size(); ++i) {
    const FaultSpec& fault = scenario.faults[i];
    const OutageSubject subject = subject_of(fault, scenario, topology);
    if (subject.nodes.empty()) continue;
    const std::int64_t start = fault.at_ms;
    const std::optional<std::int64_t> back =
        fault.duration_ms && fault.at_ms + *fault.duration_ms < scenario.duration_ms
            ? std::optional<std::int64_t>(fault.at_ms + *fault.duration_ms)
            : std::nullopt;
    const std::int64_t end = back.value_or(scenario.duration_ms);
    const BrokerGroupSpec* group = nullptr;
    for (const auto& g : scenario.broker_groups) {
      if (subject.master_groups.count(g.name) != 0) group = &g;
    }

    nlohmann::json outage = {{"fault", fault.file_index},
                             {"kind", fault_kind_name(fault.kind)},
                             {"brokers", subject.nodes},
                             {"start_ms", start},
                             {"end_ms", back ? nlohmann::json(*back) : nlohmann::json()}};
    const nlohmann::json windows =
        subject.master_groups.empty() ? nlohmann::json()
                                      : rule_windows_json(fault.kind, settings_of(scenario, group));
    std::optional<std::int64_t> removal_max;
    if (windows.is_object()) {
      removal_max = windows["nameserver_removal_ms"]["max_ms"].get<std::int64_t>();
    }
    std::vector<std::int64_t> drop_delays;
    outage["nameservers"] = nameserver_drops(subject, scenario, topology, network, events, start,
                                             end, removal_max, drop_delays);
    const std::size_t drop_entries = outage["nameservers"].size();
    outage["nameserver_drop_ms"] =
        distribution_json(drop_delays, drop_entries - drop_delays.size());
    outage["nameservers_missed"] =
        std::count_if(outage["nameservers"].begin(), outage["nameservers"].end(),
                      [](const nlohmann::json& entry) { return entry["outcome"] == "missed"; });
    outage["producers"] = producers_json(subject, scenario, health, events, start, end, back);
    // The route windows the outage opened: those of its brokers that began in [start, end].
    outage["route_health"] = route_health_stats_json(health, [&](const RouteWindow& window) {
      return window.start_ms >= start && window.start_ms <= end &&
             std::find(subject.nodes.begin(), subject.nodes.end(), window.broker_node) !=
                 subject.nodes.end();
    });
    outage["sends"] = send_counts_json(sends.window_counts(i));
    const LatencyHistogram& latencies = sends.window_latencies(i);
    outage["sends"]["latency_ms"] = {{"p50", latencies.percentile(50)},
                                     {"p99", latencies.percentile(99)},
                                     {"max", latencies.max()}};
    outage["recovery"] = recovery_json(subject, scenario, replay, sends, start, back);
    outage["predicted"] = predicted_json(windows, end - start);
    outages.push_back(std::move(outage));
  }
  return outages;
}

}  // namespace nssim::sim

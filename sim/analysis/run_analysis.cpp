// File: analyze_run's whole-run parts (see run_analysis.h): scenario echo, nodes, faults, send
// totals and series, NameServer disagreement intervals. Outages are in outage_analysis.cpp.
#include "sim/analysis/run_analysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "sim/analysis/admin_analysis.h"
#include "sim/analysis/broker_clients_analysis.h"
#include "sim/analysis/client_scheduler_analysis.h"
#include "sim/analysis/consumer_analysis.h"
#include "sim/analysis/distribution.h"
#include "sim/analysis/load_analysis.h"
#include "sim/analysis/outage_analysis.h"
#include "sim/analysis/restart_analysis.h"
#include "sim/analysis/route_health.h"
#include "sim/analysis/route_replay.h"
#include "sim/analysis/timeline_analysis.h"
#include "sim/scenario/repeat_command.h"

namespace nssim::sim {

nlohmann::json failed_json(const std::array<std::int64_t, kSendCauseCount>& by_cause,
                           std::int64_t total) {
  nlohmann::json failed = {{"total", total}};
  for (std::size_t c = 1; c < kSendCauseCount; ++c) {
    failed[send_cause_name(static_cast<SendCause>(c))] = by_cause[c];
  }
  return failed;
}

nlohmann::json send_counts_json(const SendCounts& counts) {
  return {{"total", counts.sends},
          {"ok", counts.by_cause[static_cast<std::size_t>(SendCause::kOk)]},
          {"failed", failed_json(counts.by_cause, counts.failed())},
          {"attempts", counts.attempts},
          {"retries_succeeded", counts.retries_succeeded},
          {"duplicates_stored", counts.duplicates_stored},
          {"failed_but_stored", counts.failed_but_stored}};
}

namespace {

nlohmann::json scenario_json(const Scenario& scenario) {
  return {{"name", scenario.name},
          {"file", scenario.file},
          {"description", scenario.description},
          {"profile", core::profile_name(scenario.profile)},
          {"seed", scenario.seed},
          {"duration_ms", scenario.duration_ms},
          {"set", scenario.set},
          {"command", run_command_line(scenario.file, core::profile_name(scenario.profile),
                                       scenario.set, scenario.seed)}};
}

nlohmann::json nodes_json(const Topology& topology) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& node : topology.nodes) {
    nlohmann::json entry = {
        {"name", node.name}, {"role", node_role_name(node.role)}, {"start_ms", node.start_ms}};
    const bool client = node.role == NodeRole::kProducer || node.role == NodeRole::kConsumer;
    if (!node.broker_addr.empty() && !client) entry["addr"] = node.broker_addr;
    nodes.push_back(std::move(entry));
  }
  return nodes;
}

// In the file's order: faults[j] here is the file's faults[j] (the loader keeps them in time
// order).
nlohmann::json faults_json(const Scenario& scenario) {
  std::vector<const FaultSpec*> in_file;
  for (const auto& fault : scenario.faults) in_file.push_back(&fault);
  std::stable_sort(in_file.begin(), in_file.end(), [](const FaultSpec* a, const FaultSpec* b) {
    return a->file_index < b->file_index;
  });
  nlohmann::json faults = nlohmann::json::array();
  for (const FaultSpec* in_order : in_file) {
    const FaultSpec& fault = *in_order;
    nlohmann::json entry = {
        {"index", fault.file_index}, {"kind", fault_kind_name(fault.kind)}, {"at_ms", fault.at_ms}};
    entry["duration_ms"] =
        fault.duration_ms ? nlohmann::json(*fault.duration_ms) : nlohmann::json();
    if (!fault.nodes.empty()) entry["nodes"] = fault.nodes;
    if (!fault.side_a.empty()) entry["from"] = fault.side_a;
    if (!fault.side_b.empty()) entry["to"] = fault.side_b;
    if (fault.kind == FaultKind::kPartition) entry["one_way"] = fault.one_way;
    if (fault.kind == FaultKind::kLatency) entry["latency_ms"] = fault.latency_ms;
    if (!fault.broker_name.empty()) entry["broker_name"] = fault.broker_name;
    if (fault.kind == FaultKind::kUpdateTopic) {
      entry["topic"] = fault.topic;
      entry["readQueueNums"] = fault.read_queue_nums;
      entry["writeQueueNums"] = fault.write_queue_nums;
      entry["perm"] = fault.perm;
    }
    faults.push_back(std::move(entry));
  }
  return faults;
}

// Attempts per broker group, in the scenario's group order: where the load went, and where it
// failed (the latency fault strategy's skew shows here, not in the totals).
nlohmann::json sends_by_broker_json(const Scenario& scenario, const SendStats& sends) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& group : scenario.broker_groups) {
    const auto found = sends.by_broker().find(group.name);
    const BrokerAttempts none;
    const BrokerAttempts& counts = found == sends.by_broker().end() ? none : found->second;
    list.push_back({{"broker_name", group.name},
                    {"attempts", counts.attempts},
                    {"ok", counts.by_cause[static_cast<std::size_t>(SendCause::kOk)]},
                    {"failed", failed_json(counts.by_cause, counts.failed())}});
  }
  return list;
}

// The sends of each producer set (its name_prefix is its producer group), in the file's order.
nlohmann::json sends_by_group_json(const Scenario& scenario, const SendStats& sends) {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& spec : scenario.producers) {
    const auto found = sends.by_group().find(spec.name_prefix);
    const SendCounts counts = found == sends.by_group().end() ? SendCounts{} : found->second;
    nlohmann::json entry = send_counts_json(counts);
    entry["producer_group"] = spec.name_prefix;
    list.push_back(std::move(entry));
  }
  return list;
}

// Attempts that succeeded in `second`, per broker group with any.
nlohmann::json ok_by_broker_json(const SendStats& sends, std::size_t second) {
  nlohmann::json ok = nlohmann::json::object();
  for (const auto& [name, counts] : sends.by_broker()) {
    if (second < counts.ok_per_second.size() && counts.ok_per_second[second] != 0) {
      ok[name] = counts.ok_per_second[second];
    }
  }
  return ok;
}

// One entry per second of the run, seconds without sends included, so charts and CSV rows line
// up with the time axis.
nlohmann::json timeseries_json(const SendStats& sends, const std::vector<std::int64_t>& stale,
                               const std::vector<std::int64_t>& lost) {
  nlohmann::json series = nlohmann::json::array();
  const SendCounts none;
  for (std::size_t second = 0; second < stale.size(); ++second) {
    auto found = sends.per_second().find(static_cast<std::int64_t>(second));
    const SendCounts& counts = found == sends.per_second().end() ? none : found->second;
    nlohmann::json failed = nlohmann::json::object();
    for (std::size_t c = 1; c < kSendCauseCount; ++c) {
      if (counts.by_cause[c] != 0)
        failed[send_cause_name(static_cast<SendCause>(c))] = counts.by_cause[c];
    }
    series.push_back({{"t_s", second},
                      {"ok", counts.by_cause[static_cast<std::size_t>(SendCause::kOk)]},
                      {"failed", failed},
                      {"ok_by_broker", ok_by_broker_json(sends, second)},
                      {"stale_producers", stale[second]},
                      {"lost_producers", lost[second]}});
  }
  return series;
}

// Intervals in which the NameServers that answer (route_replay.h: up, not paused) do not all hold
// the same route view; one that restarted counts with its (empty) tables. Views are compared once
// all events of a millisecond are in, so registrations that reach the NameServers in the same
// millisecond do not make zero-length disagreements.
nlohmann::json disagreements_json(const Scenario& scenario, const RouteReplay& replay) {
  std::vector<const NameServerReplay*> nameservers;
  std::vector<std::int64_t> instants;
  for (const std::string& name : replay.names()) {
    const NameServerReplay& ns = replay.nameserver(name);
    nameservers.push_back(&ns);
    for (const auto& [t_ms, fingerprint] : ns.views()) instants.push_back(t_ms);
    for (const ReplayInterval& interval : ns.answering()) {
      instants.push_back(interval.start_ms);
      if (interval.end_ms) instants.push_back(*interval.end_ms);
    }
  }
  std::sort(instants.begin(), instants.end());
  instants.erase(std::unique(instants.begin(), instants.end()), instants.end());
  std::vector<std::size_t> next_view(nameservers.size(), 0);  // per NameServer: its next views()
  nlohmann::json intervals = nlohmann::json::array();
  bool disagreeing = false;
  std::int64_t since = 0;
  std::int64_t total = 0;
  for (const std::int64_t t_ms : instants) {
    std::set<std::uint64_t> distinct;
    for (std::size_t n = 0; n < nameservers.size(); ++n) {
      const auto& views = nameservers[n]->views();
      while (next_view[n] < views.size() && views[next_view[n]].first <= t_ms) ++next_view[n];
      if (nameservers[n]->answers(t_ms) && next_view[n] > 0)
        distinct.insert(views[next_view[n] - 1].second);
    }
    const bool now_disagree = distinct.size() > 1;
    if (now_disagree && !disagreeing) since = t_ms;
    if (!now_disagree && disagreeing) {
      intervals.push_back({{"start_ms", since}, {"end_ms", t_ms}, {"duration_ms", t_ms - since}});
      total += t_ms - since;
    }
    disagreeing = now_disagree;
  }
  if (disagreeing) {
    intervals.push_back(
        {{"start_ms", since}, {"end_ms", nullptr}, {"duration_ms", scenario.duration_ms - since}});
    total += scenario.duration_ms - since;
  }
  return {{"intervals", intervals}, {"total_ms", total}, {"count", intervals.size()}};
}

// Beside each NameServer's in_routes intervals of a broker, the stretches in which it was missing
// the broker (route_health.h), so the timeline can show them.
void add_missing_intervals(nlohmann::json& timelines, const RouteHealth& health) {
  for (auto& broker : timelines["brokers"]) {
    for (auto& row : broker["in_routes"]) {
      nlohmann::json missing = nlohmann::json::array();
      for (const auto& window : health.missing) {
        if (window.holder != row["nameserver"] || window.broker_node != broker["node"]) continue;
        missing.push_back(
            {{"start_ms", window.start_ms},
             {"end_ms", window.end_ms ? nlohmann::json(*window.end_ms) : nlohmann::json()},
             {"cause", window_cause_name(window.cause)}});
      }
      row["missing"] = std::move(missing);
    }
  }
}

}  // namespace

nlohmann::json analyze_run(const Scenario& scenario, const WorldRecord& record) {
  const Topology& topology = record.topology;
  const std::vector<Event>& events = record.log.events();
  const SendStats& sends = *record.sends;
  const NetworkHistory& network = *record.network;
  const RouteReplay replay(scenario, events);
  const RouteHealth health = route_health(scenario, topology, events, replay, sends, network);
  nlohmann::json result;
  result["schema"] = kResultSchema;
  result["scenario"] = scenario_json(scenario);
  result["settings"] = settings_json(scenario);
  result["nodes"] = nodes_json(topology);
  result["faults"] = faults_json(scenario);
  result["outages"] = outages_json(scenario, topology, events, replay, sends, network, health);
  result["admin"] = admin_json(scenario, sends);
  result["sends"] = send_counts_json(sends.totals());
  result["sends_by_broker"] = sends_by_broker_json(scenario, sends);
  result["sends_by_producer_group"] = sends_by_group_json(scenario, sends);
  result["nameserver_disagreement"] = disagreements_json(scenario, replay);
  result["route_health"] = route_health_json(health);
  if (auto restarts = nameserver_restarts_json(replay, sends)) {
    result["nameserver_restarts"] = std::move(*restarts);
  }
  if (auto scheduler = client_scheduler_json(scenario, topology, replay, sends)) {
    result["client_scheduler"] = std::move(*scheduler);
  }
  if (auto brokers = broker_clients_json(topology, events, network, sends, scenario.duration_ms)) {
    result["broker_clients"] = std::move(*brokers);
  }
  if (record.consumers) {
    result["consumers"] =
        consumers_json(scenario, *record.consumers, *record.stored, record.end_ms);
  }
  result["nameserver_load"] =
      nameserver_load_json(topology, record.nameserver_requests, scenario.duration_ms);
  result["broker_load"] =
      broker_load_json(topology, record.nameserver_requests, sends, scenario.duration_ms);
  result["timeseries"] =
      timeseries_json(sends, producers_per_second(health, RouteWindowKind::kStale),
                      producers_per_second(health, RouteWindowKind::kLost));
  result["timelines"] = timelines_json(scenario, topology, events, replay);
  add_missing_intervals(result["timelines"], health);
  return result;
}

}  // namespace nssim::sim

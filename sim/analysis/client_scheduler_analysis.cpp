// File: client_scheduler_json (see client_scheduler_analysis.h).
#include "sim/analysis/client_scheduler_analysis.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/nearest_rank.h"
#include "sim/analysis/distribution.h"
#include "sim/analysis/outage_analysis.h"

namespace nssim::sim {

namespace client_scheduler_parts {  // named: a unity batch shares file scope

using nlohmann::json;

// [start, end); kOpen: still so when the run ended.
struct Span {
  std::int64_t start = 0;
  std::int64_t end = 0;
};
constexpr std::int64_t kOpen = std::numeric_limits<std::int64_t>::max();

// The union of `spans`, in time order: overlapping or touching spans become one, empty ones go.
std::vector<Span> merged(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.start < b.start; });
  std::vector<Span> out;
  for (const Span& span : spans) {
    if (span.end <= span.start) continue;
    if (!out.empty() && span.start <= out.back().end) {
      out.back().end = std::max(out.back().end, span.end);
    } else {
      out.push_back(span);
    }
  }
  return out;
}

// One client's scheduler over the run.
struct ClientFigures {
  std::string name;
  std::vector<std::int64_t> delays;       // start - due of each route poll, sorted
  std::vector<std::int64_t> poll_starts;  // of each route poll, in time order
  std::int64_t first_due_ms = kOpen;
  std::int64_t behind_ms = 0;
  std::int64_t heartbeat_runs = 0;
  std::int64_t heartbeat_attempts = 0;
  std::int64_t heartbeat_failures = 0;
};

ClientFigures figures_of(const std::string& name, const ClientSchedule& schedule) {
  ClientFigures client;
  client.name = name;
  // A due run waits from its due instant until the thread takes it; waits of runs that bunched
  // up overlap, and the thread was behind once for the time they share.
  std::vector<Span> waits;
  for (const ScheduledRun& run : schedule.runs) {
    client.first_due_ms = std::min(client.first_due_ms, run.due_ms);
    waits.push_back({run.due_ms, run.start_ms});
    if (run.task == ScheduledTask::kRoutePoll) {
      client.delays.push_back(run.start_ms - run.due_ms);
      client.poll_starts.push_back(run.start_ms);
    } else {
      ++client.heartbeat_runs;
    }
  }
  for (const Span& wait : merged(std::move(waits))) client.behind_ms += wait.end - wait.start;
  std::sort(client.delays.begin(), client.delays.end());
  std::sort(client.poll_starts.begin(), client.poll_starts.end());
  for (const auto& [addr, counts] : schedule.heartbeats) {
    client.heartbeat_attempts += counts.attempts;
    client.heartbeat_failures += counts.failed();
  }
  return client;
}

// The p-th nearest-rank percentile of sorted values; null when there are none.
json percentile_or_null(const std::vector<std::int64_t>& sorted, int p) {
  return sorted.empty() ? json() : json(at_nearest_rank(sorted, p));
}

json client_json(const ClientFigures& client) {
  return {{"name", client.name},
          {"route_polls", client.delays.size()},
          {"route_poll_delay_max_ms", client.delays.empty() ? json() : json(client.delays.back())},
          {"route_poll_delay_p99_ms", percentile_or_null(client.delays, 99)},
          {"behind_ms", client.behind_ms},
          {"heartbeat_runs", client.heartbeat_runs},
          {"heartbeat_attempts", client.heartbeat_attempts},
          {"heartbeat_failures", client.heartbeat_failures}};
}

// Worst first: the latest route poll, then the longest behind, then by name.
json per_client_json(std::vector<const ClientFigures*> clients) {
  auto worst = [](const ClientFigures* c) {
    return c->delays.empty() ? std::int64_t{-1} : c->delays.back();
  };
  std::sort(clients.begin(), clients.end(), [&](const ClientFigures* a, const ClientFigures* b) {
    if (worst(a) != worst(b)) return worst(a) > worst(b);
    if (a->behind_ms != b->behind_ms) return a->behind_ms > b->behind_ms;
    return a->name < b->name;
  });
  json list = json::array();
  for (const ClientFigures* client : clients) {
    if (list.size() == kListedClients) break;
    list.push_back(client_json(*client));
  }
  return list;
}

// Heartbeats per broker address, summed over the clients, in address order.
json heartbeats_by_broker_json(const SendStats& sends) {
  std::map<std::string, HeartbeatCounts> by_addr;
  for (const auto& [client, schedule] : sends.schedules()) {
    for (const auto& [addr, counts] : schedule.heartbeats) {
      HeartbeatCounts& sum = by_addr[addr];
      sum.broker_name = counts.broker_name;
      sum.broker_id = counts.broker_id;
      sum.attempts += counts.attempts;
      for (std::size_t c = 0; c < kSendCauseCount; ++c) sum.by_cause[c] += counts.by_cause[c];
    }
  }
  json list = json::array();
  for (const auto& [addr, counts] : by_addr) {
    list.push_back({{"broker_addr", addr},
                    {"broker_name", counts.broker_name},
                    {"broker_id", counts.broker_id},
                    {"attempts", counts.attempts},
                    {"ok", counts.by_cause[static_cast<std::size_t>(SendCause::kOk)]},
                    {"failed", failed_json(counts.by_cause, counts.failed())}});
  }
  return list;
}

// When any of `nameservers` listed `addr` (route_replay.h: a stopped NameServer lists nothing).
std::vector<Span> listing_of(const RouteReplay& replay, const std::vector<std::string>& nameservers,
                             const std::string& addr) {
  std::vector<Span> spans;
  for (const std::string& ns : nameservers) {
    for (const ReplayInterval& interval : replay.nameserver(ns).listed(addr)) {
      spans.push_back({interval.start_ms, interval.end_ms.value_or(kOpen)});
    }
  }
  return merged(std::move(spans));
}

bool any_answers(const RouteReplay& replay, const std::vector<std::string>& nameservers,
                 std::int64_t t_ms) {
  return std::any_of(nameservers.begin(), nameservers.end(),
                     [&](const std::string& ns) { return replay.nameserver(ns).answers(t_ms); });
}

// The NameServers a client can ask: its producer set's namesrvAddr (all when it names none, or
// when the client is not one of the topology's producers).
std::vector<std::string> nameservers_of(const Scenario& scenario, const Topology& topology,
                                        const RouteReplay& replay, const std::string& client) {
  const auto found = topology.by_name.find(client);
  if (found == topology.by_name.end()) return replay.names();
  const TopologyNode& node = topology.nodes[static_cast<std::size_t>(found->second)];
  if (node.role != NodeRole::kProducer) return replay.names();
  std::vector<std::string> names;
  for (const NodeId ns :
       topology.nameservers_of(scenario.producers[node.producer_spec].nameservers))
    names.push_back(topology.nodes[static_cast<std::size_t>(ns)].name);
  return names;
}

// A client as the removals see it: its scheduler's figures and the NameServers it can ask.
struct ClientView {
  const ClientFigures* figures = nullptr;
  std::vector<std::string> nameservers;
};

// Per broker group's master (broker id 0): each instant R at which the last NameServer stopped
// listing it while one still answered. For each client that can ask a NameServer that listed it
// just before, R_c is when the last of the client's NameServers stopped (<= R) and F the start of
// its first route poll at or after R_c (spec 3.3: F = start of the first Rt run with s_k >= R);
// a client whose scheduler had nothing due yet at R_c is not counted, one with no such poll
// before the run ended counts as never.
json removals_json(const Scenario& scenario, const Topology& topology, const RouteReplay& replay,
                   const std::vector<ClientView>& clients, std::vector<std::int64_t>& all_delays,
                   std::size_t& all_never) {
  json list = json::array();
  for (const NodeId id : topology.brokers) {
    const TopologyNode& broker = topology.nodes[static_cast<std::size_t>(id)];
    if (broker.broker_id != 0) continue;
    const std::vector<Span> everywhere = listing_of(replay, replay.names(), broker.broker_addr);
    std::map<std::vector<std::string>, std::vector<Span>> by_nameservers;  // clients share sets
    for (const Span& listed : everywhere) {
      if (listed.end == kOpen || !any_answers(replay, replay.names(), listed.end)) continue;
      std::vector<std::int64_t> delays;
      std::size_t never = 0;
      for (const ClientView& client : clients) {
        auto [at, added] = by_nameservers.try_emplace(client.nameservers);
        if (added) at->second = listing_of(replay, client.nameservers, broker.broker_addr);
        std::int64_t removed = -1;  // R_c: the end of the client's last listing inside `listed`
        for (const Span& own : at->second) {
          if (own.end > listed.start && own.end <= listed.end) removed = own.end;
        }
        if (removed < 0 || !any_answers(replay, client.nameservers, removed) ||
            client.figures->first_due_ms > removed)
          continue;
        const auto& starts = client.figures->poll_starts;
        const auto first = std::lower_bound(starts.begin(), starts.end(), removed);
        if (first == starts.end()) {
          ++never;
        } else {
          delays.push_back(*first - removed);
        }
      }
      all_delays.insert(all_delays.end(), delays.begin(), delays.end());
      all_never += never;
      list.push_back({{"broker_name", scenario.broker_groups[broker.group].name},
                      {"broker_addr", broker.broker_addr},
                      {"removed_at_ms", listed.end},
                      {"clients", delays.size() + never},
                      {"f_minus_r_ms", distribution_json(std::move(delays), never)}});
    }
  }
  return list;
}

}  // namespace client_scheduler_parts

std::optional<nlohmann::json> client_scheduler_json(const Scenario& scenario,
                                                    const Topology& topology,
                                                    const RouteReplay& replay,
                                                    const SendStats& sends) {
  using namespace client_scheduler_parts;
  std::vector<ClientFigures> clients;
  for (const auto& [name, schedule] : sends.schedules()) {
    if (!schedule.runs.empty()) clients.push_back(figures_of(name, schedule));
  }
  if (clients.empty()) return std::nullopt;
  std::vector<std::int64_t> delay_max, delay_p99, behind;
  std::vector<const ClientFigures*> listed;
  std::vector<ClientView> views;
  std::int64_t route_polls = 0, heartbeat_runs = 0, attempts = 0, failures = 0;
  for (const ClientFigures& client : clients) {
    if (!client.delays.empty()) {
      delay_max.push_back(client.delays.back());
      delay_p99.push_back(at_nearest_rank(client.delays, 99));
    }
    behind.push_back(client.behind_ms);
    route_polls += static_cast<std::int64_t>(client.delays.size());
    heartbeat_runs += client.heartbeat_runs;
    attempts += client.heartbeat_attempts;
    failures += client.heartbeat_failures;
    listed.push_back(&client);
    views.push_back({&client, nameservers_of(scenario, topology, replay, client.name)});
  }
  std::vector<std::int64_t> f_minus_r;
  std::size_t f_never = 0;
  json removals = removals_json(scenario, topology, replay, views, f_minus_r, f_never);
  const std::size_t without_polls = clients.size() - delay_max.size();
  return json{{"clients", clients.size()},
              {"route_polls", route_polls},
              {"heartbeat_runs", heartbeat_runs},
              {"heartbeat_attempts", attempts},
              {"heartbeat_failures", failures},
              {"route_poll_delay_max_ms", distribution_json(std::move(delay_max), without_polls)},
              {"route_poll_delay_p99_ms", distribution_json(std::move(delay_p99), without_polls)},
              {"behind_ms", distribution_json(std::move(behind), 0)},
              {"f_minus_r_ms", distribution_json(std::move(f_minus_r), f_never)},
              {"per_client", per_client_json(std::move(listed))},
              {"heartbeats_by_broker", heartbeats_by_broker_json(sends)},
              {"removals", std::move(removals)}};
}

}  // namespace nssim::sim

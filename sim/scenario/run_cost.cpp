// File: estimate_run_cost (see run_cost.h). The coefficients are fitted to user CPU time and peak
// RSS of `nssim run` on the reference machine (docs/performance.md, "The cost estimate").
#include "sim/scenario/run_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "nameserver_core/route_info_manager.h"

namespace nssim::sim {

namespace {

// Memory: the process with SimGrid loaded and a small world; each producer model (its tables,
// queues and send ring); each broker (its actor, its NameServers' entries and recorded route
// changes); each second of the time series per broker group that takes sends (its per-group
// counts).
constexpr double kBaseBytes = 64.0 * 1024 * 1024;
constexpr double kBytesPerProducer = 13.0 * 1024;
constexpr double kBytesPerBroker = 36.0 * 1024;
constexpr double kBytesPerGroupSecond = 140.0;
// ... and each second of the time series itself (its row of counts), each topic placement (a
// topic on a group: the brokers' topic configs, every NameServer's tables and recorded routes),
// each topic of each producer (its route and publish info).
constexpr double kBytesPerSecond = 3.0 * 1024;
constexpr double kBytesPerTopicPlacement = 10.5 * 1024;
constexpr double kBytesPerProducerTopic = 4.0 * 1024;
// ... and each send that picks a powered-off broker before its producers let go of it: it waits on
// a connection attempt to the dead host (connectTimeoutMillis), held with the sends that join the
// attempt and their retries (bench/cost_measurements.json: about 9 KiB more per producer at 4/s
// than the same run with a kill, about 213 such sends each; 1.4 KiB at 1/s, 53 sends).
constexpr double kBytesPerStaleSend = 48.0;
// The window: the NameServers drop a silent broker within brokerChannelExpiredTime and a scan
// (10 s at most), and the producers within a route poll after that.
constexpr double kStaleScanSeconds = 10.0;
// CPU: a send (the attempt, its record and aggregates); a route poll (query, answer, publish
// info); a registration (request, core, record), and per broker of the run (the tables' look-ups
// grow with them, and a storm's first registrations with their count); creating a producer; a
// 5.x refreshMetadata's answer, per group it lists (transfer and flow-sharing in SimGrid).
constexpr double kSecondsPerSend = 0.4e-6;
constexpr double kSecondsPerPoll = 8e-6;
constexpr double kSecondsPerRegistration = 20e-6;
constexpr double kSecondsPerRegistrationPerBroker = 2.5e-9;
constexpr double kSecondsPerProducer = 30e-6;
constexpr double kSecondsPerClusterInfoGroup = 60e-9;
// Java 5.x: BrokerController schedules refreshMetadata 10 s after start, every 5 s; its answer's
// size as the NameServer actor counts it (sim/world/nameserver_actor.cpp, response_size_bytes).
constexpr double kRefreshDelaySeconds = 10.0;
constexpr double kRefreshPeriodSeconds = 5.0;
constexpr double kClusterInfoBytesBase = 200.0;
constexpr double kClusterInfoBytesPerGroup = 110.0;
constexpr double kClusterInfoBytesPerCluster = 40.0;
// ... and each topic a registration reports (the NameServer's tables, the recorded routes).
constexpr double kSecondsPerRegisteredTopic = 2.5e-6;

// Consumers (bench/scenarios/large_consumers.json, docs/performance.md): a consumer's instance,
// a NOTIFY of a join to a member (its events and the rebalance it wakes), a consumer-second of
// heartbeats, polls, offset persists and idle long polls, and a message a group consumes.
constexpr double kBytesPerConsumer = 34.0 * 1024;
constexpr double kSecondsPerJoinNotify = 1.1e-6;
constexpr double kSecondsPerConsumerSecond = 2e-6;
constexpr double kBytesPerConsumedMessage = 48.0;
constexpr double kSecondsPerConsumedMessage = 2e-6;

double active_seconds(std::int64_t duration_ms, std::int64_t start_ms) {
  return static_cast<double>(std::max<std::int64_t>(0, duration_ms - start_ms)) / 1000.0;
}

// Sends that pick a powered-off broker while producers still route to it: per power-off and
// producer set, its sends over the window, times the share of its topics' groups the fault
// takes (a node each, at most all of them; slaves counted as masters, so it errs high).
double stale_sends(const Scenario& scenario) {
  std::map<std::string, double> groups_of_topic;
  for (const auto& topic : scenario.topics) {
    groups_of_topic[topic.name] = static_cast<double>(topic.groups.size());
  }
  double sends = 0;
  for (const auto& fault : scenario.faults) {
    if (fault.kind != FaultKind::kPoweroff) continue;
    const double lasting = active_seconds(
        fault.duration_ms ? fault.at_ms + *fault.duration_ms : scenario.duration_ms, fault.at_ms);
    const double nodes = static_cast<double>(fault.nodes.size());
    for (const auto& set : scenario.producers) {
      if (set.topics.empty()) continue;
      const double window =
          std::min(lasting, static_cast<double>(core::kDefaultBrokerChannelExpiredTimeMs +
                                                set.config.poll_name_server_interval) /
                                    1000.0 +
                                kStaleScanSeconds);
      double share = 0;
      for (const auto& topic : set.topics) {
        const double groups = groups_of_topic[topic];
        if (groups > 0) share += std::min(nodes, groups) / groups;
      }
      share /= static_cast<double>(set.topics.size());
      sends += set.count * set.rate_per_s * window * share;
    }
  }
  return sends;
}

// "1.2 M", "3.4 k", "950": three significant figures at most.
std::string count_text(double value) {
  char buffer[32];
  if (value >= 1e9) {
    std::snprintf(buffer, sizeof buffer, "%.1f G", value / 1e9);
  } else if (value >= 1e6) {
    std::snprintf(buffer, sizeof buffer, "%.1f M", value / 1e6);
  } else if (value >= 1e3) {
    std::snprintf(buffer, sizeof buffer, "%.1f k", value / 1e3);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.0f", value);
  }
  return buffer;
}

std::string memory_text(double bytes) {
  char buffer[32];
  if (bytes >= 1024.0 * 1024 * 1024) {
    std::snprintf(buffer, sizeof buffer, "%.1f GiB", bytes / (1024.0 * 1024 * 1024));
  } else {
    std::snprintf(buffer, sizeof buffer, "%.0f MiB", bytes / (1024.0 * 1024));
  }
  return buffer;
}

// "0.4 s", "12 s", "25 min", "55.3 h": a sweep's total runs to days.
std::string seconds_text(double seconds) {
  char buffer[32];
  if (seconds < 1.0) {
    std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  } else if (seconds < 600.0) {
    std::snprintf(buffer, sizeof buffer, "%.0f s", seconds);
  } else if (seconds < 7200.0) {
    std::snprintf(buffer, sizeof buffer, "%.0f min", seconds / 60.0);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.1f h", seconds / 3600.0);
  }
  return buffer;
}

}  // namespace

namespace {

// The consumers' part of a run's memory and CPU (see the constants above).
void add_consumers(const Scenario& scenario, RunCost& cost) {
  std::map<std::string, const BrokerGroupSpec*> groups;
  for (const auto& group : scenario.broker_groups) groups[group.name] = &group;
  std::map<std::string, const TopicSpec*> topics;
  for (const auto& topic : scenario.topics) topics[topic.name] = &topic;
  for (const auto& spec : scenario.consumers) {
    std::set<std::string> serving;
    for (const auto& name : spec.topics) {
      if (const auto topic = topics.find(name); topic != topics.end()) {
        serving.insert(topic->second->groups.begin(), topic->second->groups.end());
      }
    }
    double addresses = 0;
    for (const auto& name : serving) {
      if (const auto group = groups.find(name); group != groups.end()) {
        addresses += 1.0 + group->second->slaves;
      }
    }
    double consumed = 0;
    for (const auto& set : scenario.producers) {
      if (set.topics.empty()) continue;
      double share = 0;
      for (const auto& topic : set.topics) {
        share += std::count(spec.topics.begin(), spec.topics.end(), topic) > 0 ? 1.0 : 0.0;
      }
      share /= static_cast<double>(set.topics.size());
      consumed += set.count * set.rate_per_s *
                  active_seconds(scenario.duration_ms, set.start.min_ms) * share;
    }
    const double members = spec.count;
    cost.memory_bytes += kBytesPerConsumer * members + kBytesPerConsumedMessage * consumed;
    cost.cpu_seconds += kSecondsPerJoinNotify * members * members * addresses +
                        kSecondsPerConsumerSecond * members *
                            active_seconds(scenario.duration_ms, spec.start.min_ms) +
                        kSecondsPerConsumedMessage * consumed;
  }
}

}  // namespace

RunCost estimate_run_cost(const Scenario& scenario) {
  RunCost cost;
  double producers = 0;
  double producer_topics = 0;
  std::set<std::string> sent_topics;
  for (const auto& set : scenario.producers) {
    if (set.rate_per_s > 0) sent_topics.insert(set.topics.begin(), set.topics.end());
    const double count = set.count;
    const double seconds = active_seconds(scenario.duration_ms, set.start.min_ms);
    producers += count;
    producer_topics += count * static_cast<double>(set.topics.size());
    if (!set.topics.empty()) cost.sends += count * set.rate_per_s * seconds;
    cost.route_polls +=
        count * static_cast<double>(set.topics.size()) *
        std::floor(seconds * 1000.0 / static_cast<double>(set.config.poll_name_server_interval) +
                   1.0);
  }
  std::map<std::string, double> topics_on_group;
  double placements = 0;
  for (const auto& topic : scenario.topics) {
    for (const auto& group : topic.groups) topics_on_group[group] += 1;
    placements += static_cast<double>(topic.groups.size());
  }
  const double all_nameservers = scenario.nameservers.count;
  const double groups = static_cast<double>(scenario.broker_groups.size());
  std::set<std::string> clusters;
  for (const auto& group : scenario.broker_groups) clusters.insert(group.cluster);
  const double cluster_info_bytes =
      kClusterInfoBytesBase + kClusterInfoBytesPerGroup * groups +
      kClusterInfoBytesPerCluster * static_cast<double>(clusters.size());
  double brokers = 0;
  double registered_topics = 0;  // registrations x the topics each reports
  double refreshes = 0;          // 5.x refreshMetadata requests
  double refresh_bytes_per_second = 0;
  for (const auto& group : scenario.broker_groups) {
    const double members = 1.0 + group.slaves;
    const double nameservers =
        group.nameservers.empty() ? all_nameservers : static_cast<double>(group.nameservers.size());
    brokers += members;
    const double registrations =
        members * nameservers *
        std::floor(active_seconds(scenario.duration_ms, group.start.min_ms) * 1000.0 /
                       static_cast<double>(group.config.register_name_server_period) +
                   1.0);
    cost.registrations += registrations;
    const auto on_group = topics_on_group.find(group.name);
    if (on_group != topics_on_group.end()) registered_topics += registrations * on_group->second;
    if (scenario.profile == core::Profile::kV5) {
      const double refreshing =
          active_seconds(scenario.duration_ms, group.start.min_ms) - kRefreshDelaySeconds;
      if (refreshing >= 0) {
        refreshes += members * (std::floor(refreshing / kRefreshPeriodSeconds) + 1.0);
      }
      refresh_bytes_per_second += members * cluster_info_bytes / kRefreshPeriodSeconds;
    }
  }
  // Each refresh goes to one NameServer (invokeSync to the chosen one): spread over them all.
  const double link_bytes_per_second = scenario.nameservers.link.bandwidth_mbps * 1e6 / 8.0;
  if (all_nameservers > 0 && link_bytes_per_second > 0) {
    cost.refresh_link_load = refresh_bytes_per_second / all_nameservers / link_bytes_per_second;
  }
  std::set<std::string> groups_sent_to;
  for (const auto& topic : scenario.topics) {
    if (sent_topics.count(topic.name) != 0) {
      groups_sent_to.insert(topic.groups.begin(), topic.groups.end());
    }
  }
  const double run_seconds = active_seconds(scenario.duration_ms, 0);
  cost.memory_bytes =
      kBaseBytes + kBytesPerProducer * producers + kBytesPerBroker * brokers +
      (kBytesPerSecond + kBytesPerGroupSecond * static_cast<double>(groups_sent_to.size())) *
          run_seconds +
      kBytesPerTopicPlacement * placements + kBytesPerProducerTopic * producer_topics +
      kBytesPerStaleSend * stale_sends(scenario);
  cost.cpu_seconds =
      kSecondsPerSend * cost.sends + kSecondsPerPoll * cost.route_polls +
      (kSecondsPerRegistration + kSecondsPerRegistrationPerBroker * brokers) * cost.registrations +
      kSecondsPerProducer * producers + kSecondsPerClusterInfoGroup * refreshes * groups +
      kSecondsPerRegisteredTopic * registered_topics;
  add_consumers(scenario, cost);
  return cost;
}

std::string run_cost_text(const RunCost& cost) {
  return count_text(cost.sends) + " sends, " + count_text(cost.route_polls) + " route polls, " +
         count_text(cost.registrations) + " registrations, " + memory_text(cost.memory_bytes) +
         ", " + seconds_text(cost.cpu_seconds);
}

void add_runs(TotalCost& total, const RunCost& cost, std::uint64_t count) {
  if (count == 0) return;
  if (total.runs > 0 &&
      (cost.cpu_seconds != total.run_cpu_seconds || cost.memory_bytes != total.run_memory_bytes)) {
    total.uniform = false;
  }
  total.runs += count;
  total.cpu_seconds += cost.cpu_seconds * static_cast<double>(count);
  total.run_cpu_seconds = std::max(total.run_cpu_seconds, cost.cpu_seconds);
  total.run_memory_bytes = std::max(total.run_memory_bytes, cost.memory_bytes);
}

std::string total_cost_text(const TotalCost& total, std::size_t jobs) {
  const double parallel =
      static_cast<double>(std::min<std::uint64_t>(std::max<std::size_t>(jobs, 1), total.runs));
  const double wall =
      total.runs == 0 ? 0 : std::max(total.cpu_seconds / parallel, total.run_cpu_seconds);
  return std::to_string(total.runs) + (total.runs == 1 ? " run x (" : " runs x (") +
         (total.uniform ? "" : "up to ") + seconds_text(total.run_cpu_seconds) + ", " +
         memory_text(total.run_memory_bytes) + ") = " + seconds_text(total.cpu_seconds) + " CPU, " +
         seconds_text(wall) + " wall at -j " + std::to_string(jobs);
}

}  // namespace nssim::sim

// File: estimate_run_cost (see run_cost.h). The coefficients are fitted to user CPU time and peak
// RSS of `nssim run` on the reference machine (docs/performance.md, "The cost estimate").
#include "sim/scenario/run_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace nssim::sim {

namespace {

// Memory: the process with SimGrid loaded and a small world; each producer model (its tables,
// queues and send ring); each NameServer x broker x broker (what grows so is measured, not yet
// explained: route views log changes only since 1 December 2026); each second of the time series
// per broker group that takes sends (its per-group counts).
constexpr double kBaseBytes = 64.0 * 1024 * 1024;
constexpr double kBytesPerProducer = 13.0 * 1024;
constexpr double kBytesPerViewEntry = 110.0;
constexpr double kBytesPerGroupSecond = 140.0;
// ... and each second of the time series itself (its row of counts), each topic placement (a
// topic on a group: the brokers' topic configs, every NameServer's tables and recorded routes),
// each topic of each producer (its route and publish info).
constexpr double kBytesPerSecond = 3.0 * 1024;
constexpr double kBytesPerTopicPlacement = 10.5 * 1024;
constexpr double kBytesPerProducerTopic = 4.0 * 1024;
// CPU: a send (the attempt, its record and aggregates); a route poll (query, answer, publish
// info); a registration (request, core, record); creating a producer; a NameServer x broker x
// broker (the registration storm's cluster-info answers, rebuilt after each change).
constexpr double kSecondsPerSend = 0.4e-6;
constexpr double kSecondsPerPoll = 8e-6;
constexpr double kSecondsPerRegistration = 20e-6;
constexpr double kSecondsPerProducer = 30e-6;
constexpr double kSecondsPerViewEntry = 2.2e-6;
// ... and each topic a registration reports (the NameServer's tables, the recorded routes).
constexpr double kSecondsPerRegisteredTopic = 2.5e-6;

double active_seconds(std::int64_t duration_ms, std::int64_t start_ms) {
  return static_cast<double>(std::max<std::int64_t>(0, duration_ms - start_ms)) / 1000.0;
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

std::string seconds_text(double seconds) {
  char buffer[32];
  if (seconds < 1.0) {
    std::snprintf(buffer, sizeof buffer, "%.1f s", seconds);
  } else if (seconds < 600.0) {
    std::snprintf(buffer, sizeof buffer, "%.0f s", seconds);
  } else {
    std::snprintf(buffer, sizeof buffer, "%.0f min", seconds / 60.0);
  }
  return buffer;
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
  double brokers = 0;
  double broker_nameservers = 0;  // broker x NameServer registration pairs
  double registered_topics = 0;   // registrations x the topics each reports
  for (const auto& group : scenario.broker_groups) {
    const double members = 1.0 + group.slaves;
    const double nameservers =
        group.nameservers.empty() ? all_nameservers : static_cast<double>(group.nameservers.size());
    brokers += members;
    broker_nameservers += members * nameservers;
    const double registrations =
        members * nameservers *
        std::floor(active_seconds(scenario.duration_ms, group.start.min_ms) * 1000.0 /
                       static_cast<double>(group.config.register_name_server_period) +
                   1.0);
    cost.registrations += registrations;
    const auto on_group = topics_on_group.find(group.name);
    if (on_group != topics_on_group.end()) registered_topics += registrations * on_group->second;
  }
  // Each broker's first registration at each NameServer records that NameServer's whole table.
  const double view_entries = broker_nameservers * brokers;
  std::set<std::string> groups_sent_to;
  for (const auto& topic : scenario.topics) {
    if (sent_topics.count(topic.name) != 0) {
      groups_sent_to.insert(topic.groups.begin(), topic.groups.end());
    }
  }
  const double run_seconds = active_seconds(scenario.duration_ms, 0);
  cost.memory_bytes =
      kBaseBytes + kBytesPerProducer * producers + kBytesPerViewEntry * view_entries +
      (kBytesPerSecond + kBytesPerGroupSecond * static_cast<double>(groups_sent_to.size())) *
          run_seconds +
      kBytesPerTopicPlacement * placements + kBytesPerProducerTopic * producer_topics;
  cost.cpu_seconds = kSecondsPerSend * cost.sends + kSecondsPerPoll * cost.route_polls +
                     kSecondsPerRegistration * cost.registrations +
                     kSecondsPerProducer * producers + kSecondsPerViewEntry * view_entries +
                     kSecondsPerRegisteredTopic * registered_topics;
  return cost;
}

std::string run_cost_text(const RunCost& cost) {
  return count_text(cost.sends) + " sends, " + count_text(cost.route_polls) + " route polls, " +
         count_text(cost.registrations) + " registrations, " + memory_text(cost.memory_bytes) +
         ", " + seconds_text(cost.cpu_seconds);
}

}  // namespace nssim::sim

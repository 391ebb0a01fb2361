// File: admin_json (see admin_analysis.h).
#include "sim/analysis/admin_analysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "sim/analysis/distribution.h"

namespace nssim::sim {

namespace {

// What an admin operation asks producers to do with a group: start or stop publishing to it,
// for some topics (empty: every topic).
struct Effect {
  std::string group;
  std::set<std::string> topics;
  bool gain = false;
};

Effect effect_of(const Scenario& scenario, const FaultSpec& fault) {
  Effect effect{fault.broker_name, {}, fault.kind != FaultKind::kWipeWritePerm};
  if (fault.kind == FaultKind::kAddWritePerm) {
    for (const auto& topic : scenario.topics) {
      if (std::find(topic.groups.begin(), topic.groups.end(), fault.broker_name) !=
          topic.groups.end())
        effect.topics.insert(topic.name);
    }
  }
  if (fault.kind == FaultKind::kUpdateTopic) {
    effect.topics = {fault.topic};
    effect.gain = (fault.perm & 2) != 0 && fault.write_queue_nums > 0;  // PermName.PERM_WRITE
  }
  return effect;
}

// The next admin operation on the same group ends the window in which this one is followed.
std::int64_t window_end(const Scenario& scenario, std::size_t index) {
  const FaultSpec& fault = scenario.faults[index];
  for (std::size_t i = index + 1; i < scenario.faults.size(); ++i) {
    const FaultSpec& next = scenario.faults[i];
    if (!next.broker_name.empty() && next.broker_name == fault.broker_name) return next.at_ms;
  }
  return scenario.duration_ms;
}

nlohmann::json producers_following(const Effect& effect, const SendStats& sends, std::int64_t at,
                                   std::int64_t until) {
  std::vector<std::int64_t> delays;
  nlohmann::json per_producer = nlohmann::json::array();
  for (const auto& [producer, topics] : sends.publish_changes()) {
    bool affected = false;
    std::optional<std::int64_t> slowest = 0;
    for (const auto& [topic, changes] : topics) {
      if (!effect.topics.empty() && effect.topics.count(topic) == 0) continue;
      if (publish_info_holds(changes, at, effect.group) == effect.gain)
        continue;  // nothing to follow
      affected = true;
      std::optional<std::int64_t> followed;
      for (const auto& change : changes) {
        if (change.t_ms < at || change.t_ms >= until) continue;
        if ((change.brokers.count(effect.group) != 0) == effect.gain) {
          followed = change.t_ms - at;
          break;
        }
      }
      slowest = followed && slowest ? std::optional(std::max(*slowest, *followed)) : std::nullopt;
    }
    if (!affected) continue;
    per_producer.push_back(
        {{"name", producer},
         {"followed_ms", slowest ? nlohmann::json(*slowest) : nlohmann::json()}});
    if (slowest) delays.push_back(*slowest);
  }
  const std::size_t never = per_producer.size() - delays.size();
  return {{"affected", per_producer.size()},
          {"followed_ms", distribution_json(delays, never)},
          {"per_producer", per_producer}};
}

}  // namespace

nlohmann::json admin_json(const Scenario& scenario, const SendStats& sends) {
  std::int64_t poll_ms = 0;
  for (const auto& producer : scenario.producers)
    poll_ms = std::max(poll_ms, producer.config.poll_name_server_interval);
  nlohmann::json entries = nlohmann::json::array();
  for (std::size_t i = 0; i < scenario.faults.size(); ++i) {
    const FaultSpec& fault = scenario.faults[i];
    if (fault.kind != FaultKind::kWipeWritePerm && fault.kind != FaultKind::kAddWritePerm &&
        fault.kind != FaultKind::kUpdateTopic)
      continue;
    const Effect effect = effect_of(scenario, fault);
    nlohmann::json entry = {{"fault", fault.file_index},
                            {"kind", fault_kind_name(fault.kind)},
                            {"at_ms", fault.at_ms},
                            {"broker_name", fault.broker_name},
                            {"producers_should", effect.gain ? "gain" : "lose"}};
    if (fault.kind == FaultKind::kUpdateTopic) entry["topic"] = fault.topic;
    entry["producers"] = producers_following(effect, sends, fault.at_ms, window_end(scenario, i));
    // The change is in the NameServers' routes within milliseconds; each producer sees it at
    // its next route poll, within pollNameServerInterval, answered within the request timeout.
    entry["predicted"] = {
        {"followed_ms", {{"min_ms", 0}, {"max_ms", poll_ms + kRouteRequestTimeoutMs}}}};
    entries.push_back(std::move(entry));
  }
  return entries;
}

}  // namespace nssim::sim

// File: RouteHistory (see route_history.h).
#include "sim/nameserver/route_history.h"

#include <algorithm>

#include "common/invariant.h"
#include "sim/nameserver/route_data_changed.h"

namespace nssim::sim {

namespace {

// Up to this many groups a route is built whole at every change, as small routes always were:
// the producers' own topics are read at every route query and poll.
constexpr std::size_t kAlwaysWholeGroups = 64;

bool same_answer(const core::TopicRouteData* a, const std::optional<core::TopicRouteData>& b) {
  if ((a != nullptr) != b.has_value()) return false;
  return a == nullptr || !topic_route_data_changed(a, *b, core::Profile::kV5);
}

bool same_broker(const std::optional<core::BrokerData>& a,
                 const std::optional<core::BrokerData>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->cluster == b->cluster && a->broker_name == b->broker_name &&
                a->broker_addrs == b->broker_addrs && a->zone_name == b->zone_name &&
                a->enable_acting_master == b->enable_acting_master);
}

bool same_entry(const RouteHistory::GroupEntry& a, const RouteHistory::GroupEntry& b) {
  return a.queue == b.queue && (!a.queue || same_broker(a.broker, b.broker));
}

}  // namespace

RouteHistory::RouteHistory(std::vector<std::string> topics) : topics_(std::move(topics)) {
  std::sort(topics_.begin(), topics_.end());
  topics_.erase(std::unique(topics_.begin(), topics_.end()), topics_.end());
  for (std::size_t i = 0; i < topics_.size(); ++i) index_.emplace(topics_[i], i);
}

std::optional<std::size_t> RouteHistory::topic_index(const std::string& topic) const {
  const auto it = index_.find(topic);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

RouteHistory::Timeline& RouteHistory::timeline(NodeId nameserver, std::size_t topic) {
  NSSIM_CHECK(topic < topics_.size(), "topic index out of range");
  auto& per_topic = timelines_[nameserver];
  if (per_topic.empty()) per_topic.resize(topics_.size());
  return per_topic[topic];
}

void RouteHistory::pop_back(Timeline& line) {
  line.versions.pop_back();
  line.changes.resize(line.versions.empty() ? 0 : line.versions.back().changes_end);
  if (line.built && line.built_index >= line.versions.size()) line.built.reset();
}

void RouteHistory::record(NodeId nameserver, std::size_t topic,
                          std::optional<core::TopicRouteData> answer, std::int64_t t_ms) {
  Timeline& line = timeline(nameserver, topic);
  auto& versions = line.versions;
  NSSIM_CHECK(versions.empty() || t_ms >= versions.back().since_ms,
              "answers must be recorded in time order");
  if (!versions.empty() && versions.back().since_ms == t_ms) pop_back(line);
  // The groups are not followed through whole answers: the next record_groups is whole.
  line.by_groups = false;
  line.groups.clear();
  line.groups_with_broker = 0;
  line.changes_since_checkpoint = 0;
  if (!versions.empty() && same_answer(version_route(line, versions.size() - 1), answer)) return;
  Version version;
  version.since_ms = t_ms;
  version.changes_end = line.changes.size();
  version.is_route = answer.has_value();
  if (answer) {
    version.whole = std::make_shared<const core::TopicRouteData>(std::move(*answer));
  } else {
    version.whole = std::make_shared<const core::TopicRouteData>();
  }
  versions.push_back(std::move(version));
}

void RouteHistory::record_groups(NodeId nameserver, std::size_t topic,
                                 std::vector<std::pair<std::string, GroupEntry>> entries,
                                 bool whole, std::int64_t t_ms) {
  Timeline& line = timeline(nameserver, topic);
  auto& versions = line.versions;
  NSSIM_CHECK(versions.empty() || t_ms >= versions.back().since_ms,
              "answers must be recorded in time order");
  NSSIM_CHECK(whole || line.by_groups, "changed groups recorded before their whole topic");
  for (auto& [group, entry] : entries) {
    if (!entry.queue) entry.broker.reset();  // a group without a queue is not in the route
  }
  const bool switching = !line.by_groups;  // from a whole answer, or the first record
  std::vector<std::pair<std::string, GroupEntry>> changed;
  if (whole) {
    std::map<std::string, GroupEntry> next;
    for (auto& [group, entry] : entries) {
      if (entry.queue) next[group] = std::move(entry);
    }
    for (const auto& [group, entry] : line.groups) {
      if (next.count(group) == 0) changed.emplace_back(group, GroupEntry{});
    }
    for (const auto& [group, entry] : next) {
      const auto old = line.groups.find(group);
      if (old == line.groups.end() || !same_entry(old->second, entry)) {
        changed.emplace_back(group, entry);
      }
    }
  } else {
    const GroupEntry none;
    for (auto& [group, entry] : entries) {
      const auto old = line.groups.find(group);
      if (!same_entry(old == line.groups.end() ? none : old->second, entry)) {
        changed.emplace_back(group, std::move(entry));
      }
    }
  }
  if (!switching && changed.empty()) return;
  for (const auto& [group, entry] : changed) {
    const auto old = line.groups.find(group);
    if (old != line.groups.end() && old->second.broker) --line.groups_with_broker;
    if (entry.broker) ++line.groups_with_broker;
    if (entry.queue) {
      line.groups[group] = entry;
    } else if (old != line.groups.end()) {
      line.groups.erase(old);
    }
  }
  // At the instant of the previous answer the changes join it: its own changes stay in
  // `changes`, before these.
  bool replaced_checkpoint = false;
  if (!versions.empty() && versions.back().since_ms == t_ms) {
    replaced_checkpoint = versions.back().whole != nullptr;
    versions.pop_back();
    if (line.built && line.built_index >= versions.size()) line.built.reset();
  }
  // A checkpoint: after a whole answer (the changes before it apply to nothing), in place of one,
  // for small routes, and once the changes since the last one are as many as the route's groups
  // (so memory stays in the order of the changes, and a read replays at most that many).
  line.changes_since_checkpoint += changed.size();
  const bool checkpoint = switching || replaced_checkpoint ||
                          line.groups.size() <= kAlwaysWholeGroups ||
                          line.changes_since_checkpoint >= line.groups.size();
  if (!checkpoint) {
    line.changes.insert(line.changes.end(), std::make_move_iterator(changed.begin()),
                        std::make_move_iterator(changed.end()));
  }
  Version version;
  version.since_ms = t_ms;
  version.changes_end = line.changes.size();
  version.is_route = line.groups_with_broker != 0;
  if (checkpoint) {
    version.whole = build(line.groups);
    line.changes_since_checkpoint = 0;
  }
  versions.push_back(std::move(version));
  line.by_groups = true;
}

std::shared_ptr<const core::TopicRouteData> RouteHistory::build(
    const std::map<std::string, GroupEntry>& groups) {
  auto route = std::make_shared<core::TopicRouteData>();
  route->queue_datas.reserve(groups.size());
  for (const auto& [group, entry] : groups) route->queue_datas.push_back(*entry.queue);
  for (const auto& [group, entry] : groups) {
    if (entry.broker) route->broker_datas.push_back(*entry.broker);
  }
  return route;
}

const core::TopicRouteData* RouteHistory::version_route(const Timeline& line, std::size_t index) {
  const Version& version = line.versions[index];
  if (!version.is_route) return nullptr;
  if (version.whole) return version.whole.get();
  if (line.built && line.built_index == index) return line.built.get();
  // Replay the changes since the last checkpoint, the later of a group's changes winning, onto
  // it; both are sorted by group, as the route lists them.
  std::size_t checkpoint = index;
  while (line.versions[checkpoint].whole == nullptr) --checkpoint;  // the first one is whole
  const Version& base = line.versions[checkpoint];
  std::map<std::string, const GroupEntry*> changes;
  for (std::size_t i = base.changes_end; i < version.changes_end; ++i) {
    changes[line.changes[i].first] = &line.changes[i].second;
  }
  auto route = std::make_shared<core::TopicRouteData>();
  auto change = changes.begin();
  const auto& queues = base.whole->queue_datas;
  for (auto queue = queues.begin(); queue != queues.end() || change != changes.end();) {
    if (change == changes.end() || (queue != queues.end() && queue->broker_name < change->first)) {
      route->queue_datas.push_back(*queue++);
      continue;
    }
    if (queue != queues.end() && queue->broker_name == change->first) ++queue;
    if (change->second->queue) route->queue_datas.push_back(*change->second->queue);
    ++change;
  }
  change = changes.begin();
  const auto& brokers = base.whole->broker_datas;
  for (auto broker = brokers.begin(); broker != brokers.end() || change != changes.end();) {
    if (change == changes.end() ||
        (broker != brokers.end() && broker->broker_name < change->first)) {
      route->broker_datas.push_back(*broker++);
      continue;
    }
    if (broker != brokers.end() && broker->broker_name == change->first) ++broker;
    if (change->second->queue && change->second->broker) {
      route->broker_datas.push_back(*change->second->broker);
    }
    ++change;
  }
  line.built = std::move(route);
  line.built_index = index;
  return line.built.get();
}

const core::TopicRouteData* RouteHistory::answer_at(NodeId nameserver, const std::string& topic,
                                                    std::int64_t t_ms) const {
  const auto index = topic_index(topic);
  const auto per_topic = timelines_.find(nameserver);
  if (!index || per_topic == timelines_.end()) return nullptr;
  const Timeline& line = per_topic->second[*index];
  const auto after =
      std::upper_bound(line.versions.begin(), line.versions.end(), t_ms,
                       [](std::int64_t t, const Version& v) { return t < v.since_ms; });
  if (after == line.versions.begin()) return nullptr;
  return version_route(line, static_cast<std::size_t>(after - line.versions.begin() - 1));
}

std::size_t RouteHistory::size() const {
  std::size_t n = 0;
  for (const auto& [nameserver, per_topic] : timelines_) {
    for (const auto& line : per_topic) n += line.versions.size();
  }
  return n;
}

}  // namespace nssim::sim

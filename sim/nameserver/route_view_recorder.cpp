// File: RouteViewRecorder (see route_view_recorder.h).
#include "sim/nameserver/route_view_recorder.h"

#include "sim/nameserver/request_reach.h"

namespace nssim::sim {

namespace {

// FNV-1a 64 of the text, then splitmix64's finaliser, so that sums of hashes do not cancel.
std::uint64_t text_hash(const std::string& text, std::uint64_t salt) {
  std::uint64_t h = 0xcbf29ce484222325ULL ^ salt;
  for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ULL;
  h ^= h >> 27;
  h *= 0x94d049bb133111ebULL;
  return h ^ (h >> 31);
}

std::uint64_t topic_hash(const std::string& topic) { return text_hash(topic, 1); }

std::uint64_t writable_pair_hash(const std::string& topic, const std::string& group) {
  return text_hash(group, text_hash(topic, 2));
}

nlohmann::json ids_json(const std::map<std::int64_t, std::string>& addrs) {
  nlohmann::json ids = nlohmann::json::object();
  for (const auto& [id, addr] : addrs) ids[std::to_string(id)] = addr;
  return ids;
}

}  // namespace

void RouteViewRecorder::touch_request(const core::RemotingRequest& request) {
  const int code = request.code;
  if (leaves_route_tables(code)) return;
  const auto broker_name = request.ext_fields.find("brokerName");
  if (code != core::request_code::kRegisterBroker || broker_name == request.ext_fields.end()) {
    all_ = true;  // admin requests may change any group's queues
    return;
  }
  std::set<std::string>& topics = touched_[broker_name->second];
  if (const core::TopicConfigSerializeWrapper* wrapper = registered_topics(request)) {
    for (const auto& [key, config] : wrapper->topic_config_table) topics.insert(config.topic_name);
  }
}

void RouteViewRecorder::touch_removals(const std::vector<core::BrokerRemoval>& removals) {
  for (const core::BrokerRemoval& removal : removals) {
    if (removal.broker_name.empty()) {
      all_ = all_ || removal.removed_addr_entry;  // a group without a name: not tracked by name
    } else {
      touched_[removal.broker_name];
    }
  }
}

std::optional<nlohmann::json> RouteViewRecorder::take_change(const core::RouteInfoManager& rim) {
  // The view is read from topicQueueTable and brokerAddrTable, which route_change_count covers.
  const bool unchanged = viewed_route_count_ == rim.route_change_count();
  viewed_route_count_ = rim.route_change_count();
  const bool rebuild_all = all_;
  std::map<std::string, std::set<std::string>> touched;
  std::swap(touched, touched_);
  all_ = false;
  if (unchanged) return std::nullopt;

  const std::uint64_t digest_before = digest_;
  nlohmann::json changed = nlohmann::json::object();
  if (rebuild_all) {
    rebuild(rim, changed);
  } else {
    for (const auto& [group, topics] : touched) update_group(rim, group, topics, changed);
  }
  // The first view is logged even when empty: a process start empties the view.
  if (logged_any_ && changed.empty() && digest_ == digest_before) return std::nullopt;
  logged_any_ = true;
  return nlohmann::json{{"changed", std::move(changed)}, {"topics_digest", digest_}};
}

void RouteViewRecorder::update_group(const core::RouteInfoManager& rim, const std::string& group,
                                     const std::set<std::string>& reported,
                                     nlohmann::json& changed) {
  std::set<std::string> topics = reported;
  if (const auto had = queues_of_group_.find(group); had != queues_of_group_.end()) {
    for (const auto& [topic, writable] : had->second) topics.insert(topic);
  }
  for (const std::string& topic : topics) {
    const auto queues = rim.topic_queue_table().find(topic);
    const bool present = queues != rim.topic_queue_table().end();
    set_topic_present(topic, present);
    const core::QueueData* queue = nullptr;
    if (present) {
      if (const auto it = queues->second.find(group); it != queues->second.end()) {
        queue = &it->second;
      }
    }
    set_queue(topic, group, queue);
  }
  const auto data = rim.broker_addr_table().find(group);
  const auto logged = groups_.find(group);
  if (data == rim.broker_addr_table().end()) {
    if (logged == groups_.end()) return;
    changed[group] = nullptr;
    groups_.erase(logged);
  } else if (logged == groups_.end() || logged->second != data->second.broker_addrs) {
    changed[group] = ids_json(data->second.broker_addrs);
    groups_[group] = data->second.broker_addrs;
  }
}

void RouteViewRecorder::rebuild(const core::RouteInfoManager& rim, nlohmann::json& changed) {
  digest_ = 0;
  topics_.clear();
  queues_of_group_.clear();
  for (const auto& [topic, queues] : rim.topic_queue_table()) {
    set_topic_present(topic, true);
    for (const auto& [group, queue] : queues) set_queue(topic, group, &queue);
  }
  const auto& table = rim.broker_addr_table();
  for (const auto& [group, data] : table) {
    const auto logged = groups_.find(group);
    if (logged != groups_.end() && logged->second == data.broker_addrs) continue;
    changed[group] = ids_json(data.broker_addrs);
    groups_[group] = data.broker_addrs;
  }
  for (auto logged = groups_.begin(); logged != groups_.end();) {
    if (table.count(logged->first) != 0) {
      ++logged;
      continue;
    }
    changed[logged->first] = nullptr;
    logged = groups_.erase(logged);
  }
}

void RouteViewRecorder::set_topic_present(const std::string& topic, bool present) {
  if (present && topics_.insert(topic).second) digest_ += topic_hash(topic);
  if (!present && topics_.erase(topic) != 0) digest_ -= topic_hash(topic);
}

void RouteViewRecorder::set_queue(const std::string& topic, const std::string& group,
                                  const core::QueueData* queue) {
  auto& queues = queues_of_group_[group];
  const auto old = queues.find(topic);
  const bool was_writable = old != queues.end() && old->second;
  const bool writable = queue != nullptr && core::perm::is_writeable(queue->perm);
  if (was_writable) digest_ -= writable_pair_hash(topic, group);
  if (writable) digest_ += writable_pair_hash(topic, group);
  if (queue != nullptr) {
    queues[topic] = writable;
  } else if (old != queues.end()) {
    queues.erase(old);
  }
  if (queues.empty()) queues_of_group_.erase(group);
}

}  // namespace nssim::sim

// File: RouteRecorder (see route_recorder.h). Why the touched topics are enough: a registration
// writes only its own group's BrokerData, queue data (5.x with deleteTopicWithBrokerRegistration
// also erases the group's queue data from topics it stopped reporting, which name the group),
// filter servers and static-topic mappings, so only routes holding that group (whose answers name
// it) or topics its body reports can change, and only if those entries changed; a removal likewise
// reaches only routes holding the removed address's group (pickupTopicRouteData lists every
// QueueData of a topic, so an answer names every group with a queue in it).
#include "sim/nameserver/route_recorder.h"

#include <utility>
#include <variant>

namespace nssim::sim {

namespace {

const core::TopicConfigSerializeWrapper* registered_topics(const core::RemotingRequest& request) {
  if (const auto* body = std::get_if<core::RegisterBrokerBody>(&request.body)) {
    return &body->topic_config_serialize_wrapper;
  }
  return std::get_if<core::TopicConfigSerializeWrapper>(&request.body);
}

bool same_broker_data(const std::optional<core::BrokerData>& a,
                      const std::optional<core::BrokerData>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->cluster == b->cluster && a->broker_name == b->broker_name &&
                a->broker_addrs == b->broker_addrs && a->zone_name == b->zone_name &&
                a->enable_acting_master == b->enable_acting_master);
}

}  // namespace

bool RouteRecorder::same_entries(const GroupEntries& a, const GroupEntries& b) {
  return same_broker_data(a.broker_data, b.broker_data) && a.queue_datas == b.queue_datas;
}

RouteRecorder::RouteRecorder(RouteHistory& routes, NodeId nameserver, core::Profile profile)
    : routes_(routes), nameserver_(nameserver), groups_of_topic_(routes.topics().size()) {
  for (const std::string& topic : routes_.topics()) {
    core::RemotingRequest& request = requests_.emplace_back();
    request.code = core::request_code::kGetRouteinfoByTopic;
    request.version = core::default_request_version(profile);
    request.ext_fields = {{"topic", topic}};
  }
}

void RouteRecorder::touch_request(const core::RemotingRequest& request,
                                  const core::NameServer& server) {
  const int code = request.code;
  if (code == core::request_code::kGetRouteinfoByTopic ||
      code == core::request_code::kGetBrokerClusterInfo ||
      code == core::request_code::kQueryDataVersion ||
      code == core::request_code::kBrokerHeartbeat) {
    return;  // reads, and liveness refreshes
  }
  if (code == core::request_code::kUnregisterBroker) {
    return;  // what it removes (at once in 4.9, through the batch in 5.x) is touched as removals
  }
  const auto broker_name = request.ext_fields.find("brokerName");
  const core::RouteInfoManager& rim = server.route_info_manager();
  const core::TopicConfigSerializeWrapper* wrapper = registered_topics(request);
  // Filter servers and static-topic mappings are not compared: with any, every topic is asked.
  const auto* body = std::get_if<core::RegisterBrokerBody>(&request.body);
  const bool comparable = rim.filter_server_table().empty() &&
                          rim.topic_queue_mapping_info_table().empty() &&
                          (body == nullptr || body->filter_server_list.empty()) &&
                          (wrapper == nullptr || wrapper->topic_queue_mapping_info_map.empty());
  if (code != core::request_code::kRegisterBroker || broker_name == request.ext_fields.end() ||
      !comparable) {
    touch_all();  // admin, KV and config requests may change any route
    return;
  }
  Registration registration;
  registration.group = broker_name->second;
  std::set<std::size_t> topics;
  if (const auto named = topics_of_group_.find(registration.group);
      named != topics_of_group_.end()) {
    topics = named->second;
  }
  if (wrapper != nullptr) {
    for (const auto& [key, config] : wrapper->topic_config_table) {
      if (const auto index = routes_.topic_index(config.topic_name)) topics.insert(*index);
    }
  }
  registration.topics.assign(topics.begin(), topics.end());
  registration.before = entries_of(server, registration);
  registration_ = std::move(registration);
}

RouteRecorder::GroupEntries RouteRecorder::entries_of(const core::NameServer& server,
                                                      const Registration& registration) const {
  const core::RouteInfoManager& rim = server.route_info_manager();
  GroupEntries entries;
  if (const auto data = rim.broker_addr_table().find(registration.group);
      data != rim.broker_addr_table().end()) {
    entries.broker_data = data->second;
  }
  for (const std::size_t topic : registration.topics) {
    std::optional<core::QueueData>& queue = entries.queue_datas.emplace_back();
    const auto queues = rim.topic_queue_table().find(routes_.topics()[topic]);
    if (queues == rim.topic_queue_table().end()) continue;
    if (const auto it = queues->second.find(registration.group); it != queues->second.end()) {
      queue = it->second;
    }
  }
  return entries;
}

void RouteRecorder::touch_removals(const std::vector<core::BrokerRemoval>& removals) {
  for (const core::BrokerRemoval& removal : removals) {
    if (!removal.broker_name.empty()) touch_group(removal.broker_name);
  }
}

void RouteRecorder::touch_group(const std::string& broker_name) {
  const auto found = topics_of_group_.find(broker_name);
  if (found != topics_of_group_.end()) touched_.insert(found->second.begin(), found->second.end());
}

void RouteRecorder::record(core::NameServer& server, std::int64_t now_ms) {
  // What a route answer reads per call beyond the tables (the KV config's orderTopicConf,
  // supportActingMaster, waitSecondsForService) changes only through touch_all.
  const std::uint64_t route_count = server.route_info_manager().route_change_count();
  if (!all_ && recorded_route_count_ == route_count) {
    registration_.reset();
    touched_.clear();
    return;
  }
  recorded_route_count_ = route_count;
  if (registration_) {
    if (!same_entries(entries_of(server, *registration_), registration_->before)) {
      touched_.insert(registration_->topics.begin(), registration_->topics.end());
    }
    registration_.reset();
  }
  const auto answer_one = [&](std::size_t topic) {
    auto response = server.process(requests_[topic], core::ConnectionId{0}, now_ms);
    std::optional<core::TopicRouteData> answer;
    if (response && response->code == core::response_code::kSuccess) {
      if (auto* route = std::get_if<std::shared_ptr<const core::TopicRouteData>>(&response->body)) {
        answer = **route;
      }
    }
    index(topic, answer ? &*answer : nullptr);
    routes_.record(nameserver_, topic, std::move(answer), now_ms);
  };
  if (all_) {
    for (std::size_t topic = 0; topic < requests_.size(); ++topic) answer_one(topic);
  } else {
    for (std::size_t topic : touched_) answer_one(topic);
  }
  all_ = false;
  touched_.clear();
}

void RouteRecorder::index(std::size_t topic, const core::TopicRouteData* answer) {
  std::set<std::string> groups;
  if (answer != nullptr) {
    for (const auto& queue : answer->queue_datas) groups.insert(queue.broker_name);
    for (const auto& broker : answer->broker_datas) groups.insert(broker.broker_name);
  }
  std::set<std::string>& old = groups_of_topic_[topic];
  if (groups == old) return;
  for (const std::string& group : old) topics_of_group_[group].erase(topic);
  for (const std::string& group : groups) topics_of_group_[group].insert(topic);
  old = std::move(groups);
}

}  // namespace nssim::sim

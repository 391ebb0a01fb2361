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

#include "sim/nameserver/request_reach.h"

namespace nssim::sim {

RouteRecorder::RouteRecorder(RouteHistory& routes, NodeId nameserver, core::Profile profile)
    : routes_(routes),
      nameserver_(nameserver),
      profile_(profile),
      groups_of_topic_(routes.topics().size()) {
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
  if (leaves_route_tables(code)) return;
  const auto broker_name = request.ext_fields.find("brokerName");
  const core::RouteInfoManager& rim = server.route_info_manager();
  const core::TopicConfigSerializeWrapper* wrapper = registered_topics(request);
  // Filter servers and static-topic mappings reach routes beyond the group: every topic is asked.
  const auto* body = std::get_if<core::RegisterBrokerBody>(&request.body);
  const bool group_only =
      rim.filter_server_table().empty() && rim.topic_queue_mapping_info_table().empty() &&
      (body == nullptr || !body->filter_server_list || body->filter_server_list->empty()) &&
      (wrapper == nullptr || wrapper->topic_queue_mapping_info_map.empty());
  if (code != core::request_code::kRegisterBroker || broker_name == request.ext_fields.end() ||
      !group_only) {
    touch_all();  // admin, KV and config requests may change any route
    return;
  }
  const std::string& group = broker_name->second;
  touch_group(group);
  if (wrapper != nullptr) {
    for (const auto& [key, config] : wrapper->topic_config_table) {
      if (const auto index = routes_.topic_index(config.topic_name)) touched_[*index].insert(group);
    }
  }
}

void RouteRecorder::touch_removals(const std::vector<core::BrokerRemoval>& removals) {
  for (const core::BrokerRemoval& removal : removals) {
    if (removal.broker_name.empty()) {
      all_ = all_ || removal.removed_addr_entry;  // a group without a name: not indexed by name
    } else {
      touch_group(removal.broker_name);
    }
  }
}

void RouteRecorder::touch_group(const std::string& group) {
  const auto found = topics_of_group_.find(group);
  if (found == topics_of_group_.end()) return;
  for (const std::size_t topic : found->second) touched_[topic].insert(group);
}

bool RouteRecorder::answers_are_groups(const core::NameServer& server, std::int64_t now_ms) const {
  const core::RouteInfoManager& rim = server.route_info_manager();
  const core::NamesrvConfig& config = server.config();
  if (!rim.filter_server_table().empty() || !rim.topic_queue_mapping_info_table().empty()) {
    return false;
  }
  if (config.order_message_enable) return false;  // orderTopicConf from the KV config
  if (profile_ == core::Profile::kV4_9) return true;
  if (config.support_acting_master) return false;  // pickupTopicRouteData's acting-master rewrite
  // ClientRequestProcessor#getRouteInfoByTopic: "name server not ready" until then.
  return !config.need_wait_for_service ||
         now_ms - server.start_time_ms() >= std::int64_t{config.wait_seconds_for_service} * 1000;
}

// Java: pickupTopicRouteData's entries for one group: its QueueData, and a clone of its
// BrokerData when brokerAddrTable has one (4.9's clone copies cluster, name and addresses only).
RouteHistory::GroupEntry RouteRecorder::entry_of(const core::RouteInfoManager& rim,
                                                 std::size_t topic,
                                                 const std::string& group) const {
  RouteHistory::GroupEntry entry;
  const auto queues = rim.topic_queue_table().find(routes_.topics()[topic]);
  if (queues == rim.topic_queue_table().end()) return entry;
  const auto queue = queues->second.find(group);
  if (queue == queues->second.end()) return entry;
  entry.queue = queue->second;
  if (const auto data = rim.broker_addr_table().find(group);
      data != rim.broker_addr_table().end()) {
    entry.broker = data->second;
    if (profile_ == core::Profile::kV4_9) {
      entry.broker->zone_name.reset();
      entry.broker->enable_acting_master = false;
    }
  }
  return entry;
}

void RouteRecorder::record_whole(core::NameServer& server, std::size_t topic, std::int64_t now_ms) {
  std::set<std::string> listed;
  if (*by_groups_) {
    const core::RouteInfoManager& rim = server.route_info_manager();
    std::vector<std::pair<std::string, RouteHistory::GroupEntry>> entries;
    if (const auto queues = rim.topic_queue_table().find(routes_.topics()[topic]);
        queues != rim.topic_queue_table().end()) {
      for (const auto& [group, queue] : queues->second) {
        entries.emplace_back(group, entry_of(rim, topic, group));
        listed.insert(group);
      }
    }
    routes_.record_groups(nameserver_, topic, std::move(entries), /*whole=*/true, now_ms);
  } else {
    auto response = server.process(requests_[topic], core::ConnectionId{0}, now_ms);
    std::optional<core::TopicRouteData> answer;
    if (response && response->code == core::response_code::kSuccess) {
      if (auto* route = std::get_if<std::shared_ptr<const core::TopicRouteData>>(&response->body)) {
        answer = **route;
      }
    }
    if (answer) {
      for (const auto& queue : answer->queue_datas) listed.insert(queue.broker_name);
      for (const auto& broker : answer->broker_datas) listed.insert(broker.broker_name);
    }
    routes_.record(nameserver_, topic, std::move(answer), now_ms);
  }
  const std::set<std::string> old = groups_of_topic_[topic];
  for (const std::string& group : old) {
    if (listed.count(group) == 0) index(topic, group, false);
  }
  for (const std::string& group : listed) index(topic, group, true);
}

void RouteRecorder::record(core::NameServer& server, std::int64_t now_ms) {
  // What a route answer reads per call beyond the tables (the KV config's orderTopicConf,
  // supportActingMaster, waitSecondsForService) changes only through touch_all.
  const std::uint64_t route_count = server.route_info_manager().route_change_count();
  const bool by_groups = answers_are_groups(server, now_ms);
  if (by_groups_ != by_groups) all_ = true;  // a whole record starts either way of recording
  by_groups_ = by_groups;
  std::map<std::size_t, std::set<std::string>> touched;
  std::swap(touched, touched_);
  if (!all_ && recorded_route_count_ == route_count) return;
  recorded_route_count_ = route_count;
  if (all_) {
    all_ = false;
    for (std::size_t topic = 0; topic < requests_.size(); ++topic) {
      record_whole(server, topic, now_ms);
    }
    return;
  }
  if (!by_groups) {
    for (const auto& [topic, groups] : touched) record_whole(server, topic, now_ms);
    return;
  }
  const core::RouteInfoManager& rim = server.route_info_manager();
  for (const auto& [topic, groups] : touched) {
    std::vector<std::pair<std::string, RouteHistory::GroupEntry>> entries;
    for (const std::string& group : groups) {
      RouteHistory::GroupEntry entry = entry_of(rim, topic, group);
      index(topic, group, entry.queue.has_value());
      entries.emplace_back(group, std::move(entry));
    }
    routes_.record_groups(nameserver_, topic, std::move(entries), /*whole=*/false, now_ms);
  }
}

void RouteRecorder::index(std::size_t topic, const std::string& group, bool listed) {
  if (listed) {
    topics_of_group_[group].insert(topic);
    groups_of_topic_[topic].insert(group);
    return;
  }
  if (const auto found = topics_of_group_.find(group); found != topics_of_group_.end()) {
    found->second.erase(topic);
    if (found->second.empty()) topics_of_group_.erase(found);
  }
  groups_of_topic_[topic].erase(group);
}

}  // namespace nssim::sim

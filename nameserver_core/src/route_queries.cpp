// File: the read side of RouteInfoManager: pickupTopicRouteData (what producers and consumers
// learn), cluster info and the topic lists. Where Java returns "the first" entry of a HashMap,
// the first entry of the ordered table is used.
#include "nameserver_core/route_info_manager.h"

namespace nssim::core {

namespace {

// Java 5.x: TopicValidator.SYNC_BROKER_MEMBER_GROUP_PREFIX.
constexpr const char* kSyncBrokerMemberGroupPrefix = "rmq_sys_SYNC_BROKER_MEMBER_";

// Java 5.3.3: the acting-master rewrite at the end of pickupTopicRouteData. A group with no master
// whose queue is read-only shows its smallest-id member at id 0, so clients can read from it.
void rewrite_acting_master(TopicRouteData& route) {
  bool need_acting_master = false;
  for (const auto& broker_data : route.broker_datas) {
    const auto& addrs = broker_data.broker_addrs;
    if (!addrs.empty() && addrs.count(kMasterId) == 0) need_acting_master = true;
  }
  if (!need_acting_master) return;
  for (auto& broker_data : route.broker_datas) {
    auto& addrs = broker_data.broker_addrs;
    if (addrs.empty() || addrs.count(kMasterId) != 0 || !broker_data.enable_acting_master) continue;
    for (const auto& queue_data : route.queue_datas) {
      if (queue_data.broker_name != broker_data.broker_name) continue;
      if (!perm::is_writeable(queue_data.perm)) {
        auto smallest = addrs.begin();
        std::string acting_master_addr = smallest->second;
        addrs.erase(smallest);
        addrs[kMasterId] = acting_master_addr;
      }
      break;
    }
  }
}

}  // namespace

std::shared_ptr<const TopicRouteData> RouteInfoManager::pickup_topic_route_data(
    const std::string& topic) const {
  if (route_cache_.route_change_count != route_changes_ ||
      route_cache_.support_acting_master != config_.support_acting_master) {
    route_cache_.routes.clear();
    route_cache_.route_change_count = route_changes_;
    route_cache_.support_acting_master = config_.support_acting_master;
  }
  if (auto cached = route_cache_.routes.find(topic); cached != route_cache_.routes.end()) {
    return cached->second;
  }
  auto queue_data_map = topic_queue_table_.find(topic);
  if (queue_data_map == topic_queue_table_.end()) return nullptr;
  auto route = build_topic_route_data(topic, queue_data_map->second);
  route_cache_.routes.emplace(topic, route);
  return route;
}

// Java: pickupTopicRouteData. Liveness is never consulted; null when no group is known.
std::shared_ptr<const TopicRouteData> RouteInfoManager::build_topic_route_data(
    const std::string& topic, const std::map<std::string, QueueData>& queue_data_map) const {
  auto built = std::make_shared<TopicRouteData>();
  TopicRouteData& route = *built;
  route.queue_datas.reserve(queue_data_map.size());
  for (const auto& [broker_name, queue_data] : queue_data_map) {
    route.queue_datas.push_back(queue_data);
  }
  for (const auto& [broker_name, queue_data] : queue_data_map) {
    auto broker_data = broker_addr_table_.find(broker_name);
    if (broker_data == broker_addr_table_.end()) continue;  // skipped silently, as upstream
    BrokerData clone = broker_data->second;
    if (profile_ == Profile::kV4_9) {  // the 4.9 clone copies cluster, name and addresses only
      clone.zone_name.reset();
      clone.enable_acting_master = false;
    }
    if (!filter_server_table_.empty()) {
      for (const auto& [id, addr] : clone.broker_addrs) {
        auto servers = filter_server_table_.find(live_key(clone.cluster, addr));
        if (servers != filter_server_table_.end()) {
          route.filter_server_table[addr] = servers->second;
        } else if (profile_ == Profile::kV5) {
          route.filter_server_table[addr] = std::nullopt;  // 5.x puts the null it found
        }
      }
    }
    route.broker_datas.push_back(std::move(clone));
  }
  if (route.broker_datas.empty()) return nullptr;
  if (profile_ == Profile::kV4_9) return built;

  auto mapping = topic_queue_mapping_info_table_.find(topic);
  if (mapping != topic_queue_mapping_info_table_.end()) {
    route.topic_queue_mapping_by_broker = mapping->second;
  }
  if (config_.support_acting_master && topic.rfind(kSyncBrokerMemberGroupPrefix, 0) != 0 &&
      !route.queue_datas.empty()) {
    rewrite_acting_master(route);
  }
  return built;
}

// Java: getAllClusterInfo. Java hands out the live maps; a copy taken after the last change is
// the same snapshot.
std::shared_ptr<const ClusterInfo> RouteInfoManager::get_all_cluster_info() const {
  if (!cluster_info_ || cluster_info_built_at_ != cluster_info_changes_) {
    cluster_info_ =
        std::make_shared<const ClusterInfo>(ClusterInfo{broker_addr_table_, cluster_addr_table_});
    cluster_info_built_at_ = cluster_info_changes_;
  }
  return cluster_info_;
}

TopicList RouteInfoManager::get_all_topic_list() const {
  TopicList list;
  for (const auto& [topic, queue_data_map] : topic_queue_table_) list.topic_list.insert(topic);
  return list;
}

// Java: getTopicsByCluster. An unknown cluster throws inside and yields the empty list.
TopicList RouteInfoManager::get_topics_by_cluster(const std::string& cluster) const {
  TopicList list;
  auto broker_names = cluster_addr_table_.find(cluster);
  if (broker_names == cluster_addr_table_.end()) return list;
  for (const auto& broker_name : broker_names->second) {
    for (const auto& [topic, queue_data_map] : topic_queue_table_) {
      if (queue_data_map.count(broker_name) != 0) list.topic_list.insert(topic);
    }
  }
  return list;
}

// Java: getSystemTopicList. Cluster and group names, plus one broker address.
TopicList RouteInfoManager::get_system_topic_list() const {
  TopicList list;
  for (const auto& [cluster, broker_names] : cluster_addr_table_) {
    list.topic_list.insert(cluster);
    list.topic_list.insert(broker_names.begin(), broker_names.end());
  }
  for (const auto& [name, broker_data] : broker_addr_table_) {
    if (!broker_data.broker_addrs.empty()) {
      list.broker_addr = broker_data.broker_addrs.begin()->second;
      break;
    }
  }
  return list;
}

// Java: getUnitTopics and its siblings test only a topic's first QueueData.
TopicList RouteInfoManager::topic_list_by_first_queue_data(bool (*pick)(int)) const {
  TopicList list;
  for (const auto& [topic, queue_data_map] : topic_queue_table_) {
    if (!queue_data_map.empty() && pick(queue_data_map.begin()->second.topic_sys_flag)) {
      list.topic_list.insert(topic);
    }
  }
  return list;
}

TopicList RouteInfoManager::get_unit_topics() const {
  return topic_list_by_first_queue_data([](int flag) { return topic_sys_flag::has_unit(flag); });
}

TopicList RouteInfoManager::get_has_unit_sub_topic_list() const {
  return topic_list_by_first_queue_data(
      [](int flag) { return topic_sys_flag::has_unit_sub(flag); });
}

TopicList RouteInfoManager::get_has_unit_sub_un_unit_topic_list() const {
  return topic_list_by_first_queue_data([](int flag) {
    return !topic_sys_flag::has_unit(flag) && topic_sys_flag::has_unit_sub(flag);
  });
}

// Java 5.x: getBrokerMemberGroup. The cluster name is echoed, not checked.
BrokerMemberGroup RouteInfoManager::get_broker_member_group(const std::string& cluster_name,
                                                            const std::string& broker_name) const {
  BrokerMemberGroup group{cluster_name, broker_name, {}};
  auto broker_data = broker_addr_table_.find(broker_name);
  if (broker_data != broker_addr_table_.end())
    group.broker_addrs = broker_data->second.broker_addrs;
  return group;
}

}  // namespace nssim::core

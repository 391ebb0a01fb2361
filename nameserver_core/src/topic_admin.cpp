// File: the administrative mutations of RouteInfoManager: write-permission wipe and restore,
// topic deletion and 5.x's REGISTER_TOPIC_IN_NAMESRV. None of them is persisted.
#include <iterator>

#include "nameserver_core/route_info_manager.h"

namespace nssim::core {

// Java: operateWritePermOfBroker. Wipe clears WRITE only; add sets READ|WRITE and drops the rest.
int RouteInfoManager::operate_write_perm_of_broker(const std::string& broker_name, bool wipe) {
  int topic_count = 0;
  for (auto& [topic, queue_data_map] : topic_queue_table_) {
    auto queue_data = queue_data_map.find(broker_name);
    if (queue_data == queue_data_map.end()) continue;
    int& p = queue_data->second.perm;
    const int new_perm = wipe ? (p & ~perm::kWrite) : (perm::kRead | perm::kWrite);
    if (new_perm != p) note_route_change();
    p = new_perm;
    ++topic_count;
  }
  return topic_count;
}

int RouteInfoManager::wipe_write_perm_of_broker_by_lock(const std::string& broker_name) {
  return operate_write_perm_of_broker(broker_name, /*wipe=*/true);
}

int RouteInfoManager::add_write_perm_of_broker_by_lock(const std::string& broker_name) {
  return operate_write_perm_of_broker(broker_name, /*wipe=*/false);
}

void RouteInfoManager::delete_topic(const std::string& topic) {
  if (topic_queue_table_.erase(topic) != 0) note_route_change();
}

// Java: deleteTopic(topic, clusterName). Removes the cluster's groups from the topic.
void RouteInfoManager::delete_topic(const std::string& topic, const std::string& cluster_name) {
  auto broker_names = cluster_addr_table_.find(cluster_name);
  if (broker_names == cluster_addr_table_.end() || broker_names->second.empty()) return;
  auto queue_data_map = topic_queue_table_.find(topic);
  if (queue_data_map == topic_queue_table_.end()) return;
  for (const auto& broker_name : broker_names->second) {
    if (queue_data_map->second.erase(broker_name) != 0) note_route_change();
  }
  if (queue_data_map->second.empty()) topic_queue_table_.erase(queue_data_map);
}

// Java 5.x: registerTopic. Stops at the first QueueData of an unknown group, keeping those put
// before it (a new topic is only added once every QueueData passed).
void RouteInfoManager::register_topic(const std::string& topic,
                                      const std::vector<QueueData>& queue_datas) {
  if (queue_datas.empty()) return;
  auto existing = topic_queue_table_.find(topic);
  if (existing != topic_queue_table_.end()) {
    for (const auto& queue_data : queue_datas) {
      if (broker_addr_table_.count(queue_data.broker_name) == 0) return;
      put_queue_data(existing->second, queue_data);
    }
    return;
  }
  std::map<std::string, QueueData> queue_data_map;
  for (const auto& queue_data : queue_datas) {
    if (broker_addr_table_.count(queue_data.broker_name) == 0) return;
    queue_data_map[queue_data.broker_name] = queue_data;
  }
  topic_queue_table_.emplace(topic, std::move(queue_data_map));
  note_route_change();
}

}  // namespace nssim::core

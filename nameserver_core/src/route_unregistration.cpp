// File: the removal side of RouteInfoManager: 4.9's synchronous unregisterBroker (by id), 5.x's
// batched unRegisterBroker (by address) behind the bounded BatchUnregistrationService queue, and
// the topic clean-up both need.
#include <iterator>

#include "nameserver_core/route_info_manager.h"

namespace nssim::core {

const char* removal_path_name(RemovalPath path) {
  switch (path) {
    case RemovalPath::kUnregisterRequest:
      return "unregister";
    case RemovalPath::kChannelClose:
      return "connection_close";
    case RemovalPath::kChannelIdle:
      return "idle_close";
    case RemovalPath::kChannelException:
      return "connection_exception";
    case RemovalPath::kScanExpiry:
      return "scan_expiry";
  }
  return "unknown";
}

std::vector<BrokerRemoval> RouteInfoManager::unregister_broker(
    const UnregisterBrokerRequest& request, RemovalPath path) {
  if (profile_ == Profile::kV4_9) return unregister_broker_v4(request, path);
  // Java 5.x: unregisterBroker wraps the header into a set of one and runs the batch at once.
  return un_register_broker_batch({PendingUnregistration{request, path}});
}

// Java 4.9.8: RouteInfoManager#unregisterBroker. The address entry is removed by id, whatever
// address it holds now: a late unregister of an old master deletes a new master at id 0.
std::vector<BrokerRemoval> RouteInfoManager::unregister_broker_v4(
    const UnregisterBrokerRequest& request, RemovalPath path) {
  BrokerRemoval removal{request.cluster_name, request.broker_addr, request.broker_name, path};
  removal.removed_live_entry = broker_live_table_.erase(live_key("", request.broker_addr)) != 0;
  erase_filter_servers(live_key("", request.broker_addr));

  auto broker_data = broker_addr_table_.find(request.broker_name);
  if (broker_data != broker_addr_table_.end()) {
    removal.removed_addr_entry = broker_data->second.broker_addrs.erase(request.broker_id) != 0;
    if (broker_data->second.broker_addrs.empty()) {
      broker_addr_table_.erase(broker_data);
      removal.removed_broker_name = true;
    }
    if (removal.removed_addr_entry || removal.removed_broker_name) note_broker_addr_change();
  }
  if (removal.removed_broker_name) {
    erase_cluster_member(request.cluster_name, request.broker_name);
    remove_topic_by_broker_name(request.broker_name);
  }
  return {removal};
}

bool RouteInfoManager::submit_unregister_broker_request(const UnregisterBrokerRequest& request,
                                                        RemovalPath path) {
  if (unregister_queue_.size() >= unregister_queue_capacity_) return false;  // offer() failed
  unregister_queue_.push_back(PendingUnregistration{request, path});
  return true;
}

// Java 5.x: BatchUnregistrationService#run takes one request, drains the rest into a HashSet and
// hands the set over. The set's hash order is replaced by arrival order here.
std::vector<BrokerRemoval> RouteInfoManager::process_pending_unregistrations() {
  if (unregister_queue_.empty()) return {};
  std::vector<PendingUnregistration> batch(unregister_queue_.begin(), unregister_queue_.end());
  unregister_queue_.clear();
  return un_register_broker_batch(batch);
}

// Java 5.3.3: RouteInfoManager#unRegisterBroker(Set). Address entries are removed by address.
std::vector<BrokerRemoval> RouteInfoManager::un_register_broker_batch(
    const std::vector<PendingUnregistration>& batch) {
  std::vector<BrokerRemoval> removals;
  std::set<std::string> removed_broker;
  std::set<std::string> reduced_broker;
  std::map<std::string, std::string>
      to_notify;  // brokerName -> offline address (needNotifyBrokerMap)

  for (const auto& [request, path] : batch) {
    BrokerRemoval removal{request.cluster_name, request.broker_addr, request.broker_name, path};
    const auto key = live_key(request.cluster_name, request.broker_addr);
    removal.removed_live_entry = broker_live_table_.erase(key) != 0;
    erase_filter_servers(key);

    auto broker_data = broker_addr_table_.find(request.broker_name);
    if (broker_data != broker_addr_table_.end()) {
      auto& addrs = broker_data->second.broker_addrs;
      const bool is_min_broker_id_changed =
          !addrs.empty() && request.broker_id == addrs.begin()->first;
      for (auto it = addrs.begin(); it != addrs.end();) {
        if (it->second == request.broker_addr) {
          removal.removed_addr_entry = true;
          it = addrs.erase(it);
        } else {
          ++it;
        }
      }
      if (addrs.empty()) {
        broker_addr_table_.erase(broker_data);
        removal.removed_broker_name = true;
      } else if (is_min_broker_id_changed) {
        to_notify[request.broker_name] = request.broker_addr;
      }
      if (removal.removed_addr_entry || removal.removed_broker_name) note_broker_addr_change();
    }

    if (removal.removed_broker_name) {
      erase_cluster_member(request.cluster_name, request.broker_name);
      removed_broker.insert(request.broker_name);
    } else {
      reduced_broker.insert(request.broker_name);
    }
    removals.push_back(std::move(removal));
  }

  clean_topic_by_un_register_requests(removed_broker, reduced_broker);

  if (config_.notify_min_broker_id_changed) {
    // Java keeps a reference to the group's live address map, so the notice shows it as it is now.
    for (const auto& [broker_name, offline_addr] : to_notify) {
      auto broker_data = broker_addr_table_.find(broker_name);
      if (broker_data == broker_addr_table_.end() || !broker_data->second.enable_acting_master) {
        continue;
      }
      notice_min_broker_id_changed(broker_data->second.broker_addrs, offline_addr, std::nullopt);
    }
  }
  return removals;
}

// Java 5.3.3: cleanTopicByUnRegisterRequests. A group left without a master in acting-master mode
// loses the write bit on its topics.
void RouteInfoManager::clean_topic_by_un_register_requests(
    const std::set<std::string>& removed_broker, const std::set<std::string>& reduced_broker) {
  for (auto it = topic_queue_table_.begin(); it != topic_queue_table_.end();) {
    auto& queue_data_map = it->second;
    for (const auto& broker_name : removed_broker) {
      if (queue_data_map.erase(broker_name) != 0) note_route_change();
    }

    for (const auto& broker_name : reduced_broker) {
      auto queue_data = queue_data_map.find(broker_name);
      if (queue_data == queue_data_map.end()) continue;
      auto broker_data = broker_addr_table_.find(broker_name);
      // Java dereferences brokerAddrTable.get(name) here; a missing one throws and the catch
      // abandons the rest of the clean-up.
      if (broker_data == broker_addr_table_.end()) return;
      if (broker_data->second.enable_acting_master && is_no_master_exists(broker_name) &&
          perm::is_writeable(queue_data->second.perm)) {
        queue_data->second.perm &= ~perm::kWrite;
        note_route_change();
      }
    }
    it = queue_data_map.empty() ? topic_queue_table_.erase(it) : std::next(it);
  }
}

bool RouteInfoManager::is_no_master_exists(const std::string& broker_name) const {
  auto broker_data = broker_addr_table_.find(broker_name);
  if (broker_data == broker_addr_table_.end()) return true;
  const auto& addrs = broker_data->second.broker_addrs;
  return addrs.empty() || addrs.begin()->first > 0;
}

// Java 4.9.8: removeTopicByBrokerName.
void RouteInfoManager::remove_topic_by_broker_name(const std::string& broker_name) {
  for (auto it = topic_queue_table_.begin(); it != topic_queue_table_.end();) {
    if (it->second.erase(broker_name) != 0) note_route_change();
    it = it->second.empty() ? topic_queue_table_.erase(it) : std::next(it);
  }
}

// Java: the clusterAddrTable clean-up of unregisterBroker and unRegisterBroker(Set).
void RouteInfoManager::erase_cluster_member(const std::string& cluster_name,
                                            const std::string& broker_name) {
  auto name_set = cluster_addr_table_.find(cluster_name);
  if (name_set == cluster_addr_table_.end()) return;
  bool changed = name_set->second.erase(broker_name) != 0;
  if (name_set->second.empty()) {
    cluster_addr_table_.erase(name_set);
    changed = true;
  }
  if (changed) note_cluster_addr_change();
}

}  // namespace nssim::core

// File: the write side of RouteInfoManager that brokers drive: registerBroker for 4.9 and 5.x,
// the data-version helpers and createAndUpdateQueueData.
#include <algorithm>
#include <iterator>
#include <utility>

#include "nameserver_core/route_info_manager.h"

namespace nssim::core {

namespace {

std::int64_t min_broker_id(const std::map<std::int64_t, std::string>& broker_addrs) {
  return broker_addrs.begin()->first;  // callers check non-empty; the map is ordered by id
}

// Java: brokerAddrsMap.entrySet().removeIf(same address, other id). True when one went.
bool remove_same_addr_other_id(BrokerData& broker_data, const std::string& broker_addr,
                               std::int64_t broker_id) {
  auto& addrs = broker_data.broker_addrs;
  bool removed = false;
  for (auto it = addrs.begin(); it != addrs.end();) {
    const bool same_addr_other_id = it->second == broker_addr && it->first != broker_id;
    removed = removed || same_addr_other_id;
    it = same_addr_other_id ? addrs.erase(it) : std::next(it);
  }
  return removed;
}

}  // namespace

RouteInfoManager::RouteInfoManager(Profile profile, const NamesrvConfig& config)
    : profile_(profile),
      config_(config),
      unregister_queue_capacity_(
          static_cast<std::size_t>(std::max(0, config.un_register_broker_queue_capacity))) {}

BrokerAddrInfo RouteInfoManager::live_key(const std::string& cluster_name,
                                          const std::string& broker_addr) const {
  return profile_ == Profile::kV4_9 ? BrokerAddrInfo{"", broker_addr}
                                    : BrokerAddrInfo{cluster_name, broker_addr};
}

std::optional<RegisterBrokerResult> RouteInfoManager::register_broker(RegisterBrokerRequest request,
                                                                      std::int64_t now_ms) {
  return profile_ == Profile::kV4_9 ? register_broker_v4(request, now_ms)
                                    : register_broker_v5(request, now_ms);
}

// Java: RouteInfoManager#registerBroker, from its clusterAddrTable update to the BrokerData it
// finds or puts into brokerAddrTable (the same lines in 4.9.8 and 5.3.3).
BrokerData& RouteInfoManager::find_or_add_broker_data(const RegisterBrokerRequest& request,
                                                      bool& register_first) {
  insert_cluster_member(request.cluster_name, request.broker_name);
  auto found = broker_addr_table_.find(request.broker_name);
  if (found == broker_addr_table_.end()) {
    register_first = true;
    found =
        broker_addr_table_
            .emplace(request.broker_name,
                     BrokerData{request.cluster_name, request.broker_name, {}, std::nullopt, false})
            .first;
    note_broker_addr_change();
  }
  return found->second;
}

// Java 4.9.8: RouteInfoManager#registerBroker.
std::optional<RegisterBrokerResult> RouteInfoManager::register_broker_v4(
    RegisterBrokerRequest& request, std::int64_t now_ms) {
  bool register_first = false;
  BrokerData& broker_data = find_or_add_broker_data(request, register_first);
  if (remove_same_addr_other_id(broker_data, request.broker_addr, request.broker_id)) {
    note_broker_addr_change();
    reindex_broker_addr(request.broker_name, &broker_data, request.broker_addr);
  }

  register_first = register_first || broker_data.broker_addrs.count(request.broker_id) == 0;
  put_broker_addr(broker_data, request.broker_id, request.broker_addr);

  const auto& wrapper = request.topic_config_wrapper;
  if (wrapper && request.broker_id == kMasterId &&
      (is_broker_topic_config_changed("", request.broker_addr, wrapper->data_version) ||
       register_first)) {
    for (const auto& [key, topic_config] : wrapper->topic_config_table) {
      create_and_update_queue_data(request.broker_name, topic_config);
    }
  }

  // Java dereferences the wrapper here; a null one throws, the catch returns the empty result.
  if (!wrapper) return RegisterBrokerResult{};
  put_live(live_key(request.cluster_name, request.broker_addr),
           BrokerLiveInfo{now_ms, kDefaultBrokerChannelExpiredTimeMs, wrapper->data_version,
                          request.channel, request.ha_server_addr});

  put_filter_servers(live_key(request.cluster_name, request.broker_addr),
                     request.filter_server_list);
  return slave_result(broker_data, request.cluster_name, request.broker_id);
}

// Java 5.3.3: RouteInfoManager#registerBroker (the 11-argument overload).
std::optional<RegisterBrokerResult> RouteInfoManager::register_broker_v5(
    RegisterBrokerRequest& request, std::int64_t now_ms) {
  bool register_first = false;
  BrokerData& broker_data = find_or_add_broker_data(request, register_first);
  const bool is_old_version_broker = !request.enable_acting_master.has_value();
  const bool enable_acting_master = !is_old_version_broker && *request.enable_acting_master;
  if (broker_data.enable_acting_master != enable_acting_master ||
      broker_data.zone_name != request.zone_name) {
    broker_data.enable_acting_master = enable_acting_master;
    broker_data.zone_name = request.zone_name;
    note_broker_addr_change();
  }

  auto& addrs = broker_data.broker_addrs;
  const std::int64_t prev_min_broker_id = addrs.empty() ? 0 : min_broker_id(addrs);
  const bool is_min_broker_id_changed = request.broker_id < prev_min_broker_id;

  if (remove_same_addr_other_id(broker_data, request.broker_addr, request.broker_id)) {
    note_broker_addr_change();
    reindex_broker_addr(request.broker_name, &broker_data, request.broker_addr);
  }

  const auto& wrapper = request.topic_config_wrapper;
  auto old_slot = addrs.find(request.broker_id);
  if (old_slot != addrs.end() && old_slot->second != request.broker_addr) {
    auto old_live = broker_live_table_.find(live_key(request.cluster_name, old_slot->second));
    if (old_live != broker_live_table_.end()) {
      if (!wrapper) return RegisterBrokerResult{};  // Java: NPE on the wrapper, caught
      if (old_live->second.data_version.state_version > wrapper->data_version.state_version) {
        // A registration older than the holder of this id is rejected; only its live entry goes.
        erase_live(live_key(request.cluster_name, request.broker_addr));
        return RegisterBrokerResult{};
      }
    }
  }

  if (old_slot == addrs.end()) {
    if (!wrapper) return RegisterBrokerResult{};  // Java: NPE on the wrapper, caught
    if (wrapper->topic_config_table.size() == 1) return std::nullopt;  // single-topic guard
  }

  // Java: registerFirst |= StringUtils.isEmpty(oldAddr).
  register_first = register_first || old_slot == addrs.end() || old_slot->second.empty();
  put_broker_addr(broker_data, request.broker_id, request.broker_addr);

  const bool is_master = request.broker_id == kMasterId;
  const bool is_prime_slave =
      !is_old_version_broker && !is_master && request.broker_id == min_broker_id(addrs);
  if (wrapper && (is_master || is_prime_slave)) {
    register_topics_v5(request, broker_data, register_first, is_prime_slave);
  }

  const auto key = live_key(request.cluster_name, request.broker_addr);
  put_live(key, BrokerLiveInfo{
                    now_ms,
                    request.heartbeat_timeout_millis.value_or(kDefaultBrokerChannelExpiredTimeMs),
                    wrapper ? wrapper->data_version : DataVersion{now_ms, 0, 0}, request.channel,
                    request.ha_server_addr});

  put_filter_servers(key, request.filter_server_list);

  RegisterBrokerResult result = slave_result(broker_data, request.cluster_name, request.broker_id);
  if (is_min_broker_id_changed && config_.notify_min_broker_id_changed) {
    notice_min_broker_id_changed(addrs, std::nullopt, broker_live_table_.at(key).ha_server_addr);
  }
  return result;
}

// Java 5.3.3: the topic part of registerBroker, for a master or a prime slave.
void RouteInfoManager::register_topics_v5(const RegisterBrokerRequest& request,
                                          BrokerData& broker_data, bool register_first,
                                          bool is_prime_slave) {
  const TopicConfigSerializeWrapper& wrapper = *request.topic_config_wrapper;
  const auto& table = wrapper.topic_config_table;

  if (config_.delete_topic_with_broker_registration &&
      wrapper.topic_queue_mapping_info_map.empty()) {
    for (auto it = topic_queue_table_.begin(); it != topic_queue_table_.end();) {
      auto& queue_data_map = it->second;
      if (queue_data_map.count(request.broker_name) != 0 && table.count(it->first) == 0) {
        queue_data_map.erase(request.broker_name);
        note_route_change();
      }
      it = queue_data_map.empty() ? topic_queue_table_.erase(it) : std::next(it);
    }
  }

  // Java asks isTopicConfigChanged per topic; its broker-level part reads only the live table,
  // which this loop does not touch, so it is asked once.
  const bool broker_changed =
      register_first || is_broker_topic_config_changed(request.cluster_name, request.broker_addr,
                                                       wrapper.data_version);
  for (const auto& [key, original] : table) {
    if (!broker_changed) {
      auto queue_data_map = topic_queue_table_.find(original.topic_name);
      const bool missing = queue_data_map == topic_queue_table_.end() ||
                           queue_data_map->second.count(request.broker_name) == 0;
      if (!missing) continue;
    }
    TopicConfig topic_config = original;
    if (is_prime_slave && broker_data.enable_acting_master) {
      topic_config.perm &= ~perm::kWrite;  // the acting master is read-only
    }
    create_and_update_queue_data(request.broker_name, topic_config);
  }

  if (broker_changed) {
    for (const auto& [topic, mapping] : wrapper.topic_queue_mapping_info_map) {
      auto [slot, inserted] = topic_queue_mapping_info_table_[topic].try_emplace(mapping.bname);
      if (inserted || slot->second.json != mapping.json) {
        slot->second = mapping;
        note_route_change();
      }
    }
  }
}

RegisterBrokerResult RouteInfoManager::slave_result(const BrokerData& broker_data,
                                                    const std::string& cluster_name,
                                                    std::int64_t broker_id) const {
  RegisterBrokerResult result;
  if (broker_id == kMasterId) return result;
  auto master = broker_data.broker_addrs.find(kMasterId);
  if (master == broker_data.broker_addrs.end()) return result;
  auto live = broker_live_table_.find(live_key(cluster_name, master->second));
  if (live == broker_live_table_.end()) return result;
  result.ha_server_addr = live->second.ha_server_addr;
  result.master_addr = master->second;
  return result;
}

std::optional<DataVersion> RouteInfoManager::query_broker_topic_config(
    const std::string& cluster_name, const std::string& broker_addr) const {
  auto live = broker_live_table_.find(live_key(cluster_name, broker_addr));
  if (live == broker_live_table_.end()) return std::nullopt;
  return live->second.data_version;
}

bool RouteInfoManager::is_broker_topic_config_changed(
    const std::string& cluster_name, const std::string& broker_addr,
    const std::optional<DataVersion>& data_version) const {
  auto prev = query_broker_topic_config(cluster_name, broker_addr);
  return !prev || !data_version || !data_version_equals(*prev, *data_version, profile_);
}

// Java 5.x: isTopicConfigChanged. Also true when the topic, or this broker in it, is missing.
bool RouteInfoManager::is_topic_config_changed(const std::string& cluster_name,
                                               const std::string& broker_addr,
                                               const DataVersion& data_version,
                                               const std::string& broker_name,
                                               const std::string& topic) const {
  if (is_broker_topic_config_changed(cluster_name, broker_addr, data_version)) return true;
  auto queue_data_map = topic_queue_table_.find(topic);
  if (queue_data_map == topic_queue_table_.end() || queue_data_map->second.empty()) return true;
  return queue_data_map->second.count(broker_name) == 0;
}

// Java 4.9.8: the timestamp is the caller's (tests pass 0); 5.x: always "now". One signature.
void RouteInfoManager::update_broker_info_update_timestamp(const std::string& cluster_name,
                                                           const std::string& broker_addr,
                                                           std::int64_t now_ms) {
  touch_live(live_key(cluster_name, broker_addr), now_ms);
}

// Java: createAndUpdateQueueData. 4.9 always puts, 5.x puts only when absent or different; the
// resulting table is the same either way.
void RouteInfoManager::create_and_update_queue_data(const std::string& broker_name,
                                                    const TopicConfig& topic_config) {
  put_queue_data(topic_queue_table_[topic_config.topic_name],
                 QueueData{broker_name, topic_config.read_queue_nums, topic_config.write_queue_nums,
                           topic_config.perm, topic_config.topic_sys_flag});
}

void RouteInfoManager::put_queue_data(std::map<std::string, QueueData>& queue_data_map,
                                      const QueueData& queue_data) {
  auto [slot, inserted] = queue_data_map.try_emplace(queue_data.broker_name, queue_data);
  if (!inserted) {
    if (slot->second == queue_data) return;
    slot->second = queue_data;
  }
  note_route_change();
}

void RouteInfoManager::put_broker_addr(BrokerData& broker_data, std::int64_t broker_id,
                                       const std::string& broker_addr) {
  auto [slot, inserted] = broker_data.broker_addrs.try_emplace(broker_id, broker_addr);
  if (!inserted) {
    if (slot->second == broker_addr) return;
    const std::string old_addr = std::exchange(slot->second, broker_addr);
    reindex_broker_addr(broker_data.broker_name, &broker_data, old_addr);
  }
  reindex_broker_addr(broker_data.broker_name, &broker_data, broker_addr);
  note_broker_addr_change();
}

// An empty list clears the entry, as Java's registerBroker does; no list leaves it.
void RouteInfoManager::put_filter_servers(
    const BrokerAddrInfo& key, const std::optional<FilterServerList>& filter_server_list) {
  if (!filter_server_list) return;
  if (filter_server_list->empty()) return erase_filter_servers(key);
  auto [slot, inserted] = filter_server_table_.try_emplace(key, *filter_server_list);
  if (!inserted) {
    if (slot->second == *filter_server_list) return;
    slot->second = *filter_server_list;
  }
  note_route_change();
}

void RouteInfoManager::erase_filter_servers(const BrokerAddrInfo& key) {
  if (filter_server_table_.erase(key) != 0) note_route_change();
}

void RouteInfoManager::insert_cluster_member(const std::string& cluster_name,
                                             const std::string& broker_name) {
  if (cluster_addr_table_[cluster_name].insert(broker_name).second) note_cluster_addr_change();
}

void RouteInfoManager::notice_min_broker_id_changed(
    const std::map<std::int64_t, std::string>& broker_addrs,
    const std::optional<std::string>& offline_broker_addr,
    const std::optional<std::string>& ha_broker_addr) {
  if (broker_addrs.empty()) return;
  MinBrokerIdChangeNotice notice;
  notice.min_broker_id = min_broker_id(broker_addrs);
  notice.min_broker_addr = broker_addrs.begin()->second;
  notice.offline_broker_addr = offline_broker_addr;
  notice.ha_broker_addr = ha_broker_addr;
  // Java: chooseBrokerAddrsToNotify.
  for (const auto& [id, addr] : broker_addrs) {
    if (offline_broker_addr || broker_addrs.size() == 1 || id != notice.min_broker_id) {
      notice.notify_addrs.push_back(addr);
    }
  }
  min_broker_id_notices_.push_back(std::move(notice));
}

std::vector<MinBrokerIdChangeNotice> RouteInfoManager::take_min_broker_id_notices() {
  return std::exchange(min_broker_id_notices_, {});
}

}  // namespace nssim::core

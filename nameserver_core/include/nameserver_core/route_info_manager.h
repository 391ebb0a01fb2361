// File: RouteInfoManager, the NameServer's route registry, for 4.9.x and 5.x behaviour.
// Not thread-safe: callers serialize every call (Java guards the tables with one read-write
// lock). Time comes in as milliseconds; connections are opaque ids; effects such as channels to
// close or brokers removed are returned, never performed.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "nameserver_core/ids.h"
#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"
#include "nameserver_core/route_types.h"

namespace nssim::core {

// Java: RouteInfoManager.BROKER_CHANNEL_EXPIRED_TIME (4.9), DEFAULT_BROKER_CHANNEL_EXPIRED_TIME
// (5.x).
inline constexpr std::int64_t kDefaultBrokerChannelExpiredTimeMs = 120000;

// Java: BrokerAddrInfo (5.x). 4.9 keys liveness by address only; there the cluster is empty.
struct BrokerAddrInfo {
  std::string cluster_name;
  std::string broker_addr;

  friend bool operator<(const BrokerAddrInfo& a, const BrokerAddrInfo& b) {
    return a.cluster_name != b.cluster_name ? a.cluster_name < b.cluster_name
                                            : a.broker_addr < b.broker_addr;
  }
  friend bool operator==(const BrokerAddrInfo& a, const BrokerAddrInfo& b) {
    return a.cluster_name == b.cluster_name && a.broker_addr == b.broker_addr;
  }
};

// Java: BrokerLiveInfo.
struct BrokerLiveInfo {
  std::int64_t last_update_timestamp = 0;
  std::int64_t heartbeat_timeout_millis = kDefaultBrokerChannelExpiredTimeMs;  // 5.x
  DataVersion data_version;
  ConnectionId channel;
  std::optional<std::string> ha_server_addr;
};

// The arguments of RouteInfoManager#registerBroker. Optional fields are those Java may pass null.
struct RegisterBrokerRequest {
  std::string cluster_name;
  std::string broker_addr;
  std::string broker_name;
  std::int64_t broker_id = kMasterId;
  std::optional<std::string> ha_server_addr;
  std::optional<std::string> zone_name;                  // 5.x
  std::optional<std::int64_t> heartbeat_timeout_millis;  // 5.x; null means 120 s
  std::optional<bool> enable_acting_master;              // 5.x; null marks a 4.x broker
  std::optional<TopicConfigSerializeWrapper> topic_config_wrapper;
  std::optional<FilterServerList> filter_server_list;
  ConnectionId channel;
};

// Java: UnRegisterBrokerRequestHeader.
struct UnregisterBrokerRequest {
  std::string cluster_name;
  std::string broker_addr;
  std::string broker_name;
  std::int64_t broker_id = kMasterId;
};

// Why the NameServer dropped a broker address. Upstream has no such tag; the core carries it
// alongside requests (also through the 5.x batch queue) so that a run can say which path won.
enum class RemovalPath {
  kUnregisterRequest,
  kChannelClose,
  kChannelIdle,
  kChannelException,
  kScanExpiry
};
const char* removal_path_name(RemovalPath path);

// One address the registry dropped, and how far the removal went.
struct BrokerRemoval {
  std::string cluster_name;
  std::string broker_addr;
  std::string broker_name;  // empty when no BrokerData listed the address
  RemovalPath path = RemovalPath::kUnregisterRequest;
  bool removed_live_entry = false;   // brokerLiveTable lost the address
  bool removed_addr_entry = false;   // brokerAddrTable's BrokerData lost the address
  bool removed_broker_name = false;  // the whole BrokerData (and its QueueData) went
};

// Java: RouteInfoManager#notifyMinBrokerIdChanged, returned instead of sent (5.x, only when
// notifyMinBrokerIdChanged is set). The caller sends NOTIFY_MIN_BROKER_ID_CHANGE oneway.
struct MinBrokerIdChangeNotice {
  std::int64_t min_broker_id = 0;
  std::string min_broker_addr;
  std::optional<std::string> offline_broker_addr;
  std::optional<std::string> ha_broker_addr;
  std::vector<std::string> notify_addrs;
};

// What one scanNotActiveBroker run did. In 4.9 the removals happen inline; in 5.x they are queued
// (see process_pending_unregistrations) and `removals` stays empty.
struct ScanResult {
  std::vector<ConnectionId> channels_to_close;
  std::vector<BrokerAddrInfo> expired;
  std::vector<BrokerRemoval> removals;
};

using TopicQueueTable = std::map<std::string, std::map<std::string, QueueData>>;
using BrokerAddrTable = std::map<std::string, BrokerData>;
using ClusterAddrTable = std::map<std::string, std::set<std::string>>;
using BrokerLiveTable = std::map<BrokerAddrInfo, BrokerLiveInfo>;
using FilterServerTable = std::map<BrokerAddrInfo, FilterServerList>;
using TopicQueueMappingInfoTable =
    std::map<std::string, std::map<std::string, TopicQueueMappingInfo>>;

class RouteInfoManager {
 public:
  // `config` is read on every call, as Java reads NamesrvConfig, so UPDATE_NAMESRV_CONFIG takes
  // effect at once; it must outlive the manager. The unregister queue's capacity is fixed here.
  RouteInfoManager(Profile profile, const NamesrvConfig& config);

  Profile profile() const { return profile_; }
  const NamesrvConfig& config() const { return config_; }

  // --- write side (route_registration.cpp) ---
  // Java: registerBroker. nullopt is Java's null (5.x single-topic guard: "register broker
  // failed").
  std::optional<RegisterBrokerResult> register_broker(RegisterBrokerRequest request,
                                                      std::int64_t now_ms);
  // Java: queryBrokerTopicConfig / isBrokerTopicConfigChanged / updateBrokerInfoUpdateTimestamp.
  std::optional<DataVersion> query_broker_topic_config(const std::string& cluster_name,
                                                       const std::string& broker_addr) const;
  bool is_broker_topic_config_changed(const std::string& cluster_name,
                                      const std::string& broker_addr,
                                      const std::optional<DataVersion>& data_version) const;
  void update_broker_info_update_timestamp(const std::string& cluster_name,
                                           const std::string& broker_addr, std::int64_t now_ms);
  // Java 5.x: isTopicConfigChanged (public upstream). Also true when the topic, or this broker in
  // it, is missing, which is why 5.x re-adds topics deleted only on the NameServer.
  bool is_topic_config_changed(const std::string& cluster_name, const std::string& broker_addr,
                               const DataVersion& data_version, const std::string& broker_name,
                               const std::string& topic) const;

  // --- unregistration (route_unregistration.cpp) ---
  // Java: unregisterBroker. 4.9: by id, at once. 5.x: the synchronous batch of one request.
  std::vector<BrokerRemoval> unregister_broker(const UnregisterBrokerRequest& request,
                                               RemovalPath path);
  // Java 5.x: submitUnRegisterBrokerRequest. False when unRegisterBrokerQueueCapacity is reached.
  bool submit_unregister_broker_request(const UnregisterBrokerRequest& request, RemovalPath path);
  std::size_t pending_unregistrations() const { return unregister_queue_.size(); }
  // Java 5.x: BatchUnregistrationService#run, one drain of everything queued, in arrival order.
  std::vector<BrokerRemoval> process_pending_unregistrations();

  // --- liveness (broker_liveness.cpp) ---
  // Java: scanNotActiveBroker. Expired means last + timeout < now (strict).
  ScanResult scan_not_active_broker(std::int64_t now_ms);
  // Java: onChannelDestroy. `remote_addr` is the socket peer address, used by 4.9 when the channel
  // matches no live entry (5.x ignores it). 5.x queues the removal.
  std::vector<BrokerRemoval> on_channel_destroy(ConnectionId channel,
                                                const std::string& remote_addr, RemovalPath path);

  // --- topic administration (topic_admin.cpp) ---
  int wipe_write_perm_of_broker_by_lock(const std::string& broker_name);
  int add_write_perm_of_broker_by_lock(const std::string& broker_name);
  void delete_topic(const std::string& topic);
  void delete_topic(const std::string& topic, const std::string& cluster_name);
  void register_topic(const std::string& topic, const std::vector<QueueData>& queue_datas);  // 5.x

  // --- read side (route_queries.cpp) ---
  // Java: pickupTopicRouteData, which builds a new TopicRouteData per call; nullptr is its null.
  // Here a topic's route is built once and shared, immutable, until route_change_count moves or
  // supportActingMaster is switched. No caller can tell a shared immutable value from Java's
  // fresh one; a caller that changes the route copies it first.
  std::shared_ptr<const TopicRouteData> pickup_topic_route_data(const std::string& topic) const;
  // Java: getAllClusterInfo. Built once and shared until cluster_info_change_count moves.
  std::shared_ptr<const ClusterInfo> get_all_cluster_info() const;
  TopicList get_all_topic_list() const;
  TopicList get_topics_by_cluster(const std::string& cluster) const;
  TopicList get_system_topic_list() const;
  TopicList get_unit_topics() const;
  TopicList get_has_unit_sub_topic_list() const;
  TopicList get_has_unit_sub_un_unit_topic_list() const;
  BrokerMemberGroup get_broker_member_group(const std::string& cluster_name,
                                            const std::string& broker_name) const;  // 5.x

  // Change counters, for callers that skip work while nothing they would show changed. Neither
  // moves when only brokerLiveTable changes (heartbeat timestamps, DataVersion, channels): a
  // re-registration with an unchanged DataVersion leaves both where they were.
  // route_change_count moves when a table pickup_topic_route_data reads changes content
  // (topicQueueTable, brokerAddrTable, filterServerTable, topicQueueMappingInfoTable); it may also
  // move for a group no route lists. It does not cover what is read per call: NamesrvConfig's
  // supportActingMaster, and what the NameServer adds around the route (orderTopicConf from the
  // KV config, waitSecondsForService).
  std::uint64_t route_change_count() const { return route_changes_; }
  // Moves when brokerAddrTable or clusterAddrTable changes content: what getAllClusterInfo shows.
  std::uint64_t cluster_info_change_count() const { return cluster_info_changes_; }

  // Notices gathered since the last call (5.x notifyMinBrokerIdChanged).
  std::vector<MinBrokerIdChangeNotice> take_min_broker_id_notices();

  // Read-only views of the tables, for tests, reports and the simulator's checks.
  const TopicQueueTable& topic_queue_table() const { return topic_queue_table_; }
  const BrokerAddrTable& broker_addr_table() const { return broker_addr_table_; }
  const ClusterAddrTable& cluster_addr_table() const { return cluster_addr_table_; }
  const BrokerLiveTable& broker_live_table() const { return broker_live_table_; }
  const FilterServerTable& filter_server_table() const { return filter_server_table_; }
  const TopicQueueMappingInfoTable& topic_queue_mapping_info_table() const {
    return topic_queue_mapping_info_table_;
  }

 private:
  struct PendingUnregistration {
    UnregisterBrokerRequest request;
    RemovalPath path;
  };

  // The routes built so far, valid while the counter and the setting they were built under hold.
  // Only topics in topicQueueTable are kept (nullptr when it lists no known group), so requests
  // for unknown topics do not grow it. Never iterated, so its hash order reaches no output.
  struct RouteCache {
    std::uint64_t route_change_count = 0;
    bool support_acting_master = false;
    std::unordered_map<std::string, std::shared_ptr<const TopicRouteData>> routes;
  };

  // route_indexes.cpp: every brokerLiveTable write goes through these, so the indexes hold.
  std::int64_t expiry_deadline(const BrokerLiveInfo& live) const;
  void index_live(const BrokerAddrInfo& key, const BrokerLiveInfo& live);
  void unindex_live(const BrokerAddrInfo& key, const BrokerLiveInfo& live);
  void put_live(const BrokerAddrInfo& key, BrokerLiveInfo live);
  bool erase_live(const BrokerAddrInfo& key);
  void touch_live(const BrokerAddrInfo& key, std::int64_t now_ms);
  const BrokerAddrInfo* first_live_key_on(ConnectionId channel) const;
  std::vector<BrokerAddrInfo> expired_live_keys(std::int64_t now_ms) const;
  // After any change to a group's address map, for each address it gained or lost.
  void reindex_broker_addr(const std::string& group, const BrokerData* broker_data,
                           const std::string& broker_addr);
  const std::set<std::string>& groups_listing(const std::string& broker_addr) const;

  std::shared_ptr<const TopicRouteData> build_topic_route_data(
      const std::string& topic, const std::map<std::string, QueueData>& queue_data_map) const;
  BrokerAddrInfo live_key(const std::string& cluster_name, const std::string& broker_addr) const;
  std::optional<RegisterBrokerResult> register_broker_v4(RegisterBrokerRequest& request,
                                                         std::int64_t now_ms);
  std::optional<RegisterBrokerResult> register_broker_v5(RegisterBrokerRequest& request,
                                                         std::int64_t now_ms);
  // The prologue both registerBroker versions share: the broker joins its cluster, and its
  // BrokerData is found or created; `register_first` says it was created.
  BrokerData& find_or_add_broker_data(const RegisterBrokerRequest& request, bool& register_first);
  void register_topics_v5(const RegisterBrokerRequest& request, BrokerData& broker_data,
                          bool register_first, bool is_prime_slave);
  RegisterBrokerResult slave_result(const BrokerData& broker_data, const std::string& cluster_name,
                                    std::int64_t broker_id) const;
  void create_and_update_queue_data(const std::string& broker_name,
                                    const TopicConfig& topic_config);
  // The table writes that a change counter sees; each counts only a write that changes content.
  void put_queue_data(std::map<std::string, QueueData>& queue_data_map,
                      const QueueData& queue_data);
  void put_broker_addr(BrokerData& broker_data, std::int64_t broker_id,
                       const std::string& broker_addr);
  void put_filter_servers(const BrokerAddrInfo& key,
                          const std::optional<FilterServerList>& filter_server_list);
  void erase_filter_servers(const BrokerAddrInfo& key);
  void insert_cluster_member(const std::string& cluster_name, const std::string& broker_name);
  void erase_cluster_member(const std::string& cluster_name, const std::string& broker_name);
  void note_route_change() { ++route_changes_; }
  void note_broker_addr_change() {
    ++route_changes_;
    ++cluster_info_changes_;
  }
  void note_cluster_addr_change() { ++cluster_info_changes_; }
  std::vector<BrokerRemoval> unregister_broker_v4(const UnregisterBrokerRequest& request,
                                                  RemovalPath path);
  std::vector<BrokerRemoval> un_register_broker_batch(
      const std::vector<PendingUnregistration>& batch);
  void clean_topic_by_un_register_requests(const std::set<std::string>& removed_broker,
                                           const std::set<std::string>& reduced_broker);
  bool is_no_master_exists(const std::string& broker_name) const;
  std::vector<BrokerRemoval> channel_destroy_v4(ConnectionId channel,
                                                const std::string& remote_addr, RemovalPath path,
                                                std::set<std::string>& groups_to_clean);
  std::vector<BrokerRemoval> on_channel_destroy_v4(const std::string& broker_addr_found,
                                                   RemovalPath path,
                                                   std::set<std::string>& groups_to_clean);
  std::optional<UnregisterBrokerRequest> setup_un_register_request(
      const BrokerAddrInfo& addr_info) const;
  void remove_topic_by_broker_names(const std::set<std::string>& broker_names);
  void notice_min_broker_id_changed(const std::map<std::int64_t, std::string>& broker_addrs,
                                    const std::optional<std::string>& offline_broker_addr,
                                    const std::optional<std::string>& ha_broker_addr);
  int operate_write_perm_of_broker(const std::string& broker_name, bool wipe);
  TopicList topic_list_by_first_queue_data(bool (*pick)(int topic_sys_flag)) const;

  Profile profile_;
  const NamesrvConfig& config_;
  std::size_t unregister_queue_capacity_;
  TopicQueueTable topic_queue_table_;
  BrokerAddrTable broker_addr_table_;
  ClusterAddrTable cluster_addr_table_;
  BrokerLiveTable broker_live_table_;
  FilterServerTable filter_server_table_;
  TopicQueueMappingInfoTable topic_queue_mapping_info_table_;
  std::deque<PendingUnregistration> unregister_queue_;
  std::vector<MinBrokerIdChangeNotice> min_broker_id_notices_;
  std::uint64_t route_changes_ = 0;
  std::uint64_t cluster_info_changes_ = 0;
  // Indexes (route_indexes.cpp). Deadlines are lastUpdateTimestamp + timeout.
  std::map<ConnectionId, std::set<BrokerAddrInfo>> live_keys_by_channel_;
  std::set<std::pair<std::int64_t, BrokerAddrInfo>> live_keys_by_deadline_;
  std::map<std::string, std::set<std::string>> groups_by_addr_;
  mutable RouteCache route_cache_;
  mutable std::shared_ptr<const ClusterInfo> cluster_info_;  // built at cluster_info_built_at_
  mutable std::uint64_t cluster_info_built_at_ = 0;
};

}  // namespace nssim::core

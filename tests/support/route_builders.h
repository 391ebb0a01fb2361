// File: test-only builders for RouteInfoManager tests: a manager with its own NamesrvConfig,
// register requests in the shape of upstream's RouteInfoManagerNewTest.BrokerBasicInfo, and small
// lookups into a TopicRouteData. Header-only, since the test targets compile only their folder.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nameserver_core/ids.h"
#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"
#include "nameserver_core/route_info_manager.h"
#include "nameserver_core/route_types.h"

namespace nssim::core::testing {

// The "now" of a test's first registration; any value far from 0 works.
inline constexpr std::int64_t kT0 = 1'000'000;
inline constexpr std::int64_t kExpiry = kDefaultBrokerChannelExpiredTimeMs;
inline constexpr Profile kBothProfiles[] = {Profile::kV4_9, Profile::kV5};

// A RouteInfoManager and the NamesrvConfig it reads on every call (it keeps a reference).
struct Namesrv {
  explicit Namesrv(Profile profile, NamesrvConfig namesrv_config = {})
      : config(std::move(namesrv_config)), rim(profile, config) {}
  NamesrvConfig config;
  RouteInfoManager rim;
};

// Java: RouteInfoManagerNewTest#setup, which turns supportActingMaster on.
inline NamesrvConfig acting_master_config() {
  NamesrvConfig config;
  config.support_acting_master = true;
  return config;
}

// Java: the TopicConfig the upstream tests build by hand: 8 read and 8 write queues, perm 6.
inline TopicConfig topic_config(const std::string& name, int queue_nums = 8,
                                int perm = perm::kRead | perm::kWrite, int topic_sys_flag = 0) {
  TopicConfig config;
  config.topic_name = name;
  config.read_queue_nums = queue_nums;
  config.write_queue_nums = queue_nums;
  config.perm = perm;
  config.topic_sys_flag = topic_sys_flag;
  return config;
}

inline TopicConfigSerializeWrapper wrapper_of(const std::vector<TopicConfig>& topics,
                                              DataVersion data_version) {
  TopicConfigSerializeWrapper wrapper;
  for (const auto& topic : topics) wrapper.topic_config_table[topic.topic_name] = topic;
  wrapper.data_version = data_version;
  return wrapper;
}

// Java: RouteInfoManagerNewTest.BrokerBasicInfo. Each modifier returns a changed copy.
struct BrokerInfo {
  std::string cluster_name = "Default_Cluster";
  std::string broker_name = "Default_Broker";
  std::string broker_addr = "127.0.0.1:10911";
  std::string ha_addr = "127.0.0.1:20911";
  std::int64_t broker_id = kMasterId;
  std::optional<bool> enable_acting_master = true;  // nullopt: a 4.x broker talking to 5.x
  DataVersion data_version{kT0, 1, 0};

  // Java: BrokerBasicInfo#defaultBroker / #slaveBroker.
  static BrokerInfo master() { return BrokerInfo{}; }
  static BrokerInfo slave() { return master().id(1).addr("127.0.0.1:30911").ha("127.0.0.1:40911"); }

  BrokerInfo cluster(std::string value) const { return with(&BrokerInfo::cluster_name, value); }
  BrokerInfo name(std::string value) const { return with(&BrokerInfo::broker_name, value); }
  BrokerInfo addr(std::string value) const { return with(&BrokerInfo::broker_addr, value); }
  BrokerInfo ha(std::string value) const { return with(&BrokerInfo::ha_addr, value); }
  BrokerInfo id(std::int64_t value) const { return with(&BrokerInfo::broker_id, value); }
  BrokerInfo acting_master(std::optional<bool> value) const {
    return with(&BrokerInfo::enable_acting_master, value);
  }
  BrokerInfo version(DataVersion value) const { return with(&BrokerInfo::data_version, value); }
  // Java: DataVersion#nextVersion, with the clock read replaced by `now_ms`.
  BrokerInfo next_version(std::int64_t now_ms) const {
    return version(DataVersion{now_ms, data_version.counter + 1, data_version.state_version});
  }

  // A request carrying exactly `topics`, with an empty filter-server list as the broker sends.
  RegisterBrokerRequest request_with(const std::vector<TopicConfig>& topics,
                                     ConnectionId channel) const {
    RegisterBrokerRequest request;
    request.cluster_name = cluster_name;
    request.broker_addr = broker_addr;
    request.broker_name = broker_name;
    request.broker_id = broker_id;
    request.ha_server_addr = ha_addr;
    request.enable_acting_master = enable_acting_master;
    request.topic_config_wrapper = wrapper_of(topics, data_version);
    request.filter_server_list = FilterServerList{};
    request.channel = channel;
    return request;
  }

  // Java: RouteInfoManagerNewTest#registerBrokerWithNormalTopic: "baseTopic" (16 queues) plus
  // each topic with 8 queues, so the table never holds exactly one topic.
  RegisterBrokerRequest request(const std::vector<std::string>& topics,
                                ConnectionId channel) const {
    std::vector<TopicConfig> configs{topic_config("baseTopic", 16)};
    for (const auto& topic : topics) configs.push_back(topic_config(topic));
    return request_with(configs, channel);
  }

  UnregisterBrokerRequest unregister_request() const {
    return UnregisterBrokerRequest{cluster_name, broker_addr, broker_name, broker_id};
  }

 private:
  template <typename T, typename V>
  BrokerInfo with(T BrokerInfo::*member, V value) const {
    BrokerInfo copy = *this;
    copy.*member = std::move(value);
    return copy;
  }
};

// Java: RouteInfoManagerTestBase#findBrokerDataByBrokerName; nullptr when absent.
inline const BrokerData* find_broker_data(const TopicRouteData& route,
                                          const std::string& broker_name) {
  for (const auto& broker_data : route.broker_datas) {
    if (broker_data.broker_name == broker_name) return &broker_data;
  }
  return nullptr;
}

inline const QueueData* find_queue_data(const TopicRouteData& route,
                                        const std::string& broker_name) {
  for (const auto& queue_data : route.queue_datas) {
    if (queue_data.broker_name == broker_name) return &queue_data;
  }
  return nullptr;
}

inline std::set<std::int64_t> ids_of(const BrokerData& broker_data) {
  std::set<std::int64_t> ids;
  for (const auto& [id, addr] : broker_data.broker_addrs) ids.insert(id);
  return ids;
}

// The perm of `broker_name`'s QueueData in `topic`, or nullopt when there is none.
inline std::optional<int> perm_of(const RouteInfoManager& rim, const std::string& topic,
                                  const std::string& broker_name) {
  auto queue_data_map = rim.topic_queue_table().find(topic);
  if (queue_data_map == rim.topic_queue_table().end()) return std::nullopt;
  auto queue_data = queue_data_map->second.find(broker_name);
  if (queue_data == queue_data_map->second.end()) return std::nullopt;
  return queue_data->second.perm;
}

// Whether `topic` has a route (pickupTopicRouteData answers non-null).
inline bool has_topic(const RouteInfoManager& rim, const std::string& topic) {
  return rim.pickup_topic_route_data(topic) != nullptr;
}

inline bool has_live_entry(const RouteInfoManager& rim, const std::string& cluster_name,
                           const std::string& broker_addr) {
  return rim.query_broker_topic_config(cluster_name, broker_addr).has_value();
}

}  // namespace nssim::core::testing

// File: a test-only cluster builder mirroring upstream's RouteInfoManagerTestBase#registerCluster:
// N broker groups of M members (id 0 is the master), every member registering the same T topics
// over its own connection.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "nameserver_core/ids.h"
#include "nameserver_core/route_info_manager.h"
#include "nameserver_core/route_types.h"
#include "support/route_builders.h"

namespace nssim::core::testing {

// Java: RouteInfoManagerTestBase#getBrokerAddr, #getBrokerName / #getTopicName.
inline std::string broker_addr_of(const std::string& cluster, const std::string& broker_name,
                                  std::int64_t broker_id) {
  return cluster + "-" + broker_name + ":" + std::to_string(broker_id);
}
inline std::string indexed_name(const std::string& prefix, int index) {
  return prefix + "-" + std::to_string(index);
}

struct ClusterSpec {
  std::string cluster = "cluster";
  std::string broker_prefix = "broker";
  int broker_names = 3;      // Java: brokerNameNumber
  int brokers_per_name = 3;  // Java: brokerPerName
  std::string topic_prefix = "topic";
  int topics = 10;
  std::uint64_t first_channel = 1;  // members get consecutive ConnectionIds from here
};

// Java: RouteInfoManagerTestBase.Cluster, plus the connection each broker address used.
struct RegisteredCluster {
  std::string cluster_name;
  std::map<std::string, TopicConfig> topic_config;
  std::map<std::string, BrokerData> broker_data_map;
  std::map<std::string, ConnectionId> channels;  // by broker address

  std::set<std::string> all_broker_names() const {
    std::set<std::string> names;
    for (const auto& [name, broker_data] : broker_data_map) names.insert(name);
    return names;
  }
  std::set<std::string> all_topic_names() const {
    std::set<std::string> names;
    for (const auto& [name, config] : topic_config) names.insert(name);
    return names;
  }
};

// Java: RouteInfoManagerTestBase#registerCluster. Members register in id order at `now_ms` with a
// DataVersion{now_ms, 0} (Java: new DataVersion()), their own address as HA address, and
// enableActingMaster=false (the 10-argument 5.x overload).
inline RegisteredCluster register_cluster(RouteInfoManager& rim, const ClusterSpec& spec,
                                          std::int64_t now_ms) {
  RegisteredCluster cluster;
  cluster.cluster_name = spec.cluster;
  std::vector<TopicConfig> topics;
  for (int i = 0; i < spec.topics; ++i) {
    topics.push_back(topic_config(indexed_name(spec.topic_prefix, i)));
    cluster.topic_config[topics.back().topic_name] = topics.back();
  }
  std::uint64_t next_channel = spec.first_channel;
  for (int group = 0; group < spec.broker_names; ++group) {
    BrokerData broker_data{spec.cluster, indexed_name(spec.broker_prefix, group), {}, {}, false};
    for (std::int64_t id = 0; id < spec.brokers_per_name; ++id) {
      const std::string addr = broker_addr_of(spec.cluster, broker_data.broker_name, id);
      broker_data.broker_addrs[id] = addr;
      const BrokerInfo member = BrokerInfo::master()
                                    .cluster(spec.cluster)
                                    .name(broker_data.broker_name)
                                    .addr(addr)
                                    .ha(addr)
                                    .id(id)
                                    .acting_master(false)
                                    .version(DataVersion{now_ms, 0, 0});
      cluster.channels[addr] = ConnectionId{next_channel++};
      rim.register_broker(member.request_with(topics, cluster.channels[addr]), now_ms);
    }
    cluster.broker_data_map[broker_data.broker_name] = broker_data;
  }
  return cluster;
}

}  // namespace nssim::core::testing

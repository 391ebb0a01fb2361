// File: the value types of RocketMQ's route protocol (QueueData, BrokerData, TopicRouteData, ...),
// with upstream field meanings. Containers are ordered so that everything derived from them is
// deterministic; upstream uses HashMaps, whose order no client relies on.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "nameserver_core/profile.h"

namespace nssim::core {

// Java: PermName.
namespace perm {
inline constexpr int kPriority = 8;
inline constexpr int kRead = 4;
inline constexpr int kWrite = 2;
inline constexpr int kInherit = 1;
inline bool is_writeable(int p) { return (p & kWrite) == kWrite; }
inline bool is_readable(int p) { return (p & kRead) == kRead; }
}  // namespace perm

// Java: TopicSysFlag.
namespace topic_sys_flag {
inline constexpr int kUnit = 1;
inline constexpr int kUnitSub = 2;
inline bool has_unit(int flag) { return (flag & kUnit) == kUnit; }
inline bool has_unit_sub(int flag) { return (flag & kUnitSub) == kUnitSub; }
}  // namespace topic_sys_flag

// Java: DataVersion. Unlike Java, creating one never reads a clock: the timestamp is given.
struct DataVersion {
  std::int64_t timestamp = 0;
  std::int64_t counter = 0;
  std::int64_t state_version = 0;  // 5.x only; a 4.9 NameServer never sees it
};

// Java: DataVersion#equals. 4.9 compares timestamp and counter; 5.x also stateVersion.
bool data_version_equals(const DataVersion& a, const DataVersion& b, Profile profile);

// Java: TopicConfig (the fields the NameServer reads). Defaults are upstream's.
struct TopicConfig {
  std::string topic_name;
  int read_queue_nums = 16;
  int write_queue_nums = 16;
  int perm = perm::kRead | perm::kWrite;
  std::string topic_filter_type = "SINGLE_TAG";
  int topic_sys_flag = 0;
  bool order = false;
  std::map<std::string, std::string> attributes;  // 5.x; carried, not interpreted
};

// Java: TopicQueueMappingInfo (5.x static topics). Carried, not interpreted: the codec keeps the
// object's JSON text and the one field the NameServer keys it by.
struct TopicQueueMappingInfo {
  std::string bname;
  std::string json;
};

// Java: TopicConfigSerializeWrapper / TopicConfigAndMappingSerializeWrapper. The table key is the
// wire key; the NameServer itself uses each TopicConfig's own topicName, as upstream does.
struct TopicConfigSerializeWrapper {
  std::map<std::string, TopicConfig> topic_config_table;
  DataVersion data_version;
  std::map<std::string, TopicQueueMappingInfo> topic_queue_mapping_info_map;
};

// Java: a broker's List<String> of filter-server addresses. fastjson keeps a null element of the
// body's list (`[null]`), RouteInfoManager#registerBroker stores the list as it is and the route
// writes the element back as null, so an element is nullable.
using FilterServerList = std::vector<std::optional<std::string>>;

// Java: RegisterBrokerBody. filterServerList starts as an empty list; a body may set it to null
// (fastjson reads null and "" so), and a null list leaves the broker's filter servers as they were
// (RouteInfoManager#registerBroker's `if (filterServerList != null)`).
struct RegisterBrokerBody {
  TopicConfigSerializeWrapper topic_config_serialize_wrapper;
  std::optional<FilterServerList> filter_server_list = FilterServerList{};
};

// Java: QueueData. Ordered and compared by all five fields (QueueData#equals).
struct QueueData {
  std::string broker_name;
  int read_queue_nums = 0;
  int write_queue_nums = 0;
  int perm = 0;
  int topic_sys_flag = 0;

  friend bool operator==(const QueueData& a, const QueueData& b) {
    return a.broker_name == b.broker_name && a.read_queue_nums == b.read_queue_nums &&
           a.write_queue_nums == b.write_queue_nums && a.perm == b.perm &&
           a.topic_sys_flag == b.topic_sys_flag;
  }
  friend bool operator!=(const QueueData& a, const QueueData& b) { return !(a == b); }
};

// Java: BrokerData. zone_name and enable_acting_master exist in 5.x only.
struct BrokerData {
  std::string cluster;
  std::string broker_name;
  std::map<std::int64_t, std::string> broker_addrs;
  std::optional<std::string> zone_name;
  bool enable_acting_master = false;
};

// Java: TopicRouteData. queue_datas and broker_datas are sorted by brokerName (clients sort
// them before use, TopicRouteData#topicRouteDataChanged).
struct TopicRouteData {
  std::optional<std::string> order_topic_conf;
  std::vector<QueueData> queue_datas;
  std::vector<BrokerData> broker_datas;
  // Java: filterServerTable; 5.x may map an address to null, hence the optional.
  std::map<std::string, std::optional<FilterServerList>> filter_server_table;
  // 5.x: topicQueueMappingByBroker; absent when the topic has no static mapping.
  std::optional<std::map<std::string, TopicQueueMappingInfo>> topic_queue_mapping_by_broker;
};

// Java: ClusterInfo.
struct ClusterInfo {
  std::map<std::string, BrokerData> broker_addr_table;
  std::map<std::string, std::set<std::string>> cluster_addr_table;
};

// Java: TopicList. broker_addr is set only by getSystemTopicList.
struct TopicList {
  std::set<std::string> topic_list;
  std::optional<std::string> broker_addr;
};

// Java: RegisterBrokerResult (the part the NameServer fills).
struct RegisterBrokerResult {
  std::optional<std::string> ha_server_addr;
  std::optional<std::string> master_addr;
};

// Java: BrokerMemberGroup (5.x).
struct BrokerMemberGroup {
  std::string cluster;
  std::string broker_name;
  std::map<std::int64_t, std::string> broker_addrs;
};

}  // namespace nssim::core

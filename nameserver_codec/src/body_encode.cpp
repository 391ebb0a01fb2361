// File: response bodies to JSON with upstream's property names, as fastjson serializes the
// classes' getters: sorted keys, null properties and null map values left out.
#include <memory>
#include <type_traits>

#include "nameserver_codec/body_codec.h"

namespace nssim::codec {

namespace {

using nlohmann::json;
namespace core = nssim::core;

json encode_broker_addrs(const std::map<std::int64_t, std::string>& broker_addrs) {
  json addrs = json::object();
  for (const auto& [id, addr] : broker_addrs) addrs[std::to_string(id)] = addr;
  return addrs;
}

// A mapping was decoded from JSON and kept as text; a hand-built one may hold anything, and is
// then written as the one field the NameServer knows.
json encode_mapping_info(const core::TopicQueueMappingInfo& mapping) {
  json parsed = json::parse(mapping.json, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded() || !parsed.is_object()) return json{{"bname", mapping.bname}};
  return parsed;
}

// Java 5.x: GetBrokerMemberGroupResponseBody {brokerMemberGroup: BrokerMemberGroup}.
json encode_broker_member_group(const core::BrokerMemberGroupBody& body) {
  const auto& group = body.broker_member_group;
  return json{{"brokerMemberGroup",
               {{"brokerAddrs", encode_broker_addrs(group.broker_addrs)},
                {"brokerName", group.broker_name},
                {"cluster", group.cluster}}}};
}

}  // namespace

json encode_data_version(const core::DataVersion& data_version, core::Profile profile) {
  json out = {{"counter", data_version.counter}, {"timestamp", data_version.timestamp}};
  if (profile == core::Profile::kV5) out["stateVersion"] = data_version.state_version;
  return out;
}

json encode_queue_data(const core::QueueData& queue_data) {
  return json{{"brokerName", queue_data.broker_name},
              {"perm", queue_data.perm},
              {"readQueueNums", queue_data.read_queue_nums},
              {"topicSysFlag", queue_data.topic_sys_flag},
              {"writeQueueNums", queue_data.write_queue_nums}};
}

json encode_broker_data(const core::BrokerData& broker_data, core::Profile profile) {
  json out = {{"brokerAddrs", encode_broker_addrs(broker_data.broker_addrs)},
              {"brokerName", broker_data.broker_name},
              {"cluster", broker_data.cluster}};
  if (profile == core::Profile::kV5) {
    out["enableActingMaster"] = broker_data.enable_acting_master;
    if (broker_data.zone_name) out["zoneName"] = *broker_data.zone_name;
  }
  return out;
}

// Java: List<String>; fastjson writes a null element as null, unlike a null map value (checked
// with TopicRouteData#encode of both jars).
json encode_filter_server_list(const core::FilterServerList& list) {
  json out = json::array();
  for (const auto& server : list) out.push_back(server ? json(*server) : json(nullptr));
  return out;
}

json encode_topic_route_data(const core::TopicRouteData& route, core::Profile profile) {
  json queue_datas = json::array();
  for (const auto& queue_data : route.queue_datas)
    queue_datas.push_back(encode_queue_data(queue_data));
  json broker_datas = json::array();
  for (const auto& broker_data : route.broker_datas) {
    broker_datas.push_back(encode_broker_data(broker_data, profile));
  }
  json filter_server_table = json::object();
  for (const auto& [addr, servers] : route.filter_server_table) {
    // fastjson skips null map values
    if (servers) filter_server_table[addr] = encode_filter_server_list(*servers);
  }
  json out = {{"brokerDatas", std::move(broker_datas)},
              {"filterServerTable", std::move(filter_server_table)},
              {"queueDatas", std::move(queue_datas)}};
  if (route.order_topic_conf) out["orderTopicConf"] = *route.order_topic_conf;
  if (profile == core::Profile::kV5 && route.topic_queue_mapping_by_broker) {
    json mappings = json::object();
    for (const auto& [broker_name, mapping] : *route.topic_queue_mapping_by_broker) {
      mappings[broker_name] = encode_mapping_info(mapping);
    }
    out["topicQueueMappingByBroker"] = std::move(mappings);
  }
  return out;
}

json encode_cluster_info(const core::ClusterInfo& cluster_info, core::Profile profile) {
  json broker_addr_table = json::object();
  for (const auto& [name, broker_data] : cluster_info.broker_addr_table) {
    broker_addr_table[name] = encode_broker_data(broker_data, profile);
  }
  json cluster_addr_table = json::object();
  for (const auto& [cluster, names] : cluster_info.cluster_addr_table) {
    cluster_addr_table[cluster] = names;
  }
  return json{{"brokerAddrTable", std::move(broker_addr_table)},
              {"clusterAddrTable", std::move(cluster_addr_table)}};
}

json encode_topic_list(const core::TopicList& topic_list) {
  json out = {{"topicList", topic_list.topic_list}};
  if (topic_list.broker_addr) out["brokerAddr"] = *topic_list.broker_addr;
  return out;
}

json encode_response_body(const core::ResponseBody& body, core::Profile profile) {
  return std::visit(
      [profile](const auto& value) -> json {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, std::monostate>) {
          return nullptr;
        } else if constexpr (std::is_same_v<T, std::shared_ptr<const core::TopicRouteData>>) {
          return encode_topic_route_data(*value, profile);
        } else if constexpr (std::is_same_v<T, std::shared_ptr<const core::ClusterInfo>>) {
          return encode_cluster_info(*value, profile);
        } else if constexpr (std::is_same_v<T, core::TopicList>) {
          return encode_topic_list(value);
        } else if constexpr (std::is_same_v<T, core::KvTable>) {
          return json{{"table", value}};  // Java: KVTable
        } else if constexpr (std::is_same_v<T, core::DataVersion>) {
          return encode_data_version(value, profile);
        } else if constexpr (std::is_same_v<T, core::BrokerMemberGroupBody>) {
          return encode_broker_member_group(value);
        } else {
          return value;  // GET_NAMESRV_CONFIG's properties text
        }
      },
      body);
}

}  // namespace nssim::codec

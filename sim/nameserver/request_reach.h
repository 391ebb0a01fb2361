// File: what a request handed to a NameServer can change in its route tables, as RouteRecorder and
// RouteViewRecorder both need to know it. Pure.
#pragma once

#include <variant>

#include "nameserver_core/remoting.h"
#include "nameserver_core/route_types.h"

namespace nssim::sim {

// Reads (GET_ROUTEINFO_BY_TOPIC, GET_BROKER_CLUSTER_INFO) and liveness refreshes
// (QUERY_DATA_VERSION, BROKER_HEARTBEAT) write no route table; UNREGISTER_BROKER's removals are
// reported as BrokerRemoval (at once in 4.9, through the batch in 5.x), not by the request.
inline bool leaves_route_tables(int code) {
  return code == core::request_code::kGetRouteinfoByTopic ||
         code == core::request_code::kGetBrokerClusterInfo ||
         code == core::request_code::kQueryDataVersion ||
         code == core::request_code::kBrokerHeartbeat ||
         code == core::request_code::kUnregisterBroker;
}

// The topic table a REGISTER_BROKER body reports (a RegisterBrokerBody, or an old broker's bare
// wrapper), or nullptr.
inline const core::TopicConfigSerializeWrapper* registered_topics(
    const core::RemotingRequest& request) {
  if (const auto* body = std::get_if<core::RegisterBrokerBody>(&request.body)) {
    return &body->topic_config_serialize_wrapper;
  }
  return std::get_if<core::TopicConfigSerializeWrapper>(&request.body);
}

}  // namespace nssim::sim

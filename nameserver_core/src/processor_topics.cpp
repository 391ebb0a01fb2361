// File: route and topic requests: GET_ROUTEINFO_BY_TOPIC (4.9.8 DefaultRequestProcessor, 5.3.3
// ClientRequestProcessor), cluster info, write-permission wipe and restore, topic deletion and
// registration, and the topic lists.
#include <memory>
#include <utility>

#include "nameserver_core/name_server.h"
#include "processor_support.h"

namespace nssim::core {

namespace {

// Java: FAQUrl.suggestTodo(FAQUrl.APPLY_TOPIC_URL) of each tag.
std::string apply_topic_suggestion(Profile profile) {
  const char* url = profile == Profile::kV4_9
                        ? "http://rocketmq.apache.org/docs/faq/"
                        : "https://rocketmq.apache.org/docs/bestPractice/06FAQ";
  return std::string("\nSee ") + url + " for further details.";
}

RemotingResponse with_body(ResponseBody body) {
  RemotingResponse response = detail::success_response();
  response.body = std::move(body);
  return response;
}

RemotingResponse disabled_response() {
  return detail::error_response(response_code::kSystemError, "disable");
}

}  // namespace

// Java 4.9.8: DefaultRequestProcessor#getRouteInfoByTopic; 5.3.3:
// ClientRequestProcessor#getRouteInfoByTopic. The body is standard JSON for a client of V4_9_4 or
// later or one that sends acceptStandardJsonOnly=true, else fastjson's legacy encoding.
RemotingResponse NameServer::get_route_info_by_topic(const RemotingRequest& request,
                                                     std::int64_t now_ms) const {
  const detail::HeaderFields fields(request.ext_fields);
  const auto topic = fields.string_field("topic");
  if (profile_ == Profile::kV5 && config_.need_wait_for_service) {
    const bool namesrv_ready =
        now_ms - start_time_ms_ >= std::int64_t{config_.wait_seconds_for_service} * 1000;
    if (!namesrv_ready) {
      return detail::error_response(response_code::kSystemError, "name server not ready");
    }
  }

  auto route = route_info_manager_.pickup_topic_route_data(detail::key_or_empty(topic));
  if (!route) {
    return detail::error_response(
        response_code::kTopicNotExist,
        "No topic route info in name server for the topic: " + detail::java_string(topic) +
            apply_topic_suggestion(profile_));
  }
  if (config_.order_message_enable && topic) {  // a null topic finds no KV entry
    // The shared route has no orderTopicConf; one to set goes on a copy.
    if (auto conf = kv_config_manager_.get_kv_config(kNamespaceOrderTopicConfig, *topic)) {
      auto with_conf = std::make_shared<TopicRouteData>(*route);
      with_conf->order_topic_conf = std::move(conf);
      route = std::move(with_conf);
    }
  }
  RemotingResponse response = with_body(std::move(route));
  response.standard_json_body = request.version >= kVersionV4_9_4 ||
                                fields.boolean_field("acceptStandardJsonOnly").value_or(false);
  return response;
}

// Java: DefaultRequestProcessor#getBrokerClusterInfo.
RemotingResponse NameServer::get_broker_cluster_info() const {
  return with_body(route_info_manager_.get_all_cluster_info());
}

// Java: DefaultRequestProcessor#wipeWritePermOfBroker / #addWritePermOfBroker.
RemotingResponse NameServer::operate_write_perm_of_broker(const RemotingRequest& request,
                                                          bool wipe) {
  const detail::HeaderFields fields(request.ext_fields);
  const std::string broker_name = detail::key_or_empty(fields.string_field("brokerName"));
  const int topic_count = wipe ? route_info_manager_.wipe_write_perm_of_broker_by_lock(broker_name)
                               : route_info_manager_.add_write_perm_of_broker_by_lock(broker_name);
  RemotingResponse response = detail::success_response();
  response.ext_fields[wipe ? "wipeTopicCount" : "addTopicCount"] = std::to_string(topic_count);
  return response;
}

// Java: DefaultRequestProcessor#getAllTopicListFromNameserver (5.x: unless enableAllTopicList is
// off).
RemotingResponse NameServer::get_all_topic_list_from_nameserver() const {
  if (profile_ == Profile::kV5 && !config_.enable_all_topic_list) return disabled_response();
  return with_body(route_info_manager_.get_all_topic_list());
}

// Java: DefaultRequestProcessor#deleteTopicInNamesrv. A non-empty clusterName limits the delete
// to that cluster's groups.
RemotingResponse NameServer::delete_topic_in_namesrv(const RemotingRequest& request) {
  const detail::HeaderFields fields(request.ext_fields);
  const std::string topic = detail::key_or_empty(fields.string_field("topic"));
  const auto cluster_name = fields.string_field("clusterName");
  if (cluster_name && !cluster_name->empty()) {
    route_info_manager_.delete_topic(topic, *cluster_name);
  } else {
    route_info_manager_.delete_topic(topic);
  }
  return detail::success_response();
}

// Java 5.3.3: DefaultRequestProcessor#registerTopicToNamesrv. Only a route with queue data
// registers anything; the answer is SUCCESS either way.
RemotingResponse NameServer::register_topic_to_namesrv(const RemotingRequest& request) {
  if (const auto* error = std::get_if<BodyDecodeError>(&request.body)) {
    // Deviation: fastjson's JSONException message is not reproduced, nor its first frame.
    return detail::error_response(response_code::kSystemError,
                                  "com.alibaba.fastjson.JSONException: " + error->message);
  }
  const detail::HeaderFields fields(request.ext_fields);
  if (const auto* route = std::get_if<TopicRouteData>(&request.body)) {
    if (!route->queue_datas.empty()) {
      route_info_manager_.register_topic(detail::key_or_empty(fields.string_field("topic")),
                                         route->queue_datas);
    }
  }
  return detail::success_response();
}

// Java: DefaultRequestProcessor#getTopicsByCluster (5.x: unless enableTopicList is off; that
// check comes before the header is read).
RemotingResponse NameServer::get_topics_by_cluster(const RemotingRequest& request) const {
  if (profile_ == Profile::kV5 && !config_.enable_topic_list) return disabled_response();
  const detail::HeaderFields fields(request.ext_fields);
  return with_body(route_info_manager_.get_topics_by_cluster(
      detail::key_or_empty(fields.string_field("cluster"))));
}

// Java: DefaultRequestProcessor#getSystemTopicListFromNs, #getUnitTopicList,
// #getHasUnitSubTopicList and #getHasUnitSubUnUnitTopicList (5.x: the unit lists obey
// enableTopicList; the system list does not).
RemotingResponse NameServer::get_topic_list(int code) const {
  namespace rc = request_code;
  if (code == rc::kGetSystemTopicListFromNs) {
    return with_body(route_info_manager_.get_system_topic_list());
  }
  if (profile_ == Profile::kV5 && !config_.enable_topic_list) return disabled_response();
  if (code == rc::kGetUnitTopicList) return with_body(route_info_manager_.get_unit_topics());
  if (code == rc::kGetHasUnitSubTopicList) {
    return with_body(route_info_manager_.get_has_unit_sub_topic_list());
  }
  return with_body(route_info_manager_.get_has_unit_sub_un_unit_topic_list());
}

}  // namespace nssim::core

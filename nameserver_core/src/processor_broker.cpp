// File: the requests brokers send to DefaultRequestProcessor: REGISTER_BROKER, UNREGISTER_BROKER,
// QUERY_DATA_VERSION, and 5.x's BROKER_HEARTBEAT and GET_BROKER_MEMBER_GROUP. Line numbers in the
// exception remarks are those of DefaultRequestProcessor.java in rocketmq-all-4.9.8 / 5.3.3.
#include <utility>

#include "nameserver_core/name_server.h"
#include "processor_support.h"

namespace nssim::core {

namespace {

// Java: a RegisterBrokerBody or TopicConfigSerializeWrapper built with `new` when the request has
// no body; DefaultRequestProcessor then zeroes its DataVersion.
TopicConfigSerializeWrapper empty_wrapper() {
  return TopicConfigSerializeWrapper{{}, DataVersion{0, 0, 0}, {}};
}

// Deviation: Java's message and first frame come from fastjson's parser; the codec's message
// stands in and no frame is given.
RemotingResponse json_exception_response(const std::string& message) {
  return detail::error_response(response_code::kSystemError,
                                "com.alibaba.fastjson.JSONException: " + message);
}

std::string decode_error_message(const RequestBody& body, const char* expected) {
  if (const auto* error = std::get_if<BodyDecodeError>(&body)) return error->message;
  return std::string("the body is not a ") + expected;
}

// The body a REGISTER_BROKER handler works with, or the response its failure becomes.
struct RegisterBody {
  std::optional<TopicConfigSerializeWrapper> wrapper;
  std::optional<FilterServerList> filter_server_list;
  bool null_body = false;  // fastjson returned null: the next dereference throws
  std::optional<RemotingResponse> failure;
};

// Java 4.9.8 registerBrokerWithFilterServer / 5.3.3 extractRegisterBrokerBodyFromRequest.
RegisterBody register_broker_body(const RequestBody& body, Profile profile) {
  RegisterBody out;
  if (std::holds_alternative<std::monostate>(body)) {
    out.wrapper = empty_wrapper();
    out.filter_server_list.emplace();
  } else if (const auto* decoded = std::get_if<RegisterBrokerBody>(&body)) {
    out.wrapper = decoded->topic_config_serialize_wrapper;
    out.filter_server_list = decoded->filter_server_list;
  } else if (std::holds_alternative<JsonNullBody>(body)) {
    out.null_body = true;
  } else {
    // Java wraps whatever RegisterBrokerBody#decode threw.
    out.failure = detail::exception_response(
        "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode "
        "RegisterBrokerBody",
        profile == Profile::kV4_9
            ? "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor."
              "registerBrokerWithFilterServer(DefaultRequestProcessor.java:241)"
            : "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor."
              "extractRegisterBrokerBodyFromRequest(DefaultRequestProcessor.java:305)");
  }
  return out;
}

// Java 4.9.8 registerBroker / 5.3.3 extractRegisterTopicConfigFromRequest: brokers older than
// V3_0_11 send a bare TopicConfigSerializeWrapper and no filter servers.
RegisterBody old_version_register_body(const RequestBody& body) {
  RegisterBody out;
  if (std::holds_alternative<std::monostate>(body)) {
    out.wrapper = empty_wrapper();
  } else if (const auto* decoded = std::get_if<TopicConfigSerializeWrapper>(&body)) {
    out.wrapper = *decoded;
  } else if (!std::holds_alternative<JsonNullBody>(body)) {
    out.failure =
        json_exception_response(decode_error_message(body, "TopicConfigSerializeWrapper"));
  }
  return out;  // a null wrapper goes on to RouteInfoManager, which copes with it
}

RemotingResponse aioobe_in_value2version(int version) {
  return detail::exception_response(
      "java.lang.ArrayIndexOutOfBoundsException: " + std::to_string(version),
      "org.apache.rocketmq.common.MQVersion.value2Version(MQVersion.java:38)");
}

}  // namespace

// Java 4.9.8: the REGISTER_BROKER case of processRequest, then registerBrokerWithFilterServer
// (version >= V3_0_11) or registerBroker. Java 5.3.3: DefaultRequestProcessor#registerBroker.
RemotingResponse NameServer::register_broker(const RemotingRequest& request, ConnectionId channel,
                                             std::int64_t now_ms) {
  const bool v4 = profile_ == Profile::kV4_9;
  // MQVersion#value2Version indexes Version.values(): 4.9 calls it before anything else.
  if (v4 && request.version < 0) return aioobe_in_value2version(request.version);

  const detail::HeaderFields fields(request.ext_fields);
  // Java: DefaultRequestProcessor#checksum, with UtilAll#crc32 masking the top bit away.
  const std::int32_t header_crc32 = fields.int_field("bodyCrc32").value_or(0);
  if (header_crc32 != 0) {
    const auto body_crc32 = static_cast<std::int32_t>(request.body_crc32.value_or(0) & 0x7FFFFFFFu);
    if (body_crc32 != header_crc32) {
      return detail::error_response(response_code::kSystemError, "crc32 not match");
    }
  }
  if (!v4 && request.version < 0) return aioobe_in_value2version(request.version);

  const bool with_filter_server = request.version >= kVersionV3_0_11;
  RegisterBody body = with_filter_server ? register_broker_body(request.body, profile_)
                                         : old_version_register_body(request.body);
  if (body.failure) return std::move(*body.failure);
  const auto broker_id = fields.long_field("brokerId");
  // Argument order decides which NullPointerException comes first.
  if (!v4 && body.null_body) return detail::unboxing_npe_response("registerBroker", 242);
  if (!broker_id) {
    if (!v4) return detail::unboxing_npe_response("registerBroker", 253);
    return with_filter_server ? detail::unboxing_npe_response("registerBrokerWithFilterServer", 252)
                              : detail::unboxing_npe_response("registerBroker", 332);
  }
  if (body.null_body) return detail::unboxing_npe_response("registerBrokerWithFilterServer", 254);

  RegisterBrokerRequest registration;
  registration.cluster_name = detail::key_or_empty(fields.string_field("clusterName"));
  registration.broker_addr = detail::key_or_empty(fields.string_field("brokerAddr"));
  registration.broker_name = detail::key_or_empty(fields.string_field("brokerName"));
  registration.broker_id = *broker_id;
  registration.ha_server_addr = fields.string_field("haServerAddr");
  if (!v4) {
    registration.zone_name = fields.string_field(kZoneNameExtField);
    registration.heartbeat_timeout_millis = fields.long_field("heartbeatTimeoutMillis");
    registration.enable_acting_master = fields.boolean_field("enableActingMaster");
  }
  registration.topic_config_wrapper = std::move(body.wrapper);
  registration.filter_server_list = std::move(body.filter_server_list);
  registration.channel = channel;

  const auto result = route_info_manager_.register_broker(std::move(registration), now_ms);
  if (!result) {
    // 5.x: a first registration carrying exactly one topic is refused.
    return detail::error_response(response_code::kSystemError, "register broker failed");
  }
  RemotingResponse response = detail::success_response();
  if (result->ha_server_addr) response.ext_fields["haServerAddr"] = *result->ha_server_addr;
  if (result->master_addr) response.ext_fields["masterAddr"] = *result->master_addr;
  if (auto order_topic_config = order_topic_config_for_broker()) {
    response.body = std::move(*order_topic_config);
  }
  return response;
}

// Java: DefaultRequestProcessor#unregisterBroker. 4.9.8 unregisters at once; 5.3.3 queues the
// header for BatchUnregistrationService and fails only when the queue is full.
RemotingResponse NameServer::unregister_broker(const RemotingRequest& request) {
  const detail::HeaderFields fields(request.ext_fields);
  const auto broker_id = fields.long_field("brokerId");
  if (profile_ == Profile::kV4_9 && !broker_id) {
    return detail::unboxing_npe_response("unregisterBroker", 359);
  }
  // Deviation (5.x): Java queues a null brokerId, and the batch's NullPointerException (from
  // getBrokerId().equals) abandons the rest of that batch. -1 is never a group's minimum id.
  const UnregisterBrokerRequest unregistration{
      detail::key_or_empty(fields.string_field("clusterName")),
      detail::key_or_empty(fields.string_field("brokerAddr")),
      detail::key_or_empty(fields.string_field("brokerName")), broker_id.value_or(-1)};
  if (profile_ == Profile::kV4_9) {
    auto removals =
        route_info_manager_.unregister_broker(unregistration, RemovalPath::kUnregisterRequest);
    request_removals_.insert(request_removals_.end(), removals.begin(), removals.end());
  } else if (!route_info_manager_.submit_unregister_broker_request(
                 unregistration, RemovalPath::kUnregisterRequest)) {
    return detail::error_response(response_code::kSystemError, std::nullopt);
  }
  return detail::success_response();
}

// Java: DefaultRequestProcessor#queryBrokerTopicConfig. 4.9.8 keys liveness by address, refreshes
// the timestamp only when the version is unchanged, and throws on a missing body; 5.3.3 keys by
// (cluster, address), always refreshes, and reads a missing body as a null DataVersion.
RemotingResponse NameServer::query_broker_topic_config(const RemotingRequest& request,
                                                       std::int64_t now_ms) {
  const bool v4 = profile_ == Profile::kV4_9;
  std::optional<DataVersion> data_version;
  if (const auto* decoded = std::get_if<DataVersion>(&request.body)) {
    data_version = *decoded;
  } else if (std::holds_alternative<std::monostate>(request.body)) {
    // 4.9.8 RemotingSerializable#decode runs new String(null, UTF_8).
    if (v4) {
      return detail::exception_response("java.lang.NullPointerException",
                                        "java.lang.String.<init>(String.java:515)");
    }
  } else if (!std::holds_alternative<JsonNullBody>(request.body)) {
    return json_exception_response(decode_error_message(request.body, "DataVersion"));
  }

  const detail::HeaderFields fields(request.ext_fields);
  const std::string cluster_name = detail::key_or_empty(fields.string_field("clusterName"));
  const std::string broker_addr = detail::key_or_empty(fields.string_field("brokerAddr"));
  const bool changed =
      route_info_manager_.is_broker_topic_config_changed(cluster_name, broker_addr, data_version);
  if (!v4 || !changed) {
    route_info_manager_.update_broker_info_update_timestamp(cluster_name, broker_addr, now_ms);
  }

  RemotingResponse response = detail::success_response();
  if (auto name_server_version =
          route_info_manager_.query_broker_topic_config(cluster_name, broker_addr)) {
    response.body = *name_server_version;
  }
  response.ext_fields["changed"] = changed ? "true" : "false";
  return response;
}

// Java 5.3.3: DefaultRequestProcessor#brokerHeartbeat. Refreshes an existing live entry only.
RemotingResponse NameServer::broker_heartbeat(const RemotingRequest& request, std::int64_t now_ms) {
  const detail::HeaderFields fields(request.ext_fields);
  route_info_manager_.update_broker_info_update_timestamp(
      detail::key_or_empty(fields.string_field("clusterName")),
      detail::key_or_empty(fields.string_field("brokerAddr")), now_ms);
  return detail::success_response();
}

// Java 5.3.3: DefaultRequestProcessor#getBrokerMemberGroup. It sets the code and never the remark,
// so the answer keeps RemotingCommand#createResponseCommand's "not set any response code".
RemotingResponse NameServer::get_broker_member_group(const RemotingRequest& request) const {
  const detail::HeaderFields fields(request.ext_fields);
  RemotingResponse response = detail::success_response();
  response.remark = "not set any response code";
  response.body = BrokerMemberGroupBody{route_info_manager_.get_broker_member_group(
      detail::key_or_empty(fields.string_field("clusterName")),
      detail::key_or_empty(fields.string_field("brokerName")))};
  return response;
}

}  // namespace nssim::core

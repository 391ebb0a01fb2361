// File: the KV-config requests of DefaultRequestProcessor (PUT/GET/DELETE_KV_CONFIG,
// GET_KVLIST_BY_NAMESPACE) and the order-topic table REGISTER_BROKER returns. Identical in 4.9.8
// and 5.3.3. Java persists kvConfig.json on every change; the core keeps the table in memory.
#include "nameserver_core/name_server.h"
#include "processor_support.h"

namespace nssim::core {

// Java: DefaultRequestProcessor#putKVConfig.
RemotingResponse NameServer::put_kv_config(const RemotingRequest& request) {
  const detail::HeaderFields fields(request.ext_fields);
  const auto name_space = fields.string_field("namespace");
  const auto key = fields.string_field("key");
  const auto value = fields.string_field("value");
  if (!name_space || !key) {
    return detail::error_response(response_code::kSystemError, "namespace or key is null");
  }
  if (value) {
    kv_config_manager_.put_kv_config(*name_space, *key, *value);
  } else {
    // Java stores the null value: the namespace exists, the key reads as absent, and KVTable's
    // JSON leaves it out (fastjson skips null map values). Creating the entry and deleting it
    // again is observably the same.
    kv_config_manager_.put_kv_config(*name_space, *key, "");
    kv_config_manager_.delete_kv_config(*name_space, *key);
  }
  return detail::success_response();
}

// Java: DefaultRequestProcessor#getKVConfig. No null namespace or key can be stored, so a missing
// header field finds nothing.
RemotingResponse NameServer::get_kv_config(const RemotingRequest& request) const {
  const detail::HeaderFields fields(request.ext_fields);
  const auto name_space = fields.string_field("namespace");
  const auto key = fields.string_field("key");
  std::optional<std::string> value;
  if (name_space && key) value = kv_config_manager_.get_kv_config(*name_space, *key);
  if (value) {
    RemotingResponse response = detail::success_response();
    response.ext_fields["value"] = *value;
    return response;
  }
  return detail::error_response(response_code::kQueryNotFound,
                                "No config item, Namespace: " + detail::java_string(name_space) +
                                    " Key: " + detail::java_string(key));
}

// Java: DefaultRequestProcessor#deleteKVConfig. Always SUCCESS.
RemotingResponse NameServer::delete_kv_config(const RemotingRequest& request) {
  const detail::HeaderFields fields(request.ext_fields);
  const auto name_space = fields.string_field("namespace");
  const auto key = fields.string_field("key");
  if (name_space && key) kv_config_manager_.delete_kv_config(*name_space, *key);
  return detail::success_response();
}

// Java: DefaultRequestProcessor#getKVListByNamespace.
RemotingResponse NameServer::get_kv_list_by_namespace(const RemotingRequest& request) const {
  const detail::HeaderFields fields(request.ext_fields);
  const auto name_space = fields.string_field("namespace");
  std::optional<KvTable> table;
  if (name_space) table = kv_config_manager_.get_kv_list_by_namespace(*name_space);
  if (table) {
    RemotingResponse response = detail::success_response();
    response.body = std::move(*table);
    return response;
  }
  return detail::error_response(response_code::kQueryNotFound,
                                "No config item, Namespace: " + detail::java_string(name_space));
}

// Java: the REGISTER_BROKER response body, KVConfigManager#getKVListByNamespace of
// ORDER_TOPIC_CONFIG (null when the namespace was never created). 4.9.8 always sends it; 5.3.3
// only when returnOrderTopicConfigToBroker is set.
std::optional<KvTable> NameServer::order_topic_config_for_broker() const {
  if (profile_ == Profile::kV5 && !config_.return_order_topic_config_to_broker) return std::nullopt;
  return kv_config_manager_.get_kv_list_by_namespace(kNamespaceOrderTopicConfig);
}

}  // namespace nssim::core

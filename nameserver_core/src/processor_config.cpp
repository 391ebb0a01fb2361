// File: UPDATE_NAMESRV_CONFIG and GET_NAMESRV_CONFIG, DefaultRequestProcessor's view of
// NamesrvController's Configuration (the same in 4.9.8 and 5.3.3 but for the output order).
#include "nameserver_core/java_properties.h"
#include "nameserver_core/name_server.h"
#include "processor_support.h"

namespace nssim::core {

// Java: DefaultRequestProcessor#updateConfig, then Configuration#update, which runs
// MixAll#properties2Object (unknown keys and unparsable values are skipped) and persists the
// file. Deviation: Java's Configuration also holds NettyServerConfig, whose fields the update
// would set too; nssim has no such object. The body is the UPDATE_NAMESRV_CONFIG text; another
// body alternative is not something bytes can decode to, and is read as no body.
RemotingResponse NameServer::update_config(const RemotingRequest& request) {
  const auto* text = std::get_if<std::string>(&request.body);
  if (text == nullptr) return detail::success_response();  // a null body changes nothing
  const auto properties = string_to_properties(*text);
  if (!properties) {
    return detail::error_response(response_code::kSystemError, "string2Properties error");
  }
  for (const auto& black_config : config_black_list_) {
    if (properties->count(black_config) != 0) {
      return detail::error_response(response_code::kNoPermission,
                                    "Can not update config in black list.");
    }
  }
  for (const auto& [name, value] : *properties) {
    set_namesrv_config_field(config_, profile_, name, value, ConfigParse::kLenient);
  }
  return detail::success_response();
}

// Java: DefaultRequestProcessor#getConfig, Configuration#getAllConfigsFormatString. Deviations:
// Java's text also lists NettyServerConfig's fields, which nssim does not have; 4.9.8 prints in
// Hashtable order, here the order is by name (5.3.3 sorts too). rocketmqHome is Java's
// System.getenv("ROCKETMQ_HOME"), null when unset, and object2Properties skips null fields: an
// empty rocketmqHome is left out for that reason.
RemotingResponse NameServer::get_config() const {
  std::vector<std::pair<std::string, std::string>> entries;
  for (auto& [name, value] : namesrv_config_properties(config_, profile_)) {
    if (name == "rocketmqHome" && value.empty()) continue;
    entries.emplace_back(name, value);
  }
  RemotingResponse response = detail::success_response();
  response.body = properties_to_string(entries);
  return response;
}

}  // namespace nssim::core

// File: NameServer's request routing (which processor answers which code in 4.9.8 and 5.3.3),
// the 5.x ZoneRouteRPCHook, and the scan and channel events (BrokerHousekeepingService).
#include "nameserver_core/name_server.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

#include "processor_support.h"

namespace nssim::core {

namespace {

// Java: String#split(";") keeps leading empty strings, drops trailing ones, and returns the whole
// text (even "") when there is no separator.
std::vector<std::string> java_split_semicolon(const std::string& text) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t pos = text.find(';'); pos != std::string::npos; pos = text.find(';', start)) {
    parts.push_back(text.substr(start, pos - start));
    start = pos + 1;
  }
  parts.push_back(text.substr(start));
  if (parts.size() > 1) {
    while (!parts.empty() && parts.back().empty()) parts.pop_back();
  }
  return parts;
}

// Java: StringUtils.isBlank (Character.isWhitespace for ASCII).
bool is_blank(const std::optional<std::string>& text) {
  if (!text) return true;
  return std::all_of(text->begin(), text->end(), [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r' ||
           (c >= 0x1c && c <= 0x1f);
  });
}

// Java: StringUtils.equalsIgnoreCase; ASCII case folding only.
bool equals_ignore_case(const std::optional<std::string>& a, const std::string& b) {
  if (!a || a->size() != b.size()) return false;
  return std::equal(a->begin(), a->end(), b.begin(), [](char x, char y) {
    auto fold = [](char c) {
      return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    };
    return fold(x) == fold(y);
  });
}

// Java 5.3.3: ZoneRouteRPCHook#filterByZoneName. Keeps the groups of the zone and those without
// a master ("master down, consume from slave"), then drops the other groups' queues and filter
// servers.
void filter_by_zone_name(TopicRouteData& route, const std::string& zone_name) {
  std::vector<BrokerData> reserved;
  std::map<std::string, BrokerData> removed;
  for (auto& broker_data : route.broker_datas) {
    if (broker_data.broker_addrs.count(kMasterId) == 0 ||
        equals_ignore_case(broker_data.zone_name, zone_name)) {
      reserved.push_back(std::move(broker_data));
    } else {
      removed[broker_data.broker_name] = std::move(broker_data);
    }
  }
  route.broker_datas = std::move(reserved);
  std::vector<QueueData> queue_datas;
  for (auto& queue_data : route.queue_datas) {
    if (removed.count(queue_data.broker_name) == 0) queue_datas.push_back(std::move(queue_data));
  }
  route.queue_datas = std::move(queue_datas);
  if (route.filter_server_table.empty()) return;
  for (const auto& [name, broker_data] : removed) {
    for (const auto& [id, addr] : broker_data.broker_addrs) route.filter_server_table.erase(addr);
  }
}

// Java 5.3.3: ZoneRouteRPCHook#doAfterResponse. It re-encodes the filtered route with
// RemotingSerializable#encode, legacy JSON, whatever the client asked for.
void apply_zone_route_hook(const RemotingRequest& request, RemotingResponse& response) {
  if (request.code != request_code::kGetRouteinfoByTopic) return;
  auto* route = std::get_if<std::shared_ptr<const TopicRouteData>>(&response.body);
  if (route == nullptr || response.code != response_code::kSuccess) return;
  const detail::HeaderFields fields(request.ext_fields);
  if (!fields.boolean_field(kZoneModeExtField).value_or(false)) return;
  const auto zone_name = fields.string_field(kZoneNameExtField);
  if (is_blank(zone_name)) return;
  auto filtered = std::make_shared<TopicRouteData>(**route);  // the shared route stays as it is
  filter_by_zone_name(*filtered, *zone_name);
  *route = std::move(filtered);
  response.standard_json_body = false;
}

void append(std::vector<BrokerRemoval>& to, std::vector<BrokerRemoval> from) {
  for (auto& removal : from) to.push_back(std::move(removal));
}

}  // namespace

NameServer::NameServer(Profile profile, NamesrvConfig config, std::int64_t start_time_ms)
    : profile_(profile),
      config_(std::move(config)),
      route_info_manager_(profile, config_),
      start_time_ms_(start_time_ms) {
  // Java: DefaultRequestProcessor#initConfigBlackList (4.9.8 and 5.3.3 alike).
  config_black_list_ = {"configBlackList", "configStorePath", "kvConfigPath", "rocketmqHome"};
  for (auto& name : java_split_semicolon(config_.config_black_list)) {
    config_black_list_.insert(std::move(name));
  }
}

std::optional<RemotingResponse> NameServer::process(const RemotingRequest& request,
                                                    ConnectionId channel, std::int64_t now_ms) {
  request_removals_.clear();
  std::optional<RemotingResponse> response = dispatch(request, channel, now_ms);
  if (response && profile_ == Profile::kV5) apply_zone_route_hook(request, *response);
  if (request.oneway) return std::nullopt;  // processed, never answered
  return response;
}

// Java: DefaultRequestProcessor#processRequest (4.9.8: also GET_ROUTEINFO_BY_TOPIC; 5.3.3: that
// code goes to ClientRequestProcessor). clusterTest's ClusterTestRequestProcessor is not modelled.
std::optional<RemotingResponse> NameServer::dispatch(const RemotingRequest& request,
                                                     ConnectionId channel, std::int64_t now_ms) {
  namespace rc = request_code;
  const bool v5 = profile_ == Profile::kV5;
  switch (request.code) {
    case rc::kPutKvConfig:
      return put_kv_config(request);
    case rc::kGetKvConfig:
      return get_kv_config(request);
    case rc::kDeleteKvConfig:
      return delete_kv_config(request);
    case rc::kQueryDataVersion:
      return query_broker_topic_config(request, now_ms);
    case rc::kRegisterBroker:
      return register_broker(request, channel, now_ms);
    case rc::kUnregisterBroker:
      return unregister_broker(request);
    case rc::kGetRouteinfoByTopic:
      return get_route_info_by_topic(request, now_ms);
    case rc::kGetBrokerClusterInfo:
      return get_broker_cluster_info();
    case rc::kWipeWritePermOfBroker:
      return operate_write_perm_of_broker(request, /*wipe=*/true);
    case rc::kAddWritePermOfBroker:
      return operate_write_perm_of_broker(request, /*wipe=*/false);
    case rc::kGetAllTopicListFromNameserver:
      return get_all_topic_list_from_nameserver();
    case rc::kDeleteTopicInNamesrv:
      return delete_topic_in_namesrv(request);
    case rc::kGetKvlistByNamespace:
      return get_kv_list_by_namespace(request);
    case rc::kGetTopicsByCluster:
      return get_topics_by_cluster(request);
    case rc::kGetSystemTopicListFromNs:
    case rc::kGetUnitTopicList:
    case rc::kGetHasUnitSubTopicList:
    case rc::kGetHasUnitSubUnunitTopicList:
      return get_topic_list(request.code);
    case rc::kUpdateNamesrvConfig:
      return update_config(request);
    case rc::kGetNamesrvConfig:
      return get_config();
    case rc::kRegisterTopicInNamesrv:
      if (v5) return register_topic_to_namesrv(request);
      break;
    case rc::kGetBrokerMemberGroup:
      if (v5) return get_broker_member_group(request);
      break;
    case rc::kBrokerHeartbeat:
      if (v5) return broker_heartbeat(request, now_ms);
      break;
    default:
      break;
  }
  // 4.9.8 returns null and NettyRemotingAbstract writes nothing; 5.3.3 answers.
  if (!v5) return std::nullopt;
  return detail::error_response(response_code::kRequestCodeNotSupported,
                                " request type " + std::to_string(request.code) + " not supported");
}

ScanOutcome NameServer::scan(std::int64_t now_ms) {
  ScanResult scanned = route_info_manager_.scan_not_active_broker(now_ms);
  ScanOutcome outcome;
  outcome.expired = std::move(scanned.expired);
  outcome.removals = std::move(scanned.removals);
  for (ConnectionId channel : scanned.channels_to_close) {
    const auto& closed = outcome.channels_closed;
    if (std::find(closed.begin(), closed.end(), channel) != closed.end()) continue;
    outcome.channels_closed.push_back(channel);
  }
  // Deviation: the peer address of a broker's connection is "ip:ephemeral-port", which never
  // names a broker, so the close path gets none instead of one that cannot match.
  for (ConnectionId channel : outcome.channels_closed) {
    append(outcome.removals, channel_destroyed(channel, "", RemovalPath::kChannelClose));
  }
  append(outcome.removals, process_pending_unregistrations());
  return outcome;
}

std::vector<BrokerRemoval> NameServer::channel_destroyed(ConnectionId channel,
                                                         const std::string& remote_addr,
                                                         RemovalPath path) {
  return route_info_manager_.on_channel_destroy(channel, remote_addr, path);
}

std::vector<BrokerRemoval> NameServer::take_request_removals() {  // see name_server.h
  return std::exchange(request_removals_, {});
}

std::vector<BrokerRemoval> NameServer::process_pending_unregistrations() {
  return route_info_manager_.process_pending_unregistrations();
}

std::vector<MinBrokerIdChangeNotice> NameServer::take_min_broker_id_notices() {
  return route_info_manager_.take_min_broker_id_notices();
}

}  // namespace nssim::core

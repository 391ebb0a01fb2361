// File: RocketMQ's remoting vocabulary as the NameServer sees it: request and response codes with
// their upstream names, and a typed RemotingCommand. The replay command builds these from JSON;
// the simulator builds them directly, so nothing here knows about JSON or bytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "nameserver_core/kv_config_manager.h"
#include "nameserver_core/route_types.h"

namespace nssim::core {

// Java: RequestCode, the codes the NameServer serves. Codes marked 5.x are unknown to 4.9.8.
namespace request_code {
inline constexpr int kPutKvConfig = 100;
inline constexpr int kGetKvConfig = 101;
inline constexpr int kDeleteKvConfig = 102;
inline constexpr int kRegisterBroker = 103;
inline constexpr int kUnregisterBroker = 104;
inline constexpr int kGetRouteinfoByTopic = 105;
inline constexpr int kGetBrokerClusterInfo = 106;
inline constexpr int kWipeWritePermOfBroker = 205;
inline constexpr int kGetAllTopicListFromNameserver = 206;
inline constexpr int kDeleteTopicInNamesrv = 216;
inline constexpr int kRegisterTopicInNamesrv = 217;  // 5.x
inline constexpr int kGetKvlistByNamespace = 219;
inline constexpr int kGetTopicsByCluster = 224;
inline constexpr int kGetSystemTopicListFromNs = 304;
inline constexpr int kGetUnitTopicList = 311;
inline constexpr int kGetHasUnitSubTopicList = 312;
inline constexpr int kGetHasUnitSubUnunitTopicList = 313;
inline constexpr int kUpdateNamesrvConfig = 318;
inline constexpr int kGetNamesrvConfig = 319;
inline constexpr int kQueryDataVersion = 322;
inline constexpr int kAddWritePermOfBroker = 327;
inline constexpr int kGetBrokerMemberGroup = 901;  // 5.x
inline constexpr int kBrokerHeartbeat = 904;       // 5.x
}  // namespace request_code

// The RequestCode field name of `code` ("GET_ROUTEINFO_BY_TOPIC"), or nullptr for a code not
// listed above. Reports name the NameServer's load by it.
constexpr const char* request_code_name(int code) {
  switch (code) {
    case request_code::kPutKvConfig:
      return "PUT_KV_CONFIG";
    case request_code::kGetKvConfig:
      return "GET_KV_CONFIG";
    case request_code::kDeleteKvConfig:
      return "DELETE_KV_CONFIG";
    case request_code::kRegisterBroker:
      return "REGISTER_BROKER";
    case request_code::kUnregisterBroker:
      return "UNREGISTER_BROKER";
    case request_code::kGetRouteinfoByTopic:
      return "GET_ROUTEINFO_BY_TOPIC";
    case request_code::kGetBrokerClusterInfo:
      return "GET_BROKER_CLUSTER_INFO";
    case request_code::kWipeWritePermOfBroker:
      return "WIPE_WRITE_PERM_OF_BROKER";
    case request_code::kGetAllTopicListFromNameserver:
      return "GET_ALL_TOPIC_LIST_FROM_NAMESERVER";
    case request_code::kDeleteTopicInNamesrv:
      return "DELETE_TOPIC_IN_NAMESRV";
    case request_code::kRegisterTopicInNamesrv:
      return "REGISTER_TOPIC_IN_NAMESRV";
    case request_code::kGetKvlistByNamespace:
      return "GET_KVLIST_BY_NAMESPACE";
    case request_code::kGetTopicsByCluster:
      return "GET_TOPICS_BY_CLUSTER";
    case request_code::kGetSystemTopicListFromNs:
      return "GET_SYSTEM_TOPIC_LIST_FROM_NS";
    case request_code::kGetUnitTopicList:
      return "GET_UNIT_TOPIC_LIST";
    case request_code::kGetHasUnitSubTopicList:
      return "GET_HAS_UNIT_SUB_TOPIC_LIST";
    case request_code::kGetHasUnitSubUnunitTopicList:
      return "GET_HAS_UNIT_SUB_UNUNIT_TOPIC_LIST";
    case request_code::kUpdateNamesrvConfig:
      return "UPDATE_NAMESRV_CONFIG";
    case request_code::kGetNamesrvConfig:
      return "GET_NAMESRV_CONFIG";
    case request_code::kQueryDataVersion:
      return "QUERY_DATA_VERSION";
    case request_code::kAddWritePermOfBroker:
      return "ADD_WRITE_PERM_OF_BROKER";
    case request_code::kGetBrokerMemberGroup:
      return "GET_BROKER_MEMBER_GROUP";
    case request_code::kBrokerHeartbeat:
      return "BROKER_HEARTBEAT";
    default:
      return nullptr;
  }
}

// Java: ResponseCode / RemotingSysResponseCode, the codes the NameServer answers with.
namespace response_code {
inline constexpr int kSuccess = 0;
inline constexpr int kSystemError = 1;
inline constexpr int kRequestCodeNotSupported = 3;
inline constexpr int kNoPermission = 16;
inline constexpr int kTopicNotExist = 17;
inline constexpr int kQueryNotFound = 22;
}  // namespace response_code

// Java: MixAll.ZONE_NAME / MixAll.ZONE_MODE, extFields read by REGISTER_BROKER and the 5.x
// ZoneRouteRPCHook.
inline constexpr const char* kZoneNameExtField = "__ZONE_NAME";
inline constexpr const char* kZoneModeExtField = "__ZONE_MODE";

// A body whose bytes fastjson parses to null (empty or blank text, or the text "null"). It is not
// "no body": REGISTER_BROKER then dereferences the null object and fails.
struct JsonNullBody {};

// A body that does not decode as the class the handler asks for; `message` says why. Java throws
// from RemotingSerializable#decode; the handler decides what that becomes.
struct BodyDecodeError {
  std::string message;
};

// The request body, decoded as the handler of the request code decodes it:
//   REGISTER_BROKER: RegisterBrokerBody (version >= V3_0_11) or TopicConfigSerializeWrapper;
//   QUERY_DATA_VERSION: DataVersion; REGISTER_TOPIC_IN_NAMESRV: TopicRouteData;
//   UPDATE_NAMESRV_CONFIG: the body text (Java properties);
//   std::monostate: no body (Java: request.getBody() == null). Other codes ignore the body.
using RequestBody =
    std::variant<std::monostate, JsonNullBody, RegisterBrokerBody, TopicConfigSerializeWrapper,
                 DataVersion, TopicRouteData, std::string, BodyDecodeError>;

// Java: RemotingCommand as a request. Custom header fields travel as strings in ext_fields, as on
// the wire, and are parsed by the handler with Java's rules.
struct RemotingRequest {
  int code = 0;
  int version = 0;  // MQVersion.Version ordinal of the sender
  bool oneway = false;
  std::map<std::string, std::string> ext_fields;
  RequestBody body;
  // Java: java.util.zip.CRC32 of the raw body bytes (unmasked), compared with the bodyCrc32
  // header by REGISTER_BROKER. Empty means no body was sent, which Java checksums as 0.
  std::optional<std::uint32_t> body_crc32;
};

// Java: GetBrokerMemberGroupResponseBody (5.x).
struct BrokerMemberGroupBody {
  BrokerMemberGroup broker_member_group;
};

// The response body as a typed value; the codec encodes it. KvTable is Java's KVTable {"table"},
// std::string is the GET_NAMESRV_CONFIG properties text. Routes and cluster info are the
// RouteInfoManager's shared immutable answers (never null here); whoever changes one copies it.
using ResponseBody = std::variant<std::monostate, std::shared_ptr<const TopicRouteData>,
                                  std::shared_ptr<const ClusterInfo>, TopicList, KvTable,
                                  DataVersion, BrokerMemberGroupBody, std::string>;

// Java: RemotingCommand as a response. ext_fields hold the custom response header's non-null
// fields, as Java's makeCustomHeaderToNet writes them.
struct RemotingResponse {
  int code = response_code::kSuccess;
  std::optional<std::string> remark;
  std::map<std::string, std::string> ext_fields;
  ResponseBody body;
  // Java: the handler wrote the body with encode(BrowserCompatible, QuoteFieldNames,
  // SkipTransientField, MapSortField), standard JSON. Otherwise it used
  // RemotingSerializable#encode, fastjson's defaults, whose Long map keys (brokerAddrs) go out
  // unquoted: {0:"addr"}.
  bool standard_json_body = false;
};

}  // namespace nssim::core

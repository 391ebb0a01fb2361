// File: request bodies from JSON, bound field by field as fastjson binds RegisterBrokerBody,
// TopicConfigSerializeWrapper (5.x: TopicConfigAndMappingSerializeWrapper), DataVersion and
// TopicRouteData. A decode failure becomes core::BodyDecodeError with a path-qualified message.
#include <cctype>
#include <charconv>
#include <limits>
#include <utility>

#include "nameserver_codec/body_codec.h"
#include "nameserver_codec/json_depth.h"

namespace nssim::codec {

namespace {

using nlohmann::json;
namespace core = nssim::core;

struct DecodeFailure {
  std::string message;
};

[[noreturn]] void fail(const std::string& path, const std::string& expected) {
  throw DecodeFailure{path + ": expected " + expected};
}

std::string child(const std::string& path, const std::string& key) {
  return path.empty() ? key : path + "." + key;
}

// The member `key` of `object`, or nullptr when it is missing or null (fastjson leaves the field
// at its default either way, for our purposes).
const json* member(const json& object, const char* key) {
  auto found = object.find(key);
  if (found == object.end() || found->is_null()) return nullptr;
  return &*found;
}

void require_object(const json& value, const std::string& path) {
  if (!value.is_object()) fail(path, "an object");
}

template <typename T>
T read_integer(const json& value, const std::string& path) {
  const char* expected = sizeof(T) == 4 ? "an integer (int)" : "an integer (long)";
  if (value.is_number_unsigned()) {
    const auto number = value.get<std::uint64_t>();
    if (number > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) fail(path, expected);
    return static_cast<T>(number);
  }
  if (!value.is_number_integer()) fail(path, expected);
  const auto number = value.get<std::int64_t>();
  if (number < std::numeric_limits<T>::min() || number > std::numeric_limits<T>::max()) {
    fail(path, expected);
  }
  return static_cast<T>(number);
}

template <typename T>
T read_integer_or(const json& object, const char* key, const std::string& path, T fallback) {
  const json* value = member(object, key);
  return value != nullptr ? read_integer<T>(*value, child(path, key)) : fallback;
}

std::string read_string(const json& value, const std::string& path) {
  if (!value.is_string()) fail(path, "a string");
  return value.get<std::string>();
}

std::string read_string_or(const json& object, const char* key, const std::string& path,
                           std::string fallback) {
  const json* value = member(object, key);
  return value != nullptr ? read_string(*value, child(path, key)) : std::move(fallback);
}

bool read_bool_or(const json& object, const char* key, const std::string& path, bool fallback) {
  const json* value = member(object, key);
  if (value == nullptr) return fallback;
  if (!value->is_boolean()) fail(child(path, key), "a boolean");
  return value->get<bool>();
}

// fastjson's String of a JSON value bound to a String (StringCodec#deserialze): a string as it is,
// anything else as its compact JSON text ("7", "false", "{\"a\":1}"; checked with
// RegisterBrokerBody#decode of both jars). A number is written as nlohmann prints it, where
// fastjson keeps the text it read (1.50 stays "1.50", 1e2 becomes "1E+2"): only a hand-written
// body can show that.
std::string string_text(const json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// Java: List<String> filterServerList. fastjson keeps a null element as null (`[null, "a"]` binds
// to a two-element list whose first element is null) and binds any other element as its text
// (`[1]` to ["1"]); checked with RegisterBrokerBody#decode of both jars, and found by
// tests/upstream against both real NameServers (docs/fidelity.md).
core::FilterServerList read_filter_server_list(const json& value, const std::string& path) {
  if (!value.is_array()) fail(path, "an array");
  core::FilterServerList list;
  for (const json& element : value) {
    list.push_back(element.is_null() ? std::nullopt : std::optional(string_text(element)));
  }
  return list;
}

// Java: DataVersion; `new DataVersion()` stamps the current time.
core::DataVersion decode_data_version(const json& value, const std::string& path,
                                      core::Profile profile, std::int64_t now_ms) {
  require_object(value, path);
  core::DataVersion data_version;
  data_version.timestamp = read_integer_or<std::int64_t>(value, "timestamp", path, now_ms);
  data_version.counter = read_integer_or<std::int64_t>(value, "counter", path, 0);
  if (profile == core::Profile::kV5) {
    data_version.state_version = read_integer_or<std::int64_t>(value, "stateVersion", path, 0);
  }
  return data_version;
}

// Java: TopicConfig. A missing topicName is Java's null; see core's key_or_empty for why the core
// reads it as the empty string.
core::TopicConfig decode_topic_config(const json& value, const std::string& path,
                                      core::Profile profile) {
  require_object(value, path);
  core::TopicConfig config;
  config.topic_name = read_string_or(value, "topicName", path, "");
  config.read_queue_nums = read_integer_or(value, "readQueueNums", path, config.read_queue_nums);
  config.write_queue_nums = read_integer_or(value, "writeQueueNums", path, config.write_queue_nums);
  config.perm = read_integer_or(value, "perm", path, config.perm);
  config.topic_filter_type = read_string_or(value, "topicFilterType", path, "SINGLE_TAG");
  config.topic_sys_flag = read_integer_or(value, "topicSysFlag", path, config.topic_sys_flag);
  config.order = read_bool_or(value, "order", path, false);
  if (const json* attributes = member(value, "attributes");
      attributes != nullptr && profile == core::Profile::kV5) {
    require_object(*attributes, child(path, "attributes"));
    for (const auto& [key, item] : attributes->items()) {
      config.attributes[key] = read_string(item, child(child(path, "attributes"), key));
    }
  }
  return config;
}

// Java 5.x: TopicQueueMappingInfo, kept as its JSON text and the broker name it is keyed by.
core::TopicQueueMappingInfo decode_mapping_info(const json& value, const std::string& path) {
  require_object(value, path);
  return core::TopicQueueMappingInfo{read_string_or(value, "bname", path, ""), value.dump()};
}

// Java: TopicConfigSerializeWrapper (4.9) / TopicConfigAndMappingSerializeWrapper (5.x).
core::TopicConfigSerializeWrapper decode_wrapper(const json& value, const std::string& path,
                                                 core::Profile profile, std::int64_t now_ms) {
  require_object(value, path);
  core::TopicConfigSerializeWrapper wrapper;
  wrapper.data_version = core::DataVersion{now_ms, 0, 0};
  if (const json* table = member(value, "topicConfigTable")) {
    const std::string table_path = child(path, "topicConfigTable");
    require_object(*table, table_path);
    for (const auto& [key, item] : table->items()) {
      wrapper.topic_config_table[key] = decode_topic_config(item, child(table_path, key), profile);
    }
  }
  if (const json* data_version = member(value, "dataVersion")) {
    wrapper.data_version =
        decode_data_version(*data_version, child(path, "dataVersion"), profile, now_ms);
  }
  const json* mappings = member(value, "topicQueueMappingInfoMap");
  if (mappings != nullptr && profile == core::Profile::kV5) {
    const std::string map_path = child(path, "topicQueueMappingInfoMap");
    require_object(*mappings, map_path);
    for (const auto& [topic, item] : mappings->items()) {
      wrapper.topic_queue_mapping_info_map[topic] =
          decode_mapping_info(item, child(map_path, topic));
    }
  }
  return wrapper;
}

// Java: RegisterBrokerBody. Its defaults are a new wrapper and an empty filter-server list.
core::RegisterBrokerBody decode_register_broker_body(const json& value, core::Profile profile,
                                                     std::int64_t now_ms) {
  require_object(value, "body");
  core::RegisterBrokerBody body;
  body.topic_config_serialize_wrapper.data_version = core::DataVersion{now_ms, 0, 0};
  if (const json* wrapper = member(value, "topicConfigSerializeWrapper")) {
    body.topic_config_serialize_wrapper =
        decode_wrapper(*wrapper, "body.topicConfigSerializeWrapper", profile, now_ms);
  }
  if (const auto found = value.find("filterServerList");
      found != value.end() &&
      (found->is_null() || (found->is_string() && found->get<std::string>().empty()))) {
    // fastjson reads null, and "" for a List field, as null: the broker's filter servers stay
    // as they were. Found by tests/upstream against both real NameServers (docs/fidelity.md).
    body.filter_server_list.reset();
  } else if (const json* list = member(value, "filterServerList")) {
    if (!list->is_array()) {
      // fastjson (1.2.69_noneautotype in 4.9.8, 1.2.83 in 5.3.3) reads a lone value for a List
      // field as a one-element list of its text (ArrayListTypeFieldDeserializer#parseArray, its
      // else branch): "x", 7, false, {"a":1} become ["x"], ["7"], ["false"], ["{\"a\":1}"].
      // Checked with RegisterBrokerBody#decode of both jars, and found by tests/upstream against
      // the 5.3.3 NameServer, which registers such a broker (docs/fidelity.md).
      body.filter_server_list = core::FilterServerList{string_text(*list)};
    } else {
      body.filter_server_list = read_filter_server_list(*list, "body.filterServerList");
    }
  }
  return body;
}

core::QueueData decode_queue_data(const json& value, const std::string& path) {
  require_object(value, path);
  core::QueueData queue_data;
  queue_data.broker_name = read_string_or(value, "brokerName", path, "");
  queue_data.read_queue_nums = read_integer_or(value, "readQueueNums", path, 0);
  queue_data.write_queue_nums = read_integer_or(value, "writeQueueNums", path, 0);
  queue_data.perm = read_integer_or(value, "perm", path, 0);
  queue_data.topic_sys_flag = read_integer_or(value, "topicSysFlag", path, 0);
  return queue_data;
}

std::int64_t parse_broker_id(const std::string& key, const std::string& path) {
  std::int64_t id = 0;
  auto [ptr, ec] = std::from_chars(key.data(), key.data() + key.size(), id);
  if (ec != std::errc() || ptr != key.data() + key.size()) fail(path, "a broker id (long) as key");
  return id;
}

core::BrokerData decode_broker_data(const json& value, const std::string& path,
                                    core::Profile profile) {
  require_object(value, path);
  core::BrokerData broker_data;
  broker_data.cluster = read_string_or(value, "cluster", path, "");
  broker_data.broker_name = read_string_or(value, "brokerName", path, "");
  if (const json* addrs = member(value, "brokerAddrs")) {
    const std::string addrs_path = child(path, "brokerAddrs");
    require_object(*addrs, addrs_path);
    for (const auto& [key, addr] : addrs->items()) {
      const std::string addr_path = child(addrs_path, key);
      broker_data.broker_addrs[parse_broker_id(key, addr_path)] = read_string(addr, addr_path);
    }
  }
  if (profile == core::Profile::kV5) {
    if (const json* zone = member(value, "zoneName")) {
      broker_data.zone_name = read_string(*zone, child(path, "zoneName"));
    }
    broker_data.enable_acting_master = read_bool_or(value, "enableActingMaster", path, false);
  }
  return broker_data;
}

// Java: TopicRouteData, as REGISTER_TOPIC_IN_NAMESRV reads it (only queueDatas is used).
core::TopicRouteData decode_topic_route_data(const json& value, core::Profile profile) {
  require_object(value, "body");
  core::TopicRouteData route;
  if (const json* conf = member(value, "orderTopicConf")) {
    route.order_topic_conf = read_string(*conf, "body.orderTopicConf");
  }
  if (const json* list = member(value, "queueDatas")) {
    if (!list->is_array()) fail("body.queueDatas", "an array");
    for (std::size_t i = 0; i < list->size(); ++i) {
      route.queue_datas.push_back(
          decode_queue_data((*list)[i], "body.queueDatas[" + std::to_string(i) + "]"));
    }
  }
  if (const json* list = member(value, "brokerDatas")) {
    if (!list->is_array()) fail("body.brokerDatas", "an array");
    for (std::size_t i = 0; i < list->size(); ++i) {
      route.broker_datas.push_back(
          decode_broker_data((*list)[i], "body.brokerDatas[" + std::to_string(i) + "]", profile));
    }
  }
  if (const json* table = member(value, "filterServerTable")) {
    require_object(*table, "body.filterServerTable");
    for (const auto& [addr, servers] : table->items()) {
      route.filter_server_table[addr] =
          servers.is_null()
              ? std::nullopt
              : std::optional(read_filter_server_list(servers, "body.filterServerTable." + addr));
    }
  }
  return route;
}

bool is_blank(const std::string& text) {
  for (char c : text) {
    if (std::isspace(static_cast<unsigned char>(c)) == 0) return false;
  }
  return true;
}

// The JSON value behind a body: a string is parsed as JSON text, as fastjson parses the bytes.
// nullopt is fastjson's null result.
std::optional<json> body_value(const json& body) {
  if (!body.is_string()) return body;
  const auto& text = body.get_ref<const std::string&>();
  if (is_blank(text)) return std::nullopt;
  if (json_nesting_exceeds(text, kMaxJsonDepth)) {
    throw DecodeFailure{"body: expected JSON text nested at most " + std::to_string(kMaxJsonDepth) +
                        " levels deep"};
  }
  json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) throw DecodeFailure{"body: expected JSON text"};
  if (parsed.is_null()) return std::nullopt;
  return parsed;
}

}  // namespace

std::string raw_body_bytes(const json& body) {
  return body.is_string() ? body.get<std::string>() : body.dump();
}

core::RequestBody decode_request_body(const json& body, int code, int version,
                                      core::Profile profile, std::int64_t now_ms) {
  namespace rc = core::request_code;
  if (body.is_null()) return std::monostate{};
  if (code == rc::kUpdateNamesrvConfig) return raw_body_bytes(body);
  const bool json_code = code == rc::kRegisterBroker || code == rc::kQueryDataVersion ||
                         (code == rc::kRegisterTopicInNamesrv && profile == core::Profile::kV5);
  if (!json_code) return std::monostate{};  // the handler never reads it
  try {
    const std::optional<json> value = body_value(body);
    if (!value) return core::JsonNullBody{};
    if (code == rc::kQueryDataVersion) return decode_data_version(*value, "body", profile, now_ms);
    if (code == rc::kRegisterTopicInNamesrv) return decode_topic_route_data(*value, profile);
    if (version >= core::kVersionV3_0_11) {
      return decode_register_broker_body(*value, profile, now_ms);
    }
    return decode_wrapper(*value, "body", profile, now_ms);
  } catch (const DecodeFailure& failure) {
    return core::BodyDecodeError{failure.message};
  }
}

}  // namespace nssim::codec

// scenarios/schema.json, checked without network or Python: a subset JSON Schema validator that
// knows exactly the keywords schema.json uses (type, properties, required, additionalProperties,
// enum, const, items, minItems, minimum, maximum, exclusiveMinimum, pattern, maxLength, $ref to
// #/$defs, allOf, if/then, boolean schemas; annotations are ignored). A keyword it does not know
// fails the test, so the schema cannot silently outgrow the checker. The schema must accept every
// shipped scenario, reject documents the loader rejects, and list the loader's config fields.

// GCC 12 reports a false -Wmaybe-uninitialized inside std::regex's NFA (std::function in
// _State) when sanitizers are on; the warning is located in libstdc++ headers, so it is switched
// off for this test file before any header is read.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <tuple>

#include "nameserver_core/namesrv_config.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::sim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::set<std::string> kAnnotations = {"$schema",     "$id",     "title",
                                            "description", "default", "$defs"};
const std::set<std::string> kKeywords = {"type",
                                         "properties",
                                         "required",
                                         "additionalProperties",
                                         "enum",
                                         "const",
                                         "items",
                                         "minItems",
                                         "minimum",
                                         "maximum",
                                         "pattern",
                                         "maxLength",
                                         "exclusiveMinimum",
                                         "$ref",
                                         "allOf",
                                         "if",
                                         "then"};

class SchemaChecker {
 public:
  explicit SchemaChecker(json root) : root_(std::move(root)) {}

  // Every violation, as "<path>: <what>"; empty when the document is valid.
  std::vector<std::string> check(const json& document) const {
    std::vector<std::string> errors;
    check_node(root_, document, "", errors);
    return errors;
  }

 private:
  static bool has_type(const json& value, const std::string& type) {
    if (type == "object") return value.is_object();
    if (type == "array") return value.is_array();
    if (type == "string") return value.is_string();
    if (type == "boolean") return value.is_boolean();
    if (type == "null") return value.is_null();
    if (type == "number") return value.is_number();
    if (type == "integer") {
      return value.is_number_integer() ||
             (value.is_number_float() && value.get<double>() == std::floor(value.get<double>()));
    }
    throw std::logic_error("unknown type " + type);
  }

  void check_node(const json& schema, const json& value, const std::string& path,
                  std::vector<std::string>& errors) const {
    const std::string at = path.empty() ? "(document)" : path;
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) errors.push_back(at + ": not allowed here");
      return;
    }
    for (const auto& item : schema.items()) {
      if (kAnnotations.count(item.key()) == 0 && kKeywords.count(item.key()) == 0) {
        throw std::logic_error("schema keyword the checker does not know: " + item.key());
      }
    }
    if (schema.contains("$ref")) {
      const std::string ref = schema["$ref"].get<std::string>();
      check_node(root_.at(json::json_pointer(ref.substr(1))), value, path, errors);
    }
    if (schema.contains("type")) {
      const json& type = schema["type"];
      const json types = type.is_array() ? type : json::array({type});
      const bool ok = std::any_of(types.begin(), types.end(), [&value](const json& t) {
        return has_type(value, t.get<std::string>());
      });
      if (!ok) {
        errors.push_back(at + ": must be of type " + type.dump());
        return;
      }
    }
    if (schema.contains("enum")) {
      const json& options = schema["enum"];
      if (std::find(options.begin(), options.end(), value) == options.end()) {
        errors.push_back(at + ": must be one of " + options.dump());
      }
    }
    if (schema.contains("const") && value != schema["const"]) {
      errors.push_back(at + ": must be " + schema["const"].dump());
    }
    check_object(schema, value, path, errors);
    check_array(schema, value, path, errors);
    check_scalar(schema, value, at, errors);
    for (const auto& sub : schema.value("allOf", json::array())) {
      check_node(sub, value, path, errors);
    }
    if (schema.contains("if")) {
      std::vector<std::string> condition;
      check_node(schema["if"], value, path, condition);
      if (condition.empty() && schema.contains("then")) {
        check_node(schema["then"], value, path, errors);
      }
    }
  }

  void check_object(const json& schema, const json& value, const std::string& path,
                    std::vector<std::string>& errors) const {
    if (!value.is_object()) return;
    const json properties = schema.value("properties", json::object());
    for (const auto& key : schema.value("required", json::array())) {
      if (!value.contains(key.get<std::string>())) {
        errors.push_back(key_path(path, key.get<std::string>()) + ": is required");
      }
    }
    for (const auto& item : value.items()) {
      const std::string child = key_path(path, item.key());
      if (properties.contains(item.key())) {
        check_node(properties[item.key()], item.value(), child, errors);
      } else if (schema.contains("additionalProperties")) {
        check_node(schema["additionalProperties"], item.value(), child, errors);
      }
    }
  }

  void check_array(const json& schema, const json& value, const std::string& path,
                   std::vector<std::string>& errors) const {
    if (!value.is_array()) return;
    if (schema.contains("minItems") && value.size() < schema["minItems"].get<std::size_t>()) {
      errors.push_back((path.empty() ? "(document)" : path) + ": too few items");
    }
    if (!schema.contains("items")) return;
    for (std::size_t i = 0; i < value.size(); ++i) {
      check_node(schema["items"], value[i], path + "[" + std::to_string(i) + "]", errors);
    }
  }

  static void check_scalar(const json& schema, const json& value, const std::string& at,
                           std::vector<std::string>& errors) {
    if (value.is_number()) {
      const double number = value.get<double>();
      if (schema.contains("minimum") && number < schema["minimum"].get<double>()) {
        errors.push_back(at + ": below minimum");
      }
      if (schema.contains("maximum") && number > schema["maximum"].get<double>()) {
        errors.push_back(at + ": above maximum");
      }
      if (schema.contains("exclusiveMinimum") &&
          number <= schema["exclusiveMinimum"].get<double>()) {
        errors.push_back(at + ": not above exclusiveMinimum");
      }
    }
    if (value.is_string()) {
      const auto& text = value.get_ref<const std::string&>();
      if (schema.contains("maxLength") && text.size() > schema["maxLength"].get<std::size_t>()) {
        errors.push_back(at + ": too long");
      }
      if (schema.contains("pattern") &&
          !std::regex_search(text, std::regex(schema["pattern"].get<std::string>()))) {
        errors.push_back(at + ": does not match " + schema["pattern"].dump());
      }
    }
  }

  static std::string key_path(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
  }

  json root_;
};

fs::path source_dir() {
  const char* source = std::getenv("NSSIM_SOURCE_DIR");
  return fs::path(source != nullptr ? source : ".");
}

json read_json(const fs::path& path) {
  std::ifstream in(path);
  return json::parse(in);
}

const json& schema() {
  static const json loaded = read_json(source_dir() / "scenarios" / "schema.json");
  return loaded;
}

std::vector<std::string> property_names(const json& object_schema) {
  std::vector<std::string> names;
  for (const auto& item : object_schema.at("properties").items()) names.push_back(item.key());
  std::sort(names.begin(), names.end());
  return names;
}

// Every subschema must use only known keywords (check() only meets those a document reaches).
void audit_keywords(const json& schema_node, const std::string& where) {
  if (schema_node.is_boolean()) return;
  ASSERT_TRUE(schema_node.is_object()) << where;
  for (const auto& item : schema_node.items()) {
    EXPECT_TRUE(kAnnotations.count(item.key()) + kKeywords.count(item.key()) > 0)
        << where << ": " << item.key();
    if (item.key() == "properties" || item.key() == "$defs") {
      for (const auto& sub : item.value().items())
        audit_keywords(sub.value(), where + "/" + sub.key());
    } else if (item.key() == "allOf") {
      for (const auto& sub : item.value()) audit_keywords(sub, where + "/allOf");
    } else if (item.key() == "items" || item.key() == "if" || item.key() == "then" ||
               (item.key() == "additionalProperties" && item.value().is_object())) {
      audit_keywords(item.value(), where + "/" + item.key());
    }
  }
}

TEST(ScenarioSchema, UsesOnlyKeywordsTheCheckerKnows) {
  EXPECT_EQ(schema().at("$schema"), "https://json-schema.org/draft/2020-12/schema");
  audit_keywords(schema(), "#");
}

TEST(ScenarioSchema, AcceptsEveryShippedScenario) {
  const SchemaChecker checker(schema());
  int checked = 0;
  for (const auto& entry : fs::directory_iterator(source_dir() / "scenarios")) {
    if (entry.path().extension() != ".json" || entry.path().filename() == "schema.json") continue;
    const auto errors = checker.check(read_json(entry.path()));
    EXPECT_TRUE(errors.empty()) << entry.path() << ": " << errors.front();
    ++checked;
  }
  EXPECT_GE(checked, 11);
}

// No shipped scenario has consumers yet: the test file of the consumers block stands for them.
TEST(ScenarioSchema, AcceptsTheConsumersTestFile) {
  const fs::path file = source_dir() / "tests" / "scenarios" / "consumers_plumbing.json";
  const auto errors = SchemaChecker(schema()).check(read_json(file));
  EXPECT_TRUE(errors.empty()) << errors.front();
}

json every_kind_document() {
  return json::parse(R"({
    "name": "t", "duration_ms": 600000,
    "broker_groups": [{"name": "broker-a"}, {"name_prefix": "g-", "count": 2}],
    "topics": [{"name": "TopicTest"}],
    "producers": [{"count": 2}],
    "consumers": [{"group": "g", "count": 2, "topics": ["TopicTest"], "config": {}}],
    "faults": [{"kind": "kill", "node": "broker-a-0", "at_ms": 5, "duration_ms": 5},
               {"kind": "partition", "from": ["producers"], "to": ["broker-a"], "at_ms": 6},
               {"kind": "latency", "node": "ns-0", "latency_ms": 20, "at_ms": 7},
               {"kind": "wipeWritePerm", "broker_name": "broker-a", "at_ms": 8}],
    "expect": ["sends.failed.total == 0", "a[0].b <= predicted.c", "x > -1.5e3"]
  })");
}

TEST(ScenarioSchema, AcceptsWhatTheLoaderAccepts) {
  const json doc = every_kind_document();
  EXPECT_NO_THROW(parse_scenario(doc.dump(), "x.json", {}));
  const auto errors = SchemaChecker(schema()).check(doc);
  EXPECT_TRUE(errors.empty()) << errors.front();
}

struct WrongDocument {
  const char* pointer;
  const char* value;  // JSON; "DELETE" removes the field
  const char* schema_error;
};

TEST(ScenarioSchema, RejectsWhatTheLoaderRejects) {
  const WrongDocument cases[] = {
      {"/duraton_ms", "5", "duraton_ms: not allowed here"},
      {"/duration_ms", "DELETE", "duration_ms: is required"},
      {"/duration_ms", "0", "duration_ms: not above exclusiveMinimum"},
      {"/name", "\"Bad-Name\"", "name: does not match"},
      {"/profile", "\"5.3\"", "profile: must be one of"},
      {"/nameservers", R"({"count": 0})", "nameservers.count: below minimum"},
      {"/broker_groups", "[]", "broker_groups: too few items"},
      {"/broker_groups/0/name", "\"a b\"", "broker_groups[0].name: does not match"},
      {"/producers/0/config/sendMsgTimout", "3000",
       "producers[0].config.sendMsgTimout: not allowed here"},
      {"/producers/0/rate_per_s", "0", "producers[0].rate_per_s: not above exclusiveMinimum"},
      {"/producers/0/arrival", "\"bursty\"", "producers[0].arrival: must be one of"},
      {"/consumers/0/group", "DELETE", "consumers[0].group: is required"},
      {"/consumers/0/config/pullBatchSize", "0",
       "consumers[0].config.pullBatchSize: not above exclusiveMinimum"},
      {"/consumers/0/config/messageModel", "\"CLUSTERING\"",
       "consumers[0].config.messageModel: not allowed here"},
      {"/faults/0/kind", "\"explode\"", "faults[0].kind: must be one of"},
      {"/faults/0/at_ms", "-1", "faults[0].at_ms: below minimum"},
      {"/faults/0/latency_ms", "5", "faults[0].latency_ms: not allowed here"},
      {"/faults/1/to", "DELETE", "faults[1].to: is required"},
      {"/faults/2/latency_ms", "DELETE", "faults[2].latency_ms: is required"},
      {"/faults/3/duration_ms", "5", "faults[3].duration_ms: not allowed here"},
      {"/faults/0/nameservers", "\"some\"", "faults[0].nameservers: must be one of"},
      {"/expect/0", "\"sends.failed.total = 0\"", "expect[0]: does not match"},
      {"/expect/0", "\"a == lots\"", "expect[0]: does not match"},
      {"/seed", "-1", "seed: below minimum"},
  };
  const SchemaChecker checker(schema());
  for (const auto& c : cases) {
    SCOPED_TRACE(std::string(c.pointer) + " = " + c.value);
    json doc = every_kind_document();
    const json::json_pointer pointer(c.pointer);
    if (std::string(c.value) == "DELETE") {
      doc[pointer.parent_pointer()].erase(pointer.back());
    } else {
      doc[pointer] = json::parse(c.value);
    }
    const auto errors = checker.check(doc);
    const bool found = std::any_of(errors.begin(), errors.end(), [&c](const std::string& e) {
      return e.find(c.schema_error) != std::string::npos;
    });
    EXPECT_TRUE(found) << (errors.empty() ? "schema accepted it" : errors.front());
    EXPECT_THROW(parse_scenario(doc.dump(), "x.json", {}), ScenarioError);
  }
}

TEST(ScenarioSchema, ListsExactlyTheLoadersConfigFields) {
  const json& defs = schema().at("$defs");
  EXPECT_EQ(property_names(defs.at("brokerConfig")), broker_config_field_names(core::Profile::kV5));
  EXPECT_EQ(property_names(defs.at("producerConfig")),
            producer_config_field_names(core::Profile::kV5));
  EXPECT_EQ(property_names(defs.at("consumerConfig")),
            consumer_config_field_names(core::Profile::kV5));
  std::vector<std::string> namesrv;
  for (const auto& [name, value] : core::namesrv_config_properties({}, core::Profile::kV5)) {
    namesrv.push_back(name);
  }
  EXPECT_EQ(property_names(defs.at("namesrvConfig")), namesrv);
}

TEST(ScenarioSchema, FaultKindsMatchTheLoader) {
  const json& kinds = schema().at("$defs").at("fault").at("properties").at("kind").at("enum");
  EXPECT_EQ(kinds.size(), 9u);
  for (const auto& kind : kinds) {
    const auto parsed = parse_fault_kind(kind.get<std::string>());
    ASSERT_TRUE(parsed.has_value()) << kind;
    EXPECT_EQ(fault_kind_name(*parsed), kind.get<std::string>());
  }
}

// Setting a config field to the schema's "default" must change nothing: the documented defaults
// are the loader's (and so upstream's, which scenario_loader_test pins).
TEST(ScenarioSchema, ConfigDefaultsMatchTheLoader) {
  struct Section {
    const char* def;
    const char* path;
  };
  for (const Section& section : {Section{"brokerConfig", "broker_groups[0].config"},
                                 Section{"producerConfig", "producers[0].config"},
                                 Section{"consumerConfig", "consumers[0].config"},
                                 Section{"namesrvConfig", "nameservers.config"}}) {
    for (const auto& item : schema().at("$defs").at(section.def).at("properties").items()) {
      if (!item.value().contains("default")) continue;
      SCOPED_TRACE(item.key());
      LoadOptions with_default;
      with_default.set = {std::string(section.path) + "." + item.key() + "=" +
                          item.value()["default"].dump()};
      const Scenario a = parse_scenario(every_kind_document().dump(), "x.json", {});
      const Scenario b = parse_scenario(every_kind_document().dump(), "x.json", with_default);
      EXPECT_EQ(core::namesrv_config_properties(a.nameservers.config, core::Profile::kV5),
                core::namesrv_config_properties(b.nameservers.config, core::Profile::kV5));
      const BrokerConfig& x = a.broker_groups[0].config;
      const BrokerConfig& y = b.broker_groups[0].config;
      EXPECT_EQ(
          std::tie(x.register_name_server_period, x.register_broker_timeout_mills, x.force_register,
                   x.broker_permission, x.enable_slave_acting_master, x.broker_heartbeat_interval,
                   x.broker_not_active_timeout_millis, x.compatible_with_old_name_srv,
                   x.auto_create_topic_enable, x.default_topic_queue_nums),
          std::tie(y.register_name_server_period, y.register_broker_timeout_mills, y.force_register,
                   y.broker_permission, y.enable_slave_acting_master, y.broker_heartbeat_interval,
                   y.broker_not_active_timeout_millis, y.compatible_with_old_name_srv,
                   y.auto_create_topic_enable, y.default_topic_queue_nums));
      const ProducerConfig& p = a.producers[0].config;
      const ProducerConfig& q = b.producers[0].config;
      EXPECT_EQ(
          std::tie(p.poll_name_server_interval, p.heartbeat_broker_interval,
                   p.mq_client_api_timeout, p.send_msg_timeout, p.retry_times_when_send_failed,
                   p.send_latency_fault_enable, p.retry_another_broker_when_not_store_ok,
                   p.send_msg_max_timeout_per_request, p.start_detector_enable,
                   p.connect_timeout_millis, p.client_close_socket_if_timeout),
          std::tie(q.poll_name_server_interval, q.heartbeat_broker_interval,
                   q.mq_client_api_timeout, q.send_msg_timeout, q.retry_times_when_send_failed,
                   q.send_latency_fault_enable, q.retry_another_broker_when_not_store_ok,
                   q.send_msg_max_timeout_per_request, q.start_detector_enable,
                   q.connect_timeout_millis, q.client_close_socket_if_timeout));
      const ConsumerConfig& c = a.consumers[0].config;
      const ConsumerConfig& d = b.consumers[0].config;
      EXPECT_EQ(
          std::tie(c.poll_name_server_interval, c.heartbeat_broker_interval,
                   c.persist_consumer_offset_interval, c.mq_client_api_timeout,
                   c.connect_timeout_millis, c.client_close_socket_if_timeout, c.pull_batch_size,
                   c.pull_interval, c.consume_thread_min, c.consume_thread_max,
                   c.pull_time_delay_mills_when_exception, c.broker_suspend_max_time_millis,
                   c.rebalance_wait_interval, c.rebalance_min_interval),
          std::tie(d.poll_name_server_interval, d.heartbeat_broker_interval,
                   d.persist_consumer_offset_interval, d.mq_client_api_timeout,
                   d.connect_timeout_millis, d.client_close_socket_if_timeout, d.pull_batch_size,
                   d.pull_interval, d.consume_thread_min, d.consume_thread_max,
                   d.pull_time_delay_mills_when_exception, d.broker_suspend_max_time_millis,
                   d.rebalance_wait_interval, d.rebalance_min_interval));
    }
  }
}

}  // namespace
}  // namespace nssim::sim

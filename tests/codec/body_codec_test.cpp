// Request-body decoding and response-body encoding with upstream's field names.
#include "nameserver_codec/body_codec.h"

#include <gtest/gtest.h>

#include <memory>

namespace nssim::codec {
namespace {

using core::Profile;
using nlohmann::json;
namespace rc = core::request_code;

constexpr std::int64_t kNow = 4242;

core::RequestBody decode(const json& body, int code, Profile profile = Profile::kV5,
                         int version = core::kVersionV5_3_3) {
  return decode_request_body(body, code, version, profile, kNow);
}

std::string decode_error(const json& body, int code, int version = core::kVersionV5_3_3) {
  const auto decoded = decode(body, code, Profile::kV5, version);
  const auto* error = std::get_if<core::BodyDecodeError>(&decoded);
  return error != nullptr ? error->message : "(decoded)";
}

TEST(BodyDecode, RegisterBrokerBodyBindsUpstreamFieldNames) {
  const json body = json::parse(R"({
    "topicConfigSerializeWrapper": {
      "topicConfigTable": {"T": {"topicName": "T", "readQueueNums": 4, "writeQueueNums": 2,
                                 "perm": 7, "topicSysFlag": 1, "order": true,
                                 "topicFilterType": "MULTI_TAG", "attributes": {"a": "b"}}},
      "dataVersion": {"timestamp": 10, "counter": 3, "stateVersion": 2},
      "topicQueueMappingInfoMap": {"T": {"bname": "broker-a", "epoch": 1}}},
    "filterServerList": ["f1"], "unknown": 1})");
  const auto decoded = std::get<core::RegisterBrokerBody>(decode(body, rc::kRegisterBroker));
  const auto& wrapper = decoded.topic_config_serialize_wrapper;
  const auto& topic = wrapper.topic_config_table.at("T");
  EXPECT_EQ(topic.topic_name, "T");
  EXPECT_EQ(topic.read_queue_nums, 4);
  EXPECT_EQ(topic.write_queue_nums, 2);
  EXPECT_EQ(topic.perm, 7);
  EXPECT_EQ(topic.topic_sys_flag, 1);
  EXPECT_TRUE(topic.order);
  EXPECT_EQ(topic.topic_filter_type, "MULTI_TAG");
  EXPECT_EQ(topic.attributes.at("a"), "b");
  EXPECT_EQ(wrapper.data_version.timestamp, 10);
  EXPECT_EQ(wrapper.data_version.counter, 3);
  EXPECT_EQ(wrapper.data_version.state_version, 2);
  EXPECT_EQ(wrapper.topic_queue_mapping_info_map.at("T").bname, "broker-a");
  EXPECT_EQ(json::parse(wrapper.topic_queue_mapping_info_map.at("T").json)["epoch"], 1);
  EXPECT_EQ(decoded.filter_server_list, core::FilterServerList{"f1"});
}

// Java's defaults: TopicConfig's 16/16/6, a new DataVersion stamped "now", no filter servers.
TEST(BodyDecode, MissingFieldsKeepJavaDefaults) {
  const json body =
      json::parse(R"({"topicConfigSerializeWrapper": {"topicConfigTable": {"T": {}}}})");
  const auto decoded = std::get<core::RegisterBrokerBody>(decode(body, rc::kRegisterBroker));
  const auto& topic = decoded.topic_config_serialize_wrapper.topic_config_table.at("T");
  EXPECT_EQ(topic.topic_name, "");  // Java's null
  EXPECT_EQ(topic.read_queue_nums, 16);
  EXPECT_EQ(topic.write_queue_nums, 16);
  EXPECT_EQ(topic.perm, 6);
  EXPECT_EQ(decoded.topic_config_serialize_wrapper.data_version.timestamp, kNow);
  EXPECT_EQ(decoded.topic_config_serialize_wrapper.data_version.counter, 0);
  EXPECT_EQ(decoded.filter_server_list, core::FilterServerList{});
  const auto empty =
      std::get<core::RegisterBrokerBody>(decode(json::object(), rc::kRegisterBroker));
  EXPECT_EQ(empty.topic_config_serialize_wrapper.data_version.timestamp, kNow);
}

TEST(BodyDecode, FourNineIgnoresFiveXFields) {
  const json body = json::parse(R"({"topicConfigSerializeWrapper": {
      "dataVersion": {"timestamp": 1, "counter": 2, "stateVersion": 9},
      "topicConfigTable": {"T": {"topicName": "T", "attributes": {"a": "b"}}},
      "topicQueueMappingInfoMap": {"T": {"bname": "x"}}}})");
  const auto decoded =
      std::get<core::RegisterBrokerBody>(decode(body, rc::kRegisterBroker, Profile::kV4_9));
  const auto& wrapper = decoded.topic_config_serialize_wrapper;
  EXPECT_EQ(wrapper.data_version.state_version, 0);
  EXPECT_TRUE(wrapper.topic_config_table.at("T").attributes.empty());
  EXPECT_TRUE(wrapper.topic_queue_mapping_info_map.empty());
}

// fastjson, in 4.9.8 (1.2.69) and 5.3.3 (1.2.83) alike, reads a lone value for a List field as a
// one-element list of its text (checked against both RegisterBrokerBody jars; the 5.3.3
// NameServer registers such a broker, docs/fidelity.md).
TEST(BodyDecode, ALoneFilterServerIsAOneElementListOfItsText) {
  for (const Profile profile : {Profile::kV4_9, Profile::kV5}) {
    const auto list_of = [profile](const char* text) {
      const auto decoded = decode(json::parse(text), rc::kRegisterBroker, profile);
      return std::get<core::RegisterBrokerBody>(decoded).filter_server_list;
    };
    EXPECT_EQ(list_of(R"({"filterServerList": "none"})"), core::FilterServerList{"none"});
    EXPECT_EQ(list_of(R"({"filterServerList": 7})"), core::FilterServerList{"7"});
    EXPECT_EQ(list_of(R"({"filterServerList": false})"), core::FilterServerList{"false"});
    EXPECT_EQ(list_of(R"({"filterServerList": {"b": 1, "a": 2}})"),
              core::FilterServerList{R"({"a":2,"b":1})"});
  }
}

// fastjson reads null, and "" for a List field, as null (both real NameServers register such a
// broker and keep its filter servers as they were, docs/fidelity.md); an absent list is
// RegisterBrokerBody's own empty one.
TEST(BodyDecode, ANullOrEmptyTextFilterServerListIsNullAndAnAbsentOneIsEmpty) {
  for (const Profile profile : {Profile::kV4_9, Profile::kV5}) {
    const auto list_of = [profile](const char* text) {
      const auto decoded = decode(json::parse(text), rc::kRegisterBroker, profile);
      return std::get<core::RegisterBrokerBody>(decoded).filter_server_list;
    };
    EXPECT_EQ(list_of(R"({"filterServerList": ""})"), std::nullopt);
    EXPECT_EQ(list_of(R"({"filterServerList": null})"), std::nullopt);
    EXPECT_EQ(list_of(R"({})"), core::FilterServerList{});
    EXPECT_EQ(list_of(R"({"filterServerList": []})"), core::FilterServerList{});
  }
}

// fastjson keeps a null element of a List<String> and binds any other element as its text
// (checked with RegisterBrokerBody#decode of both jars); both real NameServers register such a
// broker and list the elements so in its route (docs/fidelity.md).
TEST(BodyDecode, ANullFilterServerIsANullElementAndAnyOtherIsItsText) {
  for (const Profile profile : {Profile::kV4_9, Profile::kV5}) {
    const auto list_of = [profile](const char* text) {
      const auto decoded = decode(json::parse(text), rc::kRegisterBroker, profile);
      return std::get<core::RegisterBrokerBody>(decoded).filter_server_list;
    };
    EXPECT_EQ(list_of(R"({"filterServerList": [null]})"), core::FilterServerList{std::nullopt});
    EXPECT_EQ(list_of(R"({"filterServerList": [null, "a"]})"),
              (core::FilterServerList{std::nullopt, "a"}));
    EXPECT_EQ(list_of(R"({"filterServerList": ["a", null]})"),
              (core::FilterServerList{"a", std::nullopt}));
    EXPECT_EQ(list_of(R"({"filterServerList": [1, true, {"b": 1, "a": [2]}, ""]})"),
              (core::FilterServerList{"1", "true", R"({"a":[2],"b":1})", ""}));
  }
}

TEST(BodyDecode, OldBrokersSendABareWrapper) {
  const json body = json::parse(R"({"topicConfigTable": {"T": {"topicName": "T"}}})");
  const auto decoded = decode(body, rc::kRegisterBroker, Profile::kV5, 36);
  EXPECT_EQ(std::get<core::TopicConfigSerializeWrapper>(decoded).topic_config_table.count("T"), 1u);
}

TEST(BodyDecode, WrongTypesAreErrorsWithAPath) {
  EXPECT_EQ(decode_error(json::parse(R"({"topicConfigSerializeWrapper": {"topicConfigTable":
                {"T": {"perm": "6"}}}})"),
                         rc::kRegisterBroker),
            "body.topicConfigSerializeWrapper.topicConfigTable.T.perm: expected an integer (int)");
  EXPECT_EQ(decode_error(json::array(), rc::kRegisterBroker), "body: expected an object");
  EXPECT_EQ(decode_error(json::parse(R"({"counter": 1.5})"), rc::kQueryDataVersion),
            "body.counter: expected an integer (long)");
  EXPECT_EQ(
      decode_error(json::parse(R"({"topicConfigTable": {"T": {"readQueueNums": 4294967296}}})"),
                   rc::kRegisterBroker, 0),
      "body.topicConfigTable.T.readQueueNums: expected an integer (int)");
}

// A JSON null field is read as missing (Java would store the null).
TEST(BodyDecode, NullFieldsCountAsMissing) {
  const auto decoded = std::get<core::DataVersion>(
      decode(json::parse(R"({"timestamp": null, "counter": 5})"), rc::kQueryDataVersion));
  EXPECT_EQ(decoded.timestamp, kNow);
  EXPECT_EQ(decoded.counter, 5);
}

TEST(BodyDecode, StringBodiesAreParsedAsJsonText) {
  const auto decoded = decode(R"({"counter": 7, "timestamp": 1})", rc::kQueryDataVersion);
  EXPECT_EQ(std::get<core::DataVersion>(decoded).counter, 7);
  for (const char* null_text : {"", "  ", "null"}) {
    EXPECT_TRUE(std::holds_alternative<core::JsonNullBody>(decode(null_text, rc::kRegisterBroker)))
        << null_text;
  }
  EXPECT_EQ(decode_error("{oops", rc::kRegisterBroker), "body: expected JSON text");
}

TEST(BodyDecode, NoBodyAndBodiesNoHandlerReadsAreMonostate) {
  EXPECT_TRUE(std::holds_alternative<std::monostate>(decode(nullptr, rc::kRegisterBroker)));
  EXPECT_TRUE(
      std::holds_alternative<std::monostate>(decode(json::object(), rc::kGetRouteinfoByTopic)));
  // REGISTER_TOPIC_IN_NAMESRV is unknown to 4.9.8.
  EXPECT_TRUE(std::holds_alternative<std::monostate>(
      decode(json::object(), rc::kRegisterTopicInNamesrv, Profile::kV4_9)));
}

TEST(BodyDecode, UpdateNamesrvConfigTakesTheRawText) {
  EXPECT_EQ(std::get<std::string>(decode("a=1\nb=2", rc::kUpdateNamesrvConfig)), "a=1\nb=2");
  EXPECT_EQ(std::get<std::string>(decode(json{{"a", 1}}, rc::kUpdateNamesrvConfig)), R"({"a":1})");
}

TEST(BodyDecode, TopicRouteDataForRegisterTopic) {
  const json body = json::parse(R"({"queueDatas": [{"brokerName": "b", "readQueueNums": 2,
      "writeQueueNums": 3, "perm": 6, "topicSysFlag": 0}],
      "brokerDatas": [{"cluster": "c", "brokerName": "b", "brokerAddrs": {"0": "a:1"},
                       "zoneName": "z", "enableActingMaster": true}],
      "filterServerTable": {"a:1": ["f"], "a:2": null, "a:3": [null]}, "orderTopicConf": "b:2"})");
  const auto route = std::get<core::TopicRouteData>(decode(body, rc::kRegisterTopicInNamesrv));
  ASSERT_EQ(route.queue_datas.size(), 1u);
  EXPECT_EQ(route.queue_datas[0], (core::QueueData{"b", 2, 3, 6, 0}));
  EXPECT_EQ(route.broker_datas.at(0).broker_addrs.at(0), "a:1");
  EXPECT_EQ(route.broker_datas.at(0).zone_name, "z");
  EXPECT_TRUE(route.broker_datas.at(0).enable_acting_master);
  EXPECT_EQ(route.filter_server_table.at("a:1"), core::FilterServerList{"f"});
  EXPECT_FALSE(route.filter_server_table.at("a:2").has_value());
  EXPECT_EQ(route.filter_server_table.at("a:3"), core::FilterServerList{std::nullopt});
  EXPECT_EQ(route.order_topic_conf, "b:2");
  EXPECT_EQ(decode_error(json::parse(R"({"brokerDatas": [{"brokerAddrs": {"x": "a"}}]})"),
                         rc::kRegisterTopicInNamesrv),
            "body.brokerDatas[0].brokerAddrs.x: expected a broker id (long) as key");
}

TEST(RawBodyBytes, StringsAreVerbatimOtherValuesCompact) {
  EXPECT_EQ(raw_body_bytes("a b"), "a b");
  EXPECT_EQ(raw_body_bytes(json::parse(R"({"b": 1, "a": [1, 2]})")), R"({"a":[1,2],"b":1})");
}

core::TopicRouteData sample_route() {
  core::TopicRouteData route;
  route.queue_datas = {core::QueueData{"broker-a", 4, 4, 6, 0}};
  core::BrokerData broker_data{
      "c", "broker-a", {{0, "a:0"}, {10, "a:10"}, {2, "a:2"}}, "zone", true};
  route.broker_datas = {broker_data};
  route.filter_server_table = {{"a:0", core::FilterServerList{"f"}}, {"a:2", std::nullopt}};
  return route;
}

TEST(BodyEncode, TopicRouteDataIn5x) {
  core::TopicRouteData route = sample_route();
  route.topic_queue_mapping_by_broker = std::map<std::string, core::TopicQueueMappingInfo>{
      {"broker-a", {"broker-a", R"({"bname":"broker-a","epoch":3})"}}};
  EXPECT_EQ(
      encode_topic_route_data(route, Profile::kV5).dump(),
      R"({"brokerDatas":[{"brokerAddrs":{"0":"a:0","10":"a:10","2":"a:2"},"brokerName":"broker-a",)"
      R"("cluster":"c","enableActingMaster":true,"zoneName":"zone"}],)"
      R"("filterServerTable":{"a:0":["f"]},)"
      R"("queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,)"
      R"("writeQueueNums":4}],"topicQueueMappingByBroker":{"broker-a":{"bname":"broker-a","epoch":3}}})");
}

// A null element is written as null (fastjson's ListSerializer; checked with TopicRouteData#encode
// of both jars), while a null list is left out as every null map value.
TEST(BodyEncode, ANullFilterServerIsWrittenAsNull) {
  for (const Profile profile : {Profile::kV4_9, Profile::kV5}) {
    core::TopicRouteData route = sample_route();
    route.filter_server_table["a:0"] = core::FilterServerList{std::nullopt, "f", std::nullopt};
    EXPECT_EQ(encode_topic_route_data(route, profile)["filterServerTable"].dump(),
              R"({"a:0":[null,"f",null]})");
  }
}

TEST(BodyEncode, TopicRouteDataIn49HasNo5xFields) {
  core::TopicRouteData route = sample_route();
  route.order_topic_conf = "broker-a:4";
  const json encoded = encode_topic_route_data(route, Profile::kV4_9);
  EXPECT_EQ(encoded["orderTopicConf"], "broker-a:4");
  EXPECT_FALSE(encoded["brokerDatas"][0].contains("zoneName"));
  EXPECT_FALSE(encoded["brokerDatas"][0].contains("enableActingMaster"));
  EXPECT_FALSE(encoded.contains("topicQueueMappingByBroker"));
}

TEST(BodyEncode, DataVersionHasStateVersionIn5xOnly) {
  EXPECT_EQ(encode_data_version({1, 2, 3}, Profile::kV5).dump(),
            R"({"counter":2,"stateVersion":3,"timestamp":1})");
  EXPECT_EQ(encode_data_version({1, 2, 3}, Profile::kV4_9).dump(),
            R"({"counter":2,"timestamp":1})");
}

TEST(BodyEncode, ClusterInfoTopicListKvTableAndMemberGroup) {
  core::ClusterInfo info;
  info.broker_addr_table["b"] = core::BrokerData{"c", "b", {{0, "a"}}, std::nullopt, false};
  info.cluster_addr_table["c"] = {"b"};
  EXPECT_EQ(
      encode_response_body(std::make_shared<const core::ClusterInfo>(info), Profile::kV4_9).dump(),
      R"({"brokerAddrTable":{"b":{"brokerAddrs":{"0":"a"},"brokerName":"b","cluster":"c"}},)"
      R"("clusterAddrTable":{"c":["b"]}})");
  EXPECT_EQ(encode_response_body(core::TopicList{{"y", "x"}, std::nullopt}, Profile::kV5).dump(),
            R"({"topicList":["x","y"]})");
  EXPECT_EQ(encode_response_body(core::TopicList{{}, "a:1"}, Profile::kV5).dump(),
            R"({"brokerAddr":"a:1","topicList":[]})");
  EXPECT_EQ(encode_response_body(core::KvTable{{"k", "v"}}, Profile::kV5).dump(),
            R"({"table":{"k":"v"}})");
  EXPECT_EQ(encode_response_body(core::BrokerMemberGroupBody{{"c", "b", {{1, "a"}}}}, Profile::kV5)
                .dump(),
            R"({"brokerMemberGroup":{"brokerAddrs":{"1":"a"},"brokerName":"b","cluster":"c"}})");
  EXPECT_EQ(encode_response_body(std::string("a=1\n"), Profile::kV5), "a=1\n");
  EXPECT_TRUE(encode_response_body(std::monostate{}, Profile::kV5).is_null());
}

}  // namespace
}  // namespace nssim::codec

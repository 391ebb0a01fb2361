// handle_frame: a request frame through a NameServer to its answer frame, as `nssim serve` runs
// it, checked against the frames ali-ons was seen to send and accept (shared/notes/ali-ons).
#include "nameserver_codec/remoting_handler.h"

#include <gtest/gtest.h>

#include <string>

#include "nameserver_codec/body_codec.h"
#include "nameserver_codec/crc32.h"

namespace nssim::codec {
namespace {

using core::Profile;

// fake_broker.py's REGISTER_BROKER body and header (golden 11); bodyCrc32 is UtilAll#crc32 of
// exactly these bytes.
const std::string kRegisterBody =
    R"({"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{"counter":1,)"
    R"("timestamp":1717000000000},"topicConfigTable":{"TBW102":{"order":false,"perm":7,)"
    R"("readQueueNums":8,"topicFilterType":"SINGLE_TAG","topicName":"TBW102","topicSysFlag":0,)"
    R"("writeQueueNums":8},"TopicTest":{"order":false,"perm":6,"readQueueNums":4,)"
    R"("topicFilterType":"SINGLE_TAG","topicName":"TopicTest","topicSysFlag":0,)"
    R"("writeQueueNums":4}}}})";

RemotingFrame register_frame(const std::string& crc, int opaque = 1001, int flag = 0) {
  RemotingFrame frame;
  frame.header.code = 103;
  frame.header.version = 409;
  frame.header.opaque = opaque;
  frame.header.flag = flag;
  frame.header.ext_fields = {{"brokerAddr", "127.0.0.1:20911"},  {"brokerId", "0"},
                             {"brokerName", "broker-a"},         {"bodyCrc32", crc},
                             {"clusterName", "DefaultCluster"},  {"compressed", "false"},
                             {"haServerAddr", "127.0.0.1:20912"}};
  frame.body = kRegisterBody;
  return frame;
}

RemotingFrame route_frame(int version, int opaque) {
  RemotingFrame frame;
  frame.header.code = 105;
  frame.header.version = version;
  frame.header.opaque = opaque;
  frame.header.ext_fields = {{"topic", "TopicTest"}};
  return frame;
}

// The answer decoded back: its header and body.
RemotingFrame answer_of(const HandledFrame& handled) {
  EXPECT_TRUE(handled.response_frame.has_value());
  FrameDecoder decoder;
  decoder.feed(handled.response_frame.value_or(""));
  auto next = decoder.next();
  EXPECT_TRUE(std::holds_alternative<RemotingFrame>(next));
  EXPECT_EQ(decoder.buffered(), 0u);
  return std::holds_alternative<RemotingFrame>(next) ? std::get<RemotingFrame>(next)
                                                     : RemotingFrame{};
}

const core::ConnectionId kBroker{1};
const core::ConnectionId kClient{2};

// The route body ali-ons accepted from nssim (golden 09 for 4.9, 10 for 5.x), legacy-encoded.
const std::string kLegacyRoute49 =
    R"({"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:20911"},"brokerName":"broker-a",)"
    R"("cluster":"DefaultCluster"}],"filterServerTable":{},"queueDatas":[{"brokerName":)"
    R"("broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,"writeQueueNums":4}]})";
const std::string kLegacyRoute5x =
    R"({"brokerDatas":[{"brokerAddrs":{0:"127.0.0.1:20911"},"brokerName":"broker-a",)"
    R"("cluster":"DefaultCluster","enableActingMaster":false}],"filterServerTable":{},)"
    R"("queueDatas":[{"brokerName":"broker-a","perm":6,"readQueueNums":4,"topicSysFlag":0,)"
    R"("writeQueueNums":4}]})";

TEST(HandleFrame, RegisterChecksTheCrcOverTheRawBodyBytesAndAnswersWithFlagAndOpaque) {
  core::NameServer name_server(Profile::kV4_9, {}, 0);
  const RemotingFrame bad = answer_of(handle_frame(name_server, register_frame("1"), kBroker, 0));
  EXPECT_EQ(bad.header.code, 1);
  EXPECT_EQ(bad.header.remark, "crc32 not match");
  const HandledFrame handled = handle_frame(name_server, register_frame("1407248878"), kBroker, 0);
  EXPECT_EQ(handled.response_code, 0);
  const RemotingFrame good = answer_of(handled);
  EXPECT_EQ(good.header.code, 0);
  EXPECT_EQ(good.header.flag, kFlagResponse);
  EXPECT_EQ(good.header.opaque, 1001);
  EXPECT_EQ(good.header.version, 409);  // NamesrvStartup: MQVersion.CURRENT_VERSION
  EXPECT_FALSE(good.header.remark.has_value());
  EXPECT_EQ(good.body, "");
}

TEST(HandleFrame, RouteForAliOnsVersion121IsLegacyJsonAsGoldenUnderBothProfiles) {
  for (Profile profile : {Profile::kV4_9, Profile::kV5}) {
    core::NameServer name_server(profile, {}, 0);
    handle_frame(name_server, register_frame("1407248878"), kBroker, 0);
    const RemotingFrame route =
        answer_of(handle_frame(name_server, route_frame(121, 9), kClient, 1));
    EXPECT_EQ(route.header.code, 0);
    EXPECT_EQ(route.header.opaque, 9);
    EXPECT_EQ(route.header.version, profile == Profile::kV5 ? 479 : 409);
    EXPECT_EQ(route.body, profile == Profile::kV5 ? kLegacyRoute5x : kLegacyRoute49);
  }
}

TEST(HandleFrame, RouteIsStandardFromV4_9_4OrWithAcceptStandardJsonOnly) {
  core::NameServer name_server(Profile::kV4_9, {}, 0);
  handle_frame(name_server, register_frame("1407248878"), kBroker, 0);
  std::string standard = kLegacyRoute49;
  standard.replace(standard.find("{0:"), 3, "{\"0\":");
  EXPECT_EQ(answer_of(handle_frame(name_server, route_frame(401, 2), kClient, 1)).body, standard);
  EXPECT_EQ(answer_of(handle_frame(name_server, route_frame(400, 3), kClient, 1)).body,
            kLegacyRoute49);
  RemotingFrame asks_standard = route_frame(121, 4);
  asks_standard.header.ext_fields["acceptStandardJsonOnly"] = "TRUE";  // Boolean.parseBoolean
  EXPECT_EQ(answer_of(handle_frame(name_server, asks_standard, kClient, 1)).body, standard);
}

TEST(HandleFrame, ClusterInfoIsAlwaysLegacy) {
  core::NameServer name_server(Profile::kV5, {}, 0);
  handle_frame(name_server, register_frame("1407248878"), kBroker, 0);
  RemotingFrame cluster_info;
  cluster_info.header.code = 106;
  cluster_info.header.version = 479;
  EXPECT_EQ(answer_of(handle_frame(name_server, cluster_info, kClient, 1)).body,
            R"({"brokerAddrTable":{"broker-a":{"brokerAddrs":{0:"127.0.0.1:20911"},)"
            R"("brokerName":"broker-a","cluster":"DefaultCluster","enableActingMaster":false}},)"
            R"("clusterAddrTable":{"DefaultCluster":["broker-a"]}})");
}

// Both real NameServers register a broker whose filterServerList holds a null and list the null
// in its route (docs/fidelity.md); 5.x also lists the broker's other addresses, none here.
TEST(HandleFrame, ANullFilterServerGoesFromTheRegistrationToTheRoute) {
  for (Profile profile : {Profile::kV4_9, Profile::kV5}) {
    core::NameServer name_server(profile, {}, 0);
    std::string body = kRegisterBody;
    body.replace(body.find("[]"), 2, R"([null,"fs:1"])");
    RemotingFrame registration =
        register_frame(std::to_string(crc32(body) & 0x7FFFFFFFu));  // UtilAll#crc32
    registration.body = body;
    EXPECT_EQ(answer_of(handle_frame(name_server, registration, kBroker, 0)).header.code, 0);
    const std::string route =
        answer_of(handle_frame(name_server, route_frame(401, 2), kClient, 1)).body;
    EXPECT_NE(route.find(R"("filterServerTable":{"127.0.0.1:20911":[null,"fs:1"]})"),
              std::string::npos)
        << route;
  }
}

TEST(HandleFrame, TopicNotExistKeepsTheRemarkAndNoBody) {
  core::NameServer name_server(Profile::kV4_9, {}, 0);
  const RemotingFrame missing =
      answer_of(handle_frame(name_server, route_frame(121, 1), kClient, 0));
  EXPECT_EQ(missing.header.code, 17);
  EXPECT_EQ(missing.header.remark,
            "No topic route info in name server for the topic: TopicTest\n"
            "See http://rocketmq.apache.org/docs/faq/ for further details.");
  EXPECT_TRUE(missing.header.ext_fields.empty());
  EXPECT_EQ(missing.body, "");
}

TEST(HandleFrame, OnewayIsProcessedButNotAnswered) {
  core::NameServer name_server(Profile::kV4_9, {}, 0);
  const HandledFrame oneway =
      handle_frame(name_server, register_frame("1407248878", 5, kFlagOneway), kBroker, 0);
  EXPECT_FALSE(oneway.response_frame.has_value());
  EXPECT_EQ(answer_of(handle_frame(name_server, route_frame(121, 6), kClient, 1)).header.code, 0);
}

TEST(HandleFrame, AResponseFrameIsOnlyDropped) {
  core::NameServer name_server(Profile::kV4_9, {}, 0);
  const HandledFrame handled =
      handle_frame(name_server, register_frame("1407248878", 5, kFlagResponse), kBroker, 0);
  EXPECT_FALSE(handled.response_frame.has_value());
  EXPECT_EQ(answer_of(handle_frame(name_server, route_frame(121, 6), kClient, 1)).header.code, 17);
}

TEST(HandleFrame, ResponseExtFieldsGoInTheHeader) {
  core::NameServer name_server(Profile::kV4_9, {}, 0);
  handle_frame(name_server, register_frame("1407248878"), kBroker, 0);
  RemotingFrame wipe;
  wipe.header.code = 205;
  wipe.header.opaque = 3;
  wipe.header.ext_fields = {{"brokerName", "broker-a"}};  // TBW102 and TopicTest
  const RemotingFrame answer = answer_of(handle_frame(name_server, wipe, kClient, 1));
  EXPECT_EQ(answer.header.code, 0);
  EXPECT_EQ(answer.header.ext_fields,
            (std::map<std::string, std::string>{{"wipeTopicCount", "2"}}));
}

TEST(HandleFrame, PropertiesTextGoesOutAsItIs) {
  core::NameServer name_server(Profile::kV5, {}, 0);
  RemotingFrame get_config;
  get_config.header.code = 319;
  const std::string body = answer_of(handle_frame(name_server, get_config, kClient, 0)).body;
  EXPECT_NE(body.find("orderMessageEnable=false\n"), std::string::npos) << body;
  EXPECT_NE(body.front(), '"');
}

TEST(WriteBodyJson, LegacyUnquotesOnlyBrokerAddrsKeysInNumericOrder) {
  const nlohmann::json body = {
      {"brokerAddrs", {{"10", "c"}, {"2", "b"}, {"0", "a"}}},
      {"other", {{"0", "x"}}},
      {"list", {{{"brokerAddrs", {{"1", "s"}}}, {"name", "q\"\xc3\xa9"}}}}};
  EXPECT_EQ(write_body_json(body, BodyJson::kLegacy),
            R"({"brokerAddrs":{0:"a",2:"b",10:"c"},"list":[{"brokerAddrs":{1:"s"},)"
            "\"name\":\"q\\\"\xc3\xa9\"}],\"other\":{\"0\":\"x\"}}");
  EXPECT_EQ(write_body_json(body, BodyJson::kStandard), body.dump());
}

}  // namespace
}  // namespace nssim::codec

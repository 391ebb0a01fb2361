// REGISTER_BROKER through the processor: header and body decoding, the checksum, the error
// remarks Java's exceptions become, and the response. Ported from DefaultRequestProcessorTest
// (4.9.8) and RequestProcessorTest (5.3.3), plus every branch of the handler.
#include <gtest/gtest.h>

#include "processor_test_support.h"

namespace nssim::core {
namespace {

using namespace processor_testing;
namespace rc = request_code;

// The sample command of the upstream tests: header fields only.
Request sample_register_command() {
  return std::move(Request(rc::kRegisterBroker)
                       .ext("brokerName", "broker")
                       .ext("brokerAddr", "10.10.1.1")
                       .ext("clusterName", "cluster")
                       .ext("haServerAddr", "10.10.2.1")
                       .ext("brokerId", "2333"));
}

void expect_broker_registered(const RouteInfoManager& rim) {
  const auto& table = rim.broker_addr_table();
  ASSERT_EQ(table.count("broker"), 1u);
  EXPECT_EQ(table.at("broker").broker_addrs,
            (std::map<std::int64_t, std::string>{{2333, "10.10.1.1"}}));
}

// DefaultRequestProcessorTest#testProcessRequest_RegisterBroker (4.9.8: a version-0 command, so
// the old-broker path with no body)
TEST(RegisterBrokerProcessor, OldVersionRegistrationWithoutBodySucceeds) {
  Server server(Profile::kV4_9);
  const auto response = server.call(sample_register_command().version(0));
  EXPECT_EQ(response.code, response_code::kSuccess);
  EXPECT_FALSE(response.remark.has_value());
  expect_broker_registered(server.rim());
  EXPECT_EQ(server.rim().broker_live_table().at({"", "10.10.1.1"}).data_version.timestamp, 0);
}

// DefaultRequestProcessorTest#testProcessRequest_RegisterBrokerWithFilterServer (version 100)
TEST(RegisterBrokerProcessor, RegistrationWithFilterServerSucceeds) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const auto response = server.call(sample_register_command().version(100));
    EXPECT_EQ(response.code, response_code::kSuccess);
    EXPECT_FALSE(response.remark.has_value());
    expect_broker_registered(server.rim());
  }
}

// RequestProcessorTest#testProcessRequest_RegisterBroker (5.3.3: a body of two topics with the
// CRC of its bytes in bodyCrc32)
TEST(RegisterBrokerProcessor, RegistrationWithMatchingCrcSucceeds) {
  Server server(Profile::kV5);
  TopicConfigSerializeWrapper wrapper;
  wrapper.topic_config_table = {{"unit-test1", topic("unit-test1")},
                                {"unit-test2", topic("unit-test2")}};
  const auto response = server.call(sample_register_command()
                                        .version(kVersionV5_3_3)
                                        .ext("bodyCrc32", "12345")
                                        .body(RegisterBrokerBody{wrapper, FilterServerList{}})
                                        .body_crc32(12345));
  EXPECT_EQ(response.code, response_code::kSuccess);
  expect_broker_registered(server.rim());
}

TEST(RegisterBrokerProcessor, CrcMismatchIsRejectedBeforeAnythingChanges) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const auto response =
        server.call(sample_register_command().version(100).ext("bodyCrc32", "7").body_crc32(8));
    EXPECT_EQ(response.code, response_code::kSystemError);
    EXPECT_EQ(response.remark, "crc32 not match");
    EXPECT_TRUE(server.rim().broker_addr_table().empty());
  }
}

// UtilAll#crc32 masks the top bit; a header of 0 (or one that does not parse) skips the check.
TEST(RegisterBrokerProcessor, CrcIsComparedWithoutItsTopBitAndSkippedWhenZero) {
  Server server(Profile::kV5);
  EXPECT_EQ(server
                .call(sample_register_command()
                          .version(100)
                          .ext("bodyCrc32", "2147483647")
                          .body_crc32(0xFFFFFFFFu))
                .code,
            response_code::kSuccess);
  EXPECT_EQ(
      server.call(sample_register_command().version(100).ext("bodyCrc32", "0").body_crc32(5)).code,
      response_code::kSuccess);
  EXPECT_EQ(
      server.call(sample_register_command().version(100).ext("bodyCrc32", "x").body_crc32(5)).code,
      response_code::kSuccess);
  // No body checksums as 0, so a non-zero header cannot match it.
  EXPECT_EQ(server.call(sample_register_command().version(100).ext("bodyCrc32", "1")).remark,
            "crc32 not match");
}

TEST(RegisterBrokerProcessor, UndecodableBodyIsWrappedInRemotingCommandException) {
  const std::string exception =
      "org.apache.rocketmq.remoting.exception.RemotingCommandException: Failed to decode "
      "RegisterBrokerBody, org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor.";
  Server v4(Profile::kV4_9);
  EXPECT_EQ(v4.call(sample_register_command().version(100).body(BodyDecodeError{"bad"})).remark,
            exception + "registerBrokerWithFilterServer(DefaultRequestProcessor.java:241)");
  Server v5(Profile::kV5);
  const auto response =
      v5.call(sample_register_command().version(100).body(BodyDecodeError{"bad"}));
  EXPECT_EQ(response.code, response_code::kSystemError);
  EXPECT_EQ(response.remark,
            exception + "extractRegisterBrokerBodyFromRequest(DefaultRequestProcessor.java:305)");
  EXPECT_TRUE(v5.rim().broker_addr_table().empty());
}

TEST(RegisterBrokerProcessor, OldVersionUndecodableBodyIsAFastjsonException) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const auto response = server.call(
        sample_register_command().version(0).body(BodyDecodeError{"body.perm: expected x"}));
    EXPECT_EQ(response.code, response_code::kSystemError);
    EXPECT_EQ(response.remark, "com.alibaba.fastjson.JSONException: body.perm: expected x");
  }
}

// fastjson parses the text "null" to a null RegisterBrokerBody, which the handler dereferences.
TEST(RegisterBrokerProcessor, NullBodyIsANullPointerException) {
  const std::string npe =
      "java.lang.NullPointerException, "
      "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor.";
  Server v4(Profile::kV4_9);
  EXPECT_EQ(v4.call(sample_register_command().version(100).body(JsonNullBody{})).remark,
            npe + "registerBrokerWithFilterServer(DefaultRequestProcessor.java:254)");
  Server v5(Profile::kV5);
  EXPECT_EQ(v5.call(sample_register_command().version(100).body(JsonNullBody{})).remark,
            npe + "registerBroker(DefaultRequestProcessor.java:242)");
}

// An old broker's null wrapper reaches RouteInfoManager, which copes with it.
TEST(RegisterBrokerProcessor, OldVersionNullBodyRegistersTheAddressOnly) {
  Server server(Profile::kV4_9);
  EXPECT_EQ(server.call(sample_register_command().version(0).body(JsonNullBody{})).code,
            response_code::kSuccess);
  expect_broker_registered(server.rim());
  EXPECT_TRUE(server.rim().broker_live_table().empty());
}

// brokerId is a Long unboxed into RouteInfoManager#registerBroker's long parameter.
TEST(RegisterBrokerProcessor, MissingOrUnparsableBrokerIdIsANullPointerException) {
  const std::string npe =
      "java.lang.NullPointerException, "
      "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor.";
  Server v4(Profile::kV4_9);
  EXPECT_EQ(v4.call(sample_register_command().version(100).ext("brokerId", "x")).remark,
            npe + "registerBrokerWithFilterServer(DefaultRequestProcessor.java:252)");
  EXPECT_EQ(v4.call(sample_register_command().version(0).ext("brokerId", "+-1")).remark,
            npe + "registerBroker(DefaultRequestProcessor.java:332)");
  // The brokerId argument comes before the body's wrapper in 4.9.8's call.
  EXPECT_EQ(v4.call(sample_register_command().version(100).ext("brokerId", "").body(JsonNullBody{}))
                .remark,
            npe + "registerBrokerWithFilterServer(DefaultRequestProcessor.java:252)");
  Server v5(Profile::kV5);
  EXPECT_EQ(v5.call(sample_register_command().version(100).ext("brokerId", "1.0")).remark,
            npe + "registerBroker(DefaultRequestProcessor.java:253)");
  EXPECT_TRUE(v5.rim().broker_addr_table().empty());
}

// MQVersion#value2Version indexes an array with the version: 4.9.8 before anything, 5.3.3 after
// the checksum.
TEST(RegisterBrokerProcessor, NegativeVersionIsAnArrayIndexOutOfBoundsException) {
  const std::string aioobe =
      "java.lang.ArrayIndexOutOfBoundsException: -3, "
      "org.apache.rocketmq.common.MQVersion.value2Version(MQVersion.java:38)";
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    EXPECT_EQ(server.call(sample_register_command().version(-3)).remark, aioobe);
  }
  Server v4(Profile::kV4_9);
  EXPECT_EQ(v4.call(sample_register_command().version(-3).ext("bodyCrc32", "1")).remark, aioobe);
  Server v5(Profile::kV5);
  EXPECT_EQ(v5.call(sample_register_command().version(-3).ext("bodyCrc32", "1")).remark,
            "crc32 not match");
}

TEST(RegisterBrokerProcessor, OldVersionBrokerSendsABareWrapperAndNoFilterServers) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    Registration registration;
    registration.version = 36;
    EXPECT_EQ(server.register_broker(registration).code, response_code::kSuccess);
    EXPECT_EQ(server.rim().topic_queue_table().count("TopicA"), 1u);
  }
}

TEST(RegisterBrokerProcessor, RegistrationWithoutBodyStoresAZeroDataVersion) {
  Server server(Profile::kV5);
  EXPECT_EQ(
      server.call(sample_register_command().version(100).ext("enableActingMaster", "false")).code,
      response_code::kSuccess);
  const auto& live = server.rim().broker_live_table().at({"cluster", "10.10.1.1"});
  EXPECT_EQ(live.data_version.timestamp, 0);
  EXPECT_EQ(live.data_version.counter, 0);
  EXPECT_EQ(live.last_update_timestamp, kNow);
}

TEST(RegisterBrokerProcessor, SlaveLearnsItsMastersAddresses) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.register_broker(Registration{});
    Registration slave;
    slave.id = 1;
    slave.addr = "10.0.0.2:10911";
    const auto response = server.register_broker(slave, kNow, ConnectionId{2});
    EXPECT_EQ(response.code, response_code::kSuccess);
    EXPECT_EQ(response.ext_fields.at("masterAddr"), "10.0.0.1:10911");
    EXPECT_EQ(response.ext_fields.at("haServerAddr"), "10.0.0.1:10911-ha");
    EXPECT_EQ(server.register_broker(Registration{}).ext_fields.count("masterAddr"), 0u);
  }
}

TEST(RegisterBrokerProcessor, ResponseBodyIsTheOrderTopicConfigWhenItExists) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    EXPECT_TRUE(
        std::holds_alternative<std::monostate>(server.register_broker(Registration{}).body));
    server.ns().kv_config_manager().put_kv_config(kNamespaceOrderTopicConfig, "TopicA",
                                                  "broker-a:4");
    EXPECT_EQ(std::get<KvTable>(server.register_broker(Registration{}).body),
              (KvTable{{"TopicA", "broker-a:4"}}));
  }
}

TEST(RegisterBrokerProcessor, ReturnOrderTopicConfigToBrokerOffSendsNoBodyIn5x) {
  NamesrvConfig config;
  config.return_order_topic_config_to_broker = false;
  Server v5(Profile::kV5, config);
  v5.ns().kv_config_manager().put_kv_config(kNamespaceOrderTopicConfig, "TopicA", "broker-a:4");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(v5.register_broker(Registration{}).body));
  Server v4(Profile::kV4_9, config);  // 4.9.8 has no such switch
  v4.ns().kv_config_manager().put_kv_config(kNamespaceOrderTopicConfig, "TopicA", "broker-a:4");
  EXPECT_TRUE(std::holds_alternative<KvTable>(v4.register_broker(Registration{}).body));
}

TEST(RegisterBrokerProcessor, FirstRegistrationWithOneTopicFailsIn5x) {
  Registration registration;
  registration.topics = {topic("OnlyTopic")};
  Server v5(Profile::kV5);
  const auto response = v5.register_broker(registration);
  EXPECT_EQ(response.code, response_code::kSystemError);
  EXPECT_EQ(response.remark, "register broker failed");
  Server v4(Profile::kV4_9);
  EXPECT_EQ(v4.register_broker(registration).code, response_code::kSuccess);
}

TEST(RegisterBrokerProcessor, FiveXReadsZoneHeartbeatTimeoutAndActingMasterHeaders) {
  Server server(Profile::kV5);
  RemotingRequest request = Registration{}.request();
  request.ext_fields[kZoneNameExtField] = "zone-1";
  request.ext_fields["heartbeatTimeoutMillis"] = "10000";
  request.ext_fields["enableActingMaster"] = "TRUE";
  server.call(request);
  const auto& broker_data = server.rim().broker_addr_table().at("broker-a");
  EXPECT_EQ(broker_data.zone_name, "zone-1");
  EXPECT_TRUE(broker_data.enable_acting_master);
  EXPECT_EQ(
      server.rim().broker_live_table().at({"cluster", "10.0.0.1:10911"}).heartbeat_timeout_millis,
      10000);
}

TEST(RegisterBrokerProcessor, FourNineIgnoresTheFiveXHeaders) {
  Server server(Profile::kV4_9);
  RemotingRequest request = Registration{}.request();
  request.ext_fields[kZoneNameExtField] = "zone-1";
  request.ext_fields["heartbeatTimeoutMillis"] = "10000";
  server.call(request);
  EXPECT_FALSE(server.rim().broker_addr_table().at("broker-a").zone_name.has_value());
  EXPECT_EQ(server.rim().broker_live_table().at({"", "10.0.0.1:10911"}).heartbeat_timeout_millis,
            kDefaultBrokerChannelExpiredTimeMs);
}

// Boolean.parseBoolean never fails, so any enableActingMaster text marks a 5.x broker, and an
// unparsable heartbeatTimeoutMillis is null (the 120 s default).
TEST(RegisterBrokerProcessor, UnparsableOptionalHeadersFallBackAsJavaDoes) {
  Server server(Profile::kV5);
  RemotingRequest request = Registration{}.request();
  request.ext_fields["enableActingMaster"] = "yes";
  request.ext_fields["heartbeatTimeoutMillis"] = "10s";
  server.call(request);
  EXPECT_FALSE(server.rim().broker_addr_table().at("broker-a").enable_acting_master);
  EXPECT_EQ(
      server.rim().broker_live_table().at({"cluster", "10.0.0.1:10911"}).heartbeat_timeout_millis,
      kDefaultBrokerChannelExpiredTimeMs);
}

}  // namespace
}  // namespace nssim::core

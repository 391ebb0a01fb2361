// UNREGISTER_BROKER, QUERY_DATA_VERSION, and 5.x's BROKER_HEARTBEAT and GET_BROKER_MEMBER_GROUP.
// Ported from DefaultRequestProcessorTest (4.9.8) and RequestProcessorTest (5.3.3).
#include <gtest/gtest.h>

#include "processor_test_support.h"

namespace nssim::core {
namespace {

using namespace processor_testing;
namespace rc = request_code;

Request unregister_request(const Registration& registration) {
  return std::move(Request(rc::kUnregisterBroker)
                       .ext("clusterName", registration.cluster)
                       .ext("brokerName", registration.name)
                       .ext("brokerAddr", registration.addr)
                       .ext("brokerId", std::to_string(registration.id)));
}

Request query_data_version(const Registration& registration) {
  return std::move(Request(rc::kQueryDataVersion)
                       .ext("clusterName", registration.cluster)
                       .ext("brokerName", registration.name)
                       .ext("brokerAddr", registration.addr)
                       .ext("brokerId", std::to_string(registration.id)));
}

BrokerAddrInfo live_key(Profile profile, const Registration& registration) {
  return {profile == Profile::kV4_9 ? "" : registration.cluster, registration.addr};
}

// DefaultRequestProcessorTest#testProcessRequest_UnregisterBroker: another group stays.
TEST(UnregisterBrokerProcessor, UnregisterRemovesOnlyThatBroker) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    Registration other;
    other.name = "default-broker";
    other.addr = "127.0.0.1:10911";
    server.register_broker(other, kNow, ConnectionId{9});
    server.register_broker(Registration{});
    const auto response = server.call(unregister_request(Registration{}));
    EXPECT_EQ(response.code, response_code::kSuccess);
    EXPECT_FALSE(response.remark.has_value());
    server.ns().process_pending_unregistrations();
    EXPECT_EQ(server.rim().broker_addr_table().count("broker-a"), 0u);
    EXPECT_EQ(server.rim().broker_addr_table().count("default-broker"), 1u);
  }
}

TEST(UnregisterBrokerProcessor, FourNineUnregistersAtOnceFiveXQueues) {
  Server v4(Profile::kV4_9);
  v4.register_broker(Registration{});
  v4.call(unregister_request(Registration{}));
  EXPECT_TRUE(v4.rim().broker_addr_table().empty());

  Server v5(Profile::kV5);
  v5.register_broker(Registration{});
  v5.call(unregister_request(Registration{}));
  EXPECT_EQ(v5.rim().broker_addr_table().size(), 1u);
  EXPECT_EQ(v5.rim().pending_unregistrations(), 1u);
  const auto removals = v5.ns().process_pending_unregistrations();
  ASSERT_EQ(removals.size(), 1u);
  EXPECT_TRUE(removals[0].removed_broker_name);
  EXPECT_TRUE(v5.rim().broker_addr_table().empty());
}

TEST(UnregisterBrokerProcessor, FullQueueIsSystemErrorWithoutRemarkIn5x) {
  NamesrvConfig config;
  config.un_register_broker_queue_capacity = 1;
  Server server(Profile::kV5, config);
  EXPECT_EQ(server.call(unregister_request(Registration{})).code, response_code::kSuccess);
  const auto response = server.call(unregister_request(Registration{}));
  EXPECT_EQ(response.code, response_code::kSystemError);
  EXPECT_FALSE(response.remark.has_value());
}

TEST(UnregisterBrokerProcessor, MissingBrokerIdIsANullPointerExceptionIn49) {
  Server v4(Profile::kV4_9);
  RemotingRequest request = unregister_request(Registration{});
  request.ext_fields.erase("brokerId");
  EXPECT_EQ(v4.call(request).remark,
            "java.lang.NullPointerException, org.apache.rocketmq.namesrv.processor."
            "DefaultRequestProcessor.unregisterBroker(DefaultRequestProcessor.java:359)");
  Server v5(Profile::kV5);  // 5.x only queues the header
  v5.register_broker(Registration{});
  EXPECT_EQ(v5.call(request).code, response_code::kSuccess);
  v5.ns().process_pending_unregistrations();
  EXPECT_TRUE(v5.rim().broker_addr_table().empty());
}

// RequestProcessorTest#testQueryDataVersion: no body reads as a null DataVersion in 5.3.3.
TEST(QueryDataVersionProcessor, FiveXWithoutBodyAnswersChanged) {
  Server server(Profile::kV5);
  const auto response = server.call(query_data_version(Registration{}));
  EXPECT_EQ(response.code, response_code::kSuccess);
  EXPECT_EQ(response.ext_fields.at("changed"), "true");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(response.body));
}

// 4.9.8's RemotingSerializable#decode runs new String(null, UTF_8).
TEST(QueryDataVersionProcessor, FourNineWithoutBodyIsANullPointerException) {
  Server server(Profile::kV4_9);
  const auto response = server.call(query_data_version(Registration{}));
  EXPECT_EQ(response.code, response_code::kSystemError);
  EXPECT_EQ(response.remark,
            "java.lang.NullPointerException, java.lang.String.<init>(String.java:515)");
}

TEST(QueryDataVersionProcessor, SameVersionIsUnchangedAndAnswersTheStoredVersion) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const Registration registration;
    server.register_broker(registration, 1000);
    const auto response =
        server.call(query_data_version(registration).body(registration.data_version), 5000);
    EXPECT_EQ(response.ext_fields.at("changed"), "false");
    EXPECT_EQ(std::get<DataVersion>(response.body).counter, registration.data_version.counter);
    EXPECT_EQ(
        server.rim().broker_live_table().at(live_key(profile, registration)).last_update_timestamp,
        5000);
  }
}

// 4.9.8 refreshes the live entry only when the version is unchanged; 5.3.3 always.
TEST(QueryDataVersionProcessor, ChangedVersionRefreshesTheTimestampOnlyIn5x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const Registration registration;
    server.register_broker(registration, 1000);
    const auto response =
        server.call(query_data_version(registration).body(DataVersion{600, 2, 0}), 5000);
    EXPECT_EQ(response.ext_fields.at("changed"), "true");
    EXPECT_EQ(std::get<DataVersion>(response.body).timestamp, 500);
    EXPECT_EQ(
        server.rim().broker_live_table().at(live_key(profile, registration)).last_update_timestamp,
        profile == Profile::kV4_9 ? 1000 : 5000);
  }
}

TEST(QueryDataVersionProcessor, NullDataVersionIsChanged) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.register_broker(Registration{});
    EXPECT_EQ(server.call(query_data_version(Registration{}).body(JsonNullBody{}))
                  .ext_fields.at("changed"),
              "true");
  }
}

TEST(QueryDataVersionProcessor, UndecodableBodyIsAFastjsonException) {
  Server server(Profile::kV5);
  const auto response = server.call(
      query_data_version(Registration{}).body(BodyDecodeError{"body: expected an object"}));
  EXPECT_EQ(response.code, response_code::kSystemError);
  EXPECT_EQ(response.remark, "com.alibaba.fastjson.JSONException: body: expected an object");
}

// RequestProcessorTest#testBrokerHeartBeat
TEST(BrokerHeartbeatProcessor, HeartbeatRefreshesALiveEntry) {
  Server server(Profile::kV5);
  const Registration registration;
  server.register_broker(registration, 1000);
  const auto response = server.call(Request(rc::kBrokerHeartbeat)
                                        .ext("clusterName", "cluster")
                                        .ext("brokerAddr", registration.addr)
                                        .ext("brokerName", registration.name),
                                    7000);
  EXPECT_EQ(response.code, response_code::kSuccess);
  EXPECT_EQ(
      server.rim().broker_live_table().at({"cluster", registration.addr}).last_update_timestamp,
      7000);
  // An unknown broker is left alone and still answered.
  EXPECT_EQ(server.call(Request(rc::kBrokerHeartbeat).ext("brokerAddr", "x")).code,
            response_code::kSuccess);
  EXPECT_EQ(server.rim().broker_live_table().size(), 1u);
}

// RequestProcessorTest#testGetBrokerMemberBroker
TEST(BrokerMemberGroupProcessor, MemberGroupListsTheGroupsAddresses) {
  Server server(Profile::kV5);
  server.register_broker(Registration{});
  const auto response = server.call(
      Request(rc::kGetBrokerMemberGroup).ext("clusterName", "any").ext("brokerName", "broker-a"));
  EXPECT_EQ(response.code, response_code::kSuccess);
  // Found by the differential against 5.3.3 (docs/fidelity.md): the handler never sets a remark.
  EXPECT_EQ(response.remark, "not set any response code");
  const auto& group = std::get<BrokerMemberGroupBody>(response.body).broker_member_group;
  EXPECT_EQ(group.cluster, "any");  // echoed, not checked
  EXPECT_EQ(group.broker_addrs, (std::map<std::int64_t, std::string>{{0, "10.0.0.1:10911"}}));
  const auto unknown = server.call(
      Request(rc::kGetBrokerMemberGroup).ext("clusterName", "c").ext("brokerName", "z"));
  EXPECT_TRUE(
      std::get<BrokerMemberGroupBody>(unknown.body).broker_member_group.broker_addrs.empty());
}

TEST(BrokerRequests, FiveXOnlyCodesGetNoResponseFrom49) {
  Server server(Profile::kV4_9);
  for (int code : {rc::kBrokerHeartbeat, rc::kGetBrokerMemberGroup, rc::kRegisterTopicInNamesrv}) {
    EXPECT_FALSE(server.ns().process(Request(code), kChannel, kNow).has_value()) << code;
  }
}

}  // namespace
}  // namespace nssim::core

namespace nssim::core {
namespace {

// The simulator learns which broker a 4.9 UNREGISTER_BROKER removed, and by which path, from the
// request itself; 5.x reports nothing inline (the batch service does).
TEST(UnregisterBrokerRemovals, ReportedInlineIn49AndQueuedIn5x) {
  for (Profile profile : {Profile::kV4_9, Profile::kV5}) {
    NameServer server(profile, NamesrvConfig{}, 0);
    RegisterBrokerRequest registration;
    registration.cluster_name = "DefaultCluster";
    registration.broker_addr = "10.0.0.1:10911";
    registration.broker_name = "broker-a";
    registration.topic_config_wrapper = TopicConfigSerializeWrapper{};
    registration.channel = ConnectionId{1};
    server.route_info_manager().register_broker(registration, 0);
    RemotingRequest request;
    request.code = request_code::kUnregisterBroker;
    request.version = default_request_version(profile);
    request.ext_fields = {{"clusterName", "DefaultCluster"},
                          {"brokerAddr", "10.0.0.1:10911"},
                          {"brokerName", "broker-a"},
                          {"brokerId", "0"}};
    server.process(request, ConnectionId{1}, 1000);
    const auto inline_removals = server.take_request_removals();
    if (profile == Profile::kV4_9) {
      ASSERT_EQ(inline_removals.size(), 1u);
      EXPECT_EQ(inline_removals[0].broker_addr, "10.0.0.1:10911");
      EXPECT_EQ(inline_removals[0].path, RemovalPath::kUnregisterRequest);
      EXPECT_TRUE(inline_removals[0].removed_broker_name);
    } else {
      EXPECT_TRUE(inline_removals.empty());
      EXPECT_EQ(server.process_pending_unregistrations().size(), 1u);
    }
  }
}

}  // namespace
}  // namespace nssim::core

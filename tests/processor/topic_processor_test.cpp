// Route and topic requests: GET_ROUTEINFO_BY_TOPIC (with orderTopicConf, needWaitForService and
// the 5.x ZoneRouteRPCHook), cluster info, write permissions, topic deletion and registration,
// and the topic lists. Ported from DefaultRequestProcessorTest (4.9.8) and RequestProcessorTest
// (5.3.3), plus every branch of the handlers.
#include <gtest/gtest.h>

#include "processor_test_support.h"

namespace nssim::core {
namespace {

using namespace processor_testing;
namespace rc = request_code;

RemotingRequest route_request(const std::string& topic) {
  return Request(rc::kGetRouteinfoByTopic).ext("topic", topic);
}

// DefaultRequestProcessorTest#testGetRouteInfoByTopic /
// RequestProcessorTest#testGetRouteInfoByTopic
TEST(RouteInfoProcessor, KnownTopicAnswersItsRouteAndUnknownTopicIsTopicNotExist) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.register_broker(Registration{});
    const auto found = server.call(route_request("TopicA"));
    EXPECT_EQ(found.code, response_code::kSuccess);
    const auto& route = *std::get<std::shared_ptr<const TopicRouteData>>(found.body);
    ASSERT_EQ(route.queue_datas.size(), 1u);
    EXPECT_EQ(route.queue_datas[0].broker_name, "broker-a");
    EXPECT_FALSE(route.order_topic_conf.has_value());
    const auto missing = server.call(route_request("test"));
    EXPECT_EQ(missing.code, response_code::kTopicNotExist);
    EXPECT_EQ(
        missing.remark,
        std::string("No topic route info in name server for the topic: test\nSee ") +
            (profile == Profile::kV4_9 ? "http://rocketmq.apache.org/docs/faq/"
                                       : "https://rocketmq.apache.org/docs/bestPractice/06FAQ") +
            " for further details.");
  }
}

TEST(RouteInfoProcessor, MissingTopicHeaderIsReportedAsNull) {
  Server server(Profile::kV5);
  const auto response = server.call(Request(rc::kGetRouteinfoByTopic));
  EXPECT_EQ(
      response.remark->rfind("No topic route info in name server for the topic: null\nSee ", 0),
      0u);
}

TEST(RouteInfoProcessor, OrderMessageEnableAddsTheKvOrderTopicConf) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    NamesrvConfig config;
    config.order_message_enable = true;
    Server server(profile, config);
    server.register_broker(Registration{});
    server.ns().kv_config_manager().put_kv_config(kNamespaceOrderTopicConfig, "TopicA",
                                                  "broker-a:8");
    EXPECT_EQ(
        std::get<std::shared_ptr<const TopicRouteData>>(server.call(route_request("TopicA")).body)
            ->order_topic_conf,
        "broker-a:8");
    EXPECT_FALSE(
        std::get<std::shared_ptr<const TopicRouteData>>(server.call(route_request("TopicB")).body)
            ->order_topic_conf);
    // The conf went on a copy: the NameServer's shared route has none.
    EXPECT_FALSE(server.rim().pickup_topic_route_data("TopicA")->order_topic_conf);
  }
  Server off(Profile::kV5);
  off.register_broker(Registration{});
  off.ns().kv_config_manager().put_kv_config(kNamespaceOrderTopicConfig, "TopicA", "broker-a:8");
  EXPECT_FALSE(
      std::get<std::shared_ptr<const TopicRouteData>>(off.call(route_request("TopicA")).body)
          ->order_topic_conf);
}

// ClientRequestProcessor: ready once waitSecondsForService have passed since the start.
TEST(RouteInfoProcessor, NeedWaitForServiceAnswersNotReadyUntilTheWaitIsOver) {
  NamesrvConfig config;
  config.need_wait_for_service = true;
  config.wait_seconds_for_service = 45;
  Server server(Profile::kV5, config);
  server.register_broker(Registration{}, 100);
  const auto early = server.call(route_request("TopicA"), 44'999);
  EXPECT_EQ(early.code, response_code::kSystemError);
  EXPECT_EQ(early.remark, "name server not ready");
  EXPECT_EQ(server.call(route_request("TopicA"), 45'000).code, response_code::kSuccess);
  Server v4(Profile::kV4_9, config);  // 4.9.8 has no such switch
  v4.register_broker(Registration{}, 100);
  EXPECT_EQ(v4.call(route_request("TopicA"), 200).code, response_code::kSuccess);
}

// Two groups in two zones plus a slave-only group; ZoneRouteRPCHookTest's setting.
class ZoneRoute : public ::testing::Test {
 protected:
  ZoneRoute() : server_(Profile::kV5) {
    register_in_zone("broker-a", "10.0.0.1:10911", 0, "zone-a", 1);
    register_in_zone("broker-b", "10.0.0.2:10911", 0, "zone-b", 2);
    register_in_zone("broker-c", "10.0.0.3:10911", 0, "zone-b", 3);
    register_in_zone("broker-c", "10.0.0.4:10911", 1, "zone-b", 4);
    server_.call(Request(rc::kUnregisterBroker)
                     .ext("clusterName", "cluster")
                     .ext("brokerName", "broker-c")
                     .ext("brokerAddr", "10.0.0.3:10911")
                     .ext("brokerId", "0"));
    server_.ns().process_pending_unregistrations();
  }

  void register_in_zone(const std::string& name, const std::string& addr, std::int64_t id,
                        const std::string& zone, std::uint64_t channel) {
    Registration registration;
    registration.name = name;
    registration.addr = addr;
    registration.id = id;
    RemotingRequest request = registration.request();
    request.ext_fields[kZoneNameExtField] = zone;
    server_.call(request, kNow, ConnectionId{channel});
  }

  std::vector<std::string> brokers_in_route(const std::map<std::string, std::string>& ext) {
    RemotingRequest request = route_request("TopicA");
    for (const auto& [key, value] : ext) request.ext_fields[key] = value;
    const auto response = server_.call(request);
    const auto& route = *std::get<std::shared_ptr<const TopicRouteData>>(response.body);
    std::vector<std::string> names;
    for (const auto& broker_data : route.broker_datas) names.push_back(broker_data.broker_name);
    for (const auto& queue_data : route.queue_datas) names.push_back("q:" + queue_data.broker_name);
    return names;
  }

  Server server_;
};

TEST_F(ZoneRoute, ZoneModeKeepsTheZoneAndGroupsWithoutMaster) {
  EXPECT_EQ(brokers_in_route({{kZoneModeExtField, "true"}, {kZoneNameExtField, "ZONE-A"}}),
            (std::vector<std::string>{"broker-a", "broker-c", "q:broker-a", "q:broker-c"}));
}

// The hook filters a copy: the NameServer's shared route keeps every group for the next caller.
TEST_F(ZoneRoute, ZoneModeLeavesTheSharedRouteWhole) {
  brokers_in_route({{kZoneModeExtField, "true"}, {kZoneNameExtField, "zone-a"}});
  EXPECT_EQ(server_.rim().pickup_topic_route_data("TopicA")->broker_datas.size(), 3u);
  EXPECT_EQ(brokers_in_route({}).size(), 6u);
}

TEST_F(ZoneRoute, WithoutZoneModeOrZoneNameEveryGroupStays) {
  const std::vector<std::string> all = {"broker-a",   "broker-b",   "broker-c",
                                        "q:broker-a", "q:broker-b", "q:broker-c"};
  EXPECT_EQ(brokers_in_route({{kZoneNameExtField, "zone-a"}}), all);
  EXPECT_EQ(brokers_in_route({{kZoneModeExtField, "yes"}, {kZoneNameExtField, "zone-a"}}), all);
  EXPECT_EQ(brokers_in_route({{kZoneModeExtField, "true"}, {kZoneNameExtField, " "}}), all);
  EXPECT_EQ(brokers_in_route({{kZoneModeExtField, "true"}}), all);
}

TEST(RouteInfoProcessor, FourNineHasNoZoneHook) {
  Server server(Profile::kV4_9);
  server.register_broker(Registration{});
  RemotingRequest request = route_request("TopicA");
  request.ext_fields[kZoneModeExtField] = "true";
  request.ext_fields[kZoneNameExtField] = "elsewhere";
  EXPECT_EQ(std::get<std::shared_ptr<const TopicRouteData>>(server.call(request).body)
                ->broker_datas.size(),
            1u);
}

// DefaultRequestProcessorTest#testGetBrokerClusterInfo
TEST(ClusterInfoProcessor, ClusterInfoListsGroupsAndClusters) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.register_broker(Registration{});
    const auto response = server.call(Request(rc::kGetBrokerClusterInfo));
    EXPECT_EQ(response.code, response_code::kSuccess);
    const auto& info = *std::get<std::shared_ptr<const ClusterInfo>>(response.body);
    EXPECT_EQ(info.cluster_addr_table.at("cluster"), std::set<std::string>{"broker-a"});
    EXPECT_EQ(info.broker_addr_table.at("broker-a").broker_addrs.at(0), "10.0.0.1:10911");
  }
}

// DefaultRequestProcessorTest#testWipeWritePermOfBroker /
// RequestProcessorTest#testAddWritePermOfBroker
TEST(WritePermProcessor, WipeAndAddAnswerTheTopicCount) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.register_broker(Registration{});
    const auto wiped =
        server.call(Request(rc::kWipeWritePermOfBroker).ext("brokerName", "broker-a"));
    EXPECT_EQ(wiped.code, response_code::kSuccess);
    EXPECT_EQ(wiped.ext_fields.at("wipeTopicCount"), "2");
    EXPECT_EQ(server.rim().topic_queue_table().at("TopicA").at("broker-a").perm, perm::kRead);
    const auto added =
        server.call(Request(rc::kAddWritePermOfBroker).ext("brokerName", "broker-a"));
    EXPECT_EQ(added.ext_fields.at("addTopicCount"), "2");
    EXPECT_EQ(server.rim().topic_queue_table().at("TopicA").at("broker-a").perm, 6);
    EXPECT_EQ(server.call(Request(rc::kWipeWritePermOfBroker).ext("brokerName", "nobody"))
                  .ext_fields.at("wipeTopicCount"),
              "0");
  }
}

// DefaultRequestProcessorTest#testGetAllTopicListFromNameserver /
// RequestProcessorTest#testGetAllTopicList
TEST(TopicListProcessor, AllTopicListIsServedUnlessDisabledIn5x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    NamesrvConfig config;
    config.enable_all_topic_list = false;  // 4.9.8 has no such switch
    Server server(profile, config);
    server.register_broker(Registration{});
    const auto response = server.call(Request(rc::kGetAllTopicListFromNameserver));
    if (profile == Profile::kV5) {
      EXPECT_EQ(response.code, response_code::kSystemError);
      EXPECT_EQ(response.remark, "disable");
    } else {
      EXPECT_EQ(std::get<TopicList>(response.body).topic_list,
                (std::set<std::string>{"TopicA", "TopicB"}));
    }
  }
  Server enabled(Profile::kV5);
  enabled.register_broker(Registration{});
  EXPECT_EQ(std::get<TopicList>(enabled.call(Request(rc::kGetAllTopicListFromNameserver)).body)
                .topic_list.size(),
            2u);
}

// DefaultRequestProcessorTest#testDeleteTopicInNamesrv
TEST(DeleteTopicProcessor, DeleteRemovesTheTopicOrOnlyTheClustersQueues) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.register_broker(Registration{});
    Registration other;
    other.cluster = "other";
    other.name = "broker-z";
    other.addr = "10.0.0.9:10911";
    server.register_broker(other, kNow, ConnectionId{2});
    server.call(
        Request(rc::kDeleteTopicInNamesrv).ext("topic", "TopicA").ext("clusterName", "other"));
    EXPECT_EQ(server.rim().topic_queue_table().at("TopicA").count("broker-z"), 0u);
    EXPECT_EQ(server.rim().topic_queue_table().at("TopicA").count("broker-a"), 1u);
    const auto response = server.call(
        Request(rc::kDeleteTopicInNamesrv).ext("topic", "TopicA").ext("clusterName", ""));
    EXPECT_EQ(response.code, response_code::kSuccess);
    EXPECT_EQ(server.rim().topic_queue_table().count("TopicA"), 0u);
    EXPECT_EQ(server.call(Request(rc::kDeleteTopicInNamesrv).ext("topic", "nothing")).code,
              response_code::kSuccess);
  }
}

RemotingRequest register_topic(const std::string& topic, RequestBody body) {
  return Request(rc::kRegisterTopicInNamesrv).ext("topic", topic).body(std::move(body));
}

TEST(RegisterTopicProcessor, QueueDatasOfKnownGroupsAreRegistered) {
  Server server(Profile::kV5);
  server.register_broker(Registration{});
  TopicRouteData route;
  route.queue_datas = {QueueData{"broker-a", 2, 2, 6, 0}};
  EXPECT_EQ(server.call(register_topic("NewTopic", route)).code, response_code::kSuccess);
  EXPECT_EQ(server.rim().topic_queue_table().at("NewTopic").at("broker-a").read_queue_nums, 2);
  // Nothing to register is still SUCCESS: no queues, a null route, no body.
  EXPECT_EQ(server.call(register_topic("Empty", TopicRouteData{})).code, response_code::kSuccess);
  EXPECT_EQ(server.call(register_topic("Empty", JsonNullBody{})).code, response_code::kSuccess);
  EXPECT_EQ(server.call(register_topic("Empty", std::monostate{})).code, response_code::kSuccess);
  EXPECT_EQ(server.rim().topic_queue_table().count("Empty"), 0u);
}

TEST(RegisterTopicProcessor, UndecodableBodyIsAFastjsonException) {
  Server server(Profile::kV5);
  const auto response =
      server.call(register_topic("T", BodyDecodeError{"body: expected an object"}));
  EXPECT_EQ(response.code, response_code::kSystemError);
  EXPECT_EQ(response.remark, "com.alibaba.fastjson.JSONException: body: expected an object");
}

// DefaultRequestProcessorTest#testGetTopicsByCluster
TEST(TopicListProcessor, TopicsByClusterListsTheClustersTopics) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.register_broker(Registration{});
    const auto response = server.call(Request(rc::kGetTopicsByCluster).ext("cluster", "cluster"));
    EXPECT_EQ(std::get<TopicList>(response.body).topic_list,
              (std::set<std::string>{"TopicA", "TopicB"}));
    EXPECT_TRUE(
        std::get<TopicList>(server.call(Request(rc::kGetTopicsByCluster).ext("cluster", "x")).body)
            .topic_list.empty());
  }
}

// DefaultRequestProcessorTest#testGetSystemTopicListFromNs
TEST(TopicListProcessor, SystemTopicListHoldsClusterAndGroupNamesAndAnAddress) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    NamesrvConfig config;
    config.enable_topic_list = false;  // does not apply to the system list
    Server server(profile, config);
    server.register_broker(Registration{});
    const auto response = server.call(Request(rc::kGetSystemTopicListFromNs));
    const auto& list = std::get<TopicList>(response.body);
    EXPECT_EQ(list.topic_list, (std::set<std::string>{"broker-a", "cluster"}));
    EXPECT_EQ(list.broker_addr, "10.0.0.1:10911");
  }
}

// DefaultRequestProcessorTest#testGetUnitTopicList, #testGetHasUnitSubTopicList and
// #testGetHasUnitSubUnUnitTopicList
TEST(TopicListProcessor, UnitListsTestTheTopicSysFlag) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    Registration registration;
    registration.topics = {topic("Plain"), topic("Unit", 8, 6, topic_sys_flag::kUnit),
                           topic("UnitSub", 8, 6, topic_sys_flag::kUnitSub),
                           topic("Both", 8, 6, topic_sys_flag::kUnit | topic_sys_flag::kUnitSub)};
    server.register_broker(registration);
    auto list = [&](int code) {
      return std::get<TopicList>(server.call(Request(code)).body).topic_list;
    };
    EXPECT_EQ(list(rc::kGetUnitTopicList), (std::set<std::string>{"Both", "Unit"}));
    EXPECT_EQ(list(rc::kGetHasUnitSubTopicList), (std::set<std::string>{"Both", "UnitSub"}));
    EXPECT_EQ(list(rc::kGetHasUnitSubUnunitTopicList), (std::set<std::string>{"UnitSub"}));
  }
}

TEST(TopicListProcessor, EnableTopicListOffDisablesClusterAndUnitListsIn5x) {
  NamesrvConfig config;
  config.enable_topic_list = false;
  Server server(Profile::kV5, config);
  for (int code : {rc::kGetTopicsByCluster, rc::kGetUnitTopicList, rc::kGetHasUnitSubTopicList,
                   rc::kGetHasUnitSubUnunitTopicList}) {
    const auto response = server.call(Request(code).ext("cluster", "cluster"));
    EXPECT_EQ(response.code, response_code::kSystemError) << code;
    EXPECT_EQ(response.remark, "disable") << code;
  }
  Server v4(Profile::kV4_9, config);
  EXPECT_EQ(v4.call(Request(rc::kGetUnitTopicList)).code, response_code::kSuccess);
}

}  // namespace
}  // namespace nssim::core

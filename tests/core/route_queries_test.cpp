// The read side of RouteInfoManager apart from route picking: cluster info, the topic lists and
// 5.x's broker member group. Ported from upstream's RouteInfoManagerStaticRegisterTest and
// RouteInfoManagerTest.
#include <gtest/gtest.h>

#include "nameserver_core/route_info_manager.h"
#include "support/cluster_builder.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::kBothProfiles;
using testing::kT0;
using testing::Namesrv;
using testing::topic_config;

using Names = std::set<std::string>;

// --- RouteInfoManagerStaticRegisterTest: a 3 x 3 cluster with 10 topics, both profiles ---

// RouteInfoManagerStaticRegisterTest#testGetAllClusterInfo
TEST(RouteQueries, StaticClusterInfo) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto cluster = testing::register_cluster(ns.rim, {}, kT0);
    const ClusterInfo info = *ns.rim.get_all_cluster_info();
    ASSERT_EQ(info.cluster_addr_table.size(), 1u);
    EXPECT_EQ(info.cluster_addr_table.at("cluster"), cluster.all_broker_names());
    for (const auto& [name, broker_data] : cluster.broker_data_map) {
      EXPECT_EQ(info.broker_addr_table.at(name).broker_addrs, broker_data.broker_addrs);
    }
  }
}

// RouteInfoManagerStaticRegisterTest#testGetAllTopicList
TEST(RouteQueries, StaticAllTopicList) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto cluster = testing::register_cluster(ns.rim, {}, kT0);
    const TopicList list = ns.rim.get_all_topic_list();
    EXPECT_EQ(list.topic_list, cluster.all_topic_names());
    EXPECT_FALSE(list.broker_addr.has_value());
  }
}

// RouteInfoManagerStaticRegisterTest#testGetTopicsByCluster
TEST(RouteQueries, StaticTopicsByCluster) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto cluster = testing::register_cluster(ns.rim, {}, kT0);
    EXPECT_EQ(ns.rim.get_topics_by_cluster("cluster").topic_list, cluster.all_topic_names());
  }
}

// RouteInfoManagerStaticRegisterTest#testPickupTopicRouteData
TEST(RouteQueries, StaticPickupTopicRouteData) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto cluster = testing::register_cluster(ns.rim, {}, kT0);
    const std::string topic = "topic-0";
    auto route = ns.rim.pickup_topic_route_data(topic);
    ASSERT_NE(route, nullptr);

    ASSERT_EQ(route->broker_datas.size(), cluster.broker_data_map.size());
    for (const auto& broker_data : route->broker_datas) {  // BrokerData#equals: name and addrs
      EXPECT_EQ(broker_data.broker_addrs,
                cluster.broker_data_map.at(broker_data.broker_name).broker_addrs);
    }
    const TopicConfig& config = cluster.topic_config.at(topic);
    Names broker_names;
    for (const auto& queue_data : route->queue_datas) {
      broker_names.insert(queue_data.broker_name);
      EXPECT_EQ(queue_data.write_queue_nums, config.write_queue_nums);
      EXPECT_EQ(queue_data.read_queue_nums, config.read_queue_nums);
      EXPECT_EQ(queue_data.perm, config.perm);
      EXPECT_EQ(queue_data.topic_sys_flag, config.topic_sys_flag);
    }
    EXPECT_EQ(broker_names, cluster.all_broker_names());
  }
}

// RouteInfoManagerStaticRegisterTest#testGetSystemTopicList
TEST(RouteQueries, StaticSystemTopicList) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    testing::register_cluster(ns.rim, {}, kT0);
    const TopicList list = ns.rim.get_system_topic_list();
    EXPECT_EQ(list.topic_list, (Names{"cluster", "broker-0", "broker-1", "broker-2"}));
    EXPECT_EQ(list.broker_addr, "cluster-broker-0:0");
  }
}

// RouteInfoManagerStaticRegisterTest#testGetUnitTopics, #testGetHasUnitSubTopicList and
// #testGetHasUnitSubUnUnitTopicList
TEST(RouteQueries, StaticUnitTopicListsAreEmpty) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    testing::register_cluster(ns.rim, {}, kT0);
    EXPECT_TRUE(ns.rim.get_unit_topics().topic_list.empty());
    EXPECT_TRUE(ns.rim.get_has_unit_sub_topic_list().topic_list.empty());
    EXPECT_TRUE(ns.rim.get_has_unit_sub_un_unit_topic_list().topic_list.empty());
  }
}

// --- RouteInfoManagerTest (5.3.3): one broker registered by the setup ---

void register_default_broker(RouteInfoManager& rim) {
  rim.register_broker(
      BrokerInfo::master()
          .cluster("default-cluster")
          .name("default-broker")
          .id(1234)
          .ha("127.0.0.1:1001")
          .acting_master(false)
          .version({100, 10, 0})
          .request_with({topic_config("unit-test0", 16), topic_config("unit-test1", 16)}, {1}),
      kT0);
}

// RouteInfoManagerTest#testGetAllClusterInfo
TEST(RouteQueries, ClusterInfoOfOneBroker) {
  Namesrv ns(Profile::kV5);
  register_default_broker(ns.rim);
  const ClusterInfo info = *ns.rim.get_all_cluster_info();
  EXPECT_EQ(info.cluster_addr_table.at("default-cluster"), (Names{"default-broker"}));
  EXPECT_EQ(info.broker_addr_table.at("default-broker").broker_addrs.at(1234), "127.0.0.1:10911");
}

// RouteInfoManagerTest#testGetAllTopicList
TEST(RouteQueries, AllTopicListOfOneBroker) {
  Namesrv ns(Profile::kV5);
  register_default_broker(ns.rim);
  EXPECT_EQ(ns.rim.get_all_topic_list().topic_list, (Names{"unit-test0", "unit-test1"}));
}

// RouteInfoManagerTest#testPickupTopicRouteData
TEST(RouteQueries, UnknownTopicHasNoRoute) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    register_default_broker(ns.rim);
    EXPECT_FALSE((ns.rim.pickup_topic_route_data("unit_test") != nullptr));
  }
}

// RouteInfoManagerTest#testGetSystemTopicList
TEST(RouteQueries, SystemTopicListOfOneBroker) {
  Namesrv ns(Profile::kV5);
  register_default_broker(ns.rim);
  const TopicList list = ns.rim.get_system_topic_list();
  EXPECT_EQ(list.topic_list, (Names{"default-cluster", "default-broker"}));
  EXPECT_EQ(list.broker_addr, "127.0.0.1:10911");
}

// RouteInfoManagerTest#testGetTopicsByCluster
TEST(RouteQueries, TopicsByClusterOfOneBroker) {
  Namesrv ns(Profile::kV5);
  register_default_broker(ns.rim);
  EXPECT_EQ(ns.rim.get_topics_by_cluster("default-cluster").topic_list,
            (Names{"unit-test0", "unit-test1"}));
}

// RouteInfoManagerTest#testGetUnitTopics, #testGetHasUnitSubTopicList and
// #testGetHasUnitSubUnUnitTopicList
TEST(RouteQueries, UnitTopicListsOfOneBroker) {
  Namesrv ns(Profile::kV5);
  register_default_broker(ns.rim);
  EXPECT_TRUE(ns.rim.get_unit_topics().topic_list.empty());
  EXPECT_TRUE(ns.rim.get_has_unit_sub_topic_list().topic_list.empty());
  EXPECT_TRUE(ns.rim.get_has_unit_sub_un_unit_topic_list().topic_list.empty());
}

// --- the branches behind those lists ---

// Java: getTopicsByCluster throws a NullPointerException for an unknown cluster and its catch
// returns the empty list; an empty manager answers empty lists everywhere.
TEST(RouteQueries, UnknownClusterAndEmptyManagerGiveEmptyLists) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    EXPECT_TRUE(ns.rim.get_all_topic_list().topic_list.empty());
    EXPECT_TRUE(ns.rim.get_system_topic_list().topic_list.empty());
    EXPECT_FALSE(ns.rim.get_system_topic_list().broker_addr.has_value());
    register_default_broker(ns.rim);
    EXPECT_TRUE(ns.rim.get_topics_by_cluster("no-such-cluster").topic_list.empty());
  }
}

// Only the groups of the cluster count, each adding the topics it has a QueueData in.
TEST(RouteQueries, TopicsByClusterFollowTheClustersGroups) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().cluster("C1").name("A").request({"TA"}, {1}), kT0);
    ns.rim.register_broker(
        BrokerInfo::master().cluster("C2").name("B").addr("10.0.0.2:1").request({"TB"}, {2}), kT0);
    EXPECT_EQ(ns.rim.get_topics_by_cluster("C1").topic_list, (Names{"TA", "baseTopic"}));
    EXPECT_EQ(ns.rim.get_topics_by_cluster("C2").topic_list, (Names{"TB", "baseTopic"}));
  }
}

// The unit lists test the topic's first QueueData only (Java: HashMap order; here the smallest
// broker name), so a flag on any other broker's QueueData is not seen.
TEST(RouteQueries, UnitTopicListsLookAtTheFirstQueueDataOnly) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto flagged = [](const std::string& name, int flag) {
      return topic_config(name, 8, 6, flag);
    };
    ns.rim.register_broker(
        BrokerInfo::master().name("A").request_with(
            {flagged("U", 1), flagged("S", 2), flagged("US", 3), flagged("N", 0)}, {1}),
        kT0);
    ns.rim.register_broker(
        BrokerInfo::master()
            .name("B")
            .addr("10.0.0.2:1")
            .request_with({flagged("U", 0), flagged("S", 0), flagged("US", 0), flagged("N", 3)},
                          {2}),
        kT0);
    EXPECT_EQ(ns.rim.get_unit_topics().topic_list, (Names{"U", "US"}));
    EXPECT_EQ(ns.rim.get_has_unit_sub_topic_list().topic_list, (Names{"S", "US"}));
    EXPECT_EQ(ns.rim.get_has_unit_sub_un_unit_topic_list().topic_list, (Names{"S"}));
  }
}

// Java: getSystemTopicList takes the address from the first group that has one; a group left
// empty by 5.x's single-topic guard is skipped for it, but its name is listed.
TEST(RouteQueries, SystemTopicListSkipsAnEmptyGroupForTheAddress) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().name("A").request_with({topic_config("T")}, {1}),
                         kT0);
  ns.rim.register_broker(BrokerInfo::master().name("B").addr("10.0.0.2:1").request({"T"}, {2}),
                         kT0);
  const TopicList list = ns.rim.get_system_topic_list();
  EXPECT_EQ(list.topic_list, (Names{"Default_Cluster", "A", "B"}));
  EXPECT_EQ(list.broker_addr, "10.0.0.2:1");
}

// Java 5.x: getBrokerMemberGroup copies the group's addresses; the cluster is echoed unchecked.
TEST(RouteQueries, BrokerMemberGroup) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
  const BrokerMemberGroup group = ns.rim.get_broker_member_group("Other", "Default_Broker");
  EXPECT_EQ(group.cluster, "Other");
  EXPECT_EQ(group.broker_name, "Default_Broker");
  EXPECT_EQ(group.broker_addrs,
            (std::map<std::int64_t, std::string>{{0, "127.0.0.1:10911"}, {1, "127.0.0.1:30911"}}));
  EXPECT_TRUE(ns.rim.get_broker_member_group("Default_Cluster", "Nope").broker_addrs.empty());
}

}  // namespace
}  // namespace nssim::core

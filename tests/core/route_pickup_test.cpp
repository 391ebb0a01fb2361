// RouteInfoManager#pickupTopicRouteData: what a client learns for a topic, including filter
// servers and 5.x's acting-master rewrite. Ported from upstream's RouteInfoManagerNewTest.
#include <gtest/gtest.h>

#include "nameserver_core/route_info_manager.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::kBothProfiles;
using testing::kT0;
using testing::Namesrv;
using testing::topic_config;

using Addrs = std::map<std::int64_t, std::string>;

// RouteInfoManagerNewTest#getAllClusterInfo
TEST(RoutePickup, GetAllClusterInfo) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master()
                               .cluster("AnotherCluster")
                               .name("AnotherBroker")
                               .addr("127.0.0.1:30911")
                               .request({"TestTopic1"}, {2}),
                           kT0);
    const ClusterInfo info = *ns.rim.get_all_cluster_info();
    EXPECT_EQ(info.cluster_addr_table.count("Default_Cluster"), 1u);
    EXPECT_EQ(info.cluster_addr_table.count("AnotherCluster"), 1u);
    EXPECT_EQ(info.broker_addr_table.at("Default_Broker").broker_addrs.at(0), "127.0.0.1:10911");
    EXPECT_EQ(info.broker_addr_table.at("AnotherBroker").broker_addrs.at(0), "127.0.0.1:30911");
  }
}

// RouteInfoManagerNewTest#getAllTopicList
TEST(RoutePickup, GetAllTopicList) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    EXPECT_TRUE(ns.rim.get_all_topic_list().topic_list.empty());
    ns.rim.register_broker(
        BrokerInfo::master().request({"TestTopic", "TestTopic1", "TestTopic2"}, {1}), kT0);
    EXPECT_EQ(ns.rim.get_all_topic_list().topic_list,
              (std::set<std::string>{"TestTopic", "TestTopic1", "TestTopic2", "baseTopic"}));
  }
}

// RouteInfoManagerNewTest#pickupTopicRouteData
TEST(RoutePickup, PickupTopicRouteData) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
    auto route = ns.rim.pickup_topic_route_data("TestTopic");
    ASSERT_EQ(route->broker_datas.size(), 1u);
    EXPECT_EQ(route->broker_datas[0].broker_name, "Default_Broker");
    EXPECT_EQ(route->broker_datas[0].broker_addrs.at(0), "127.0.0.1:10911");
    ASSERT_EQ(route->queue_datas.size(), 1u);
    EXPECT_EQ(route->queue_datas[0],
              (QueueData{"Default_Broker", 8, 8, perm::kRead | perm::kWrite, 0}));

    ns.rim.register_broker(BrokerInfo::master().name("AnotherBroker").request({"TestTopic"}, {2}),
                           kT0);
    route = ns.rim.pickup_topic_route_data("TestTopic");
    // Both lists come sorted by broker name.
    ASSERT_EQ(route->broker_datas.size(), 2u);
    EXPECT_EQ(route->broker_datas[0].broker_name, "AnotherBroker");
    EXPECT_EQ(route->broker_datas[1].broker_name, "Default_Broker");
    ASSERT_EQ(route->queue_datas.size(), 2u);
    EXPECT_EQ(route->queue_datas[0].broker_name, "AnotherBroker");
    EXPECT_EQ(route->queue_datas[1].broker_name, "Default_Broker");
  }
}

// RouteInfoManagerNewTest#pickupTopicRouteDataWithSlave
TEST(RoutePickup, PickupTopicRouteDataWithSlave) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const auto writable = [&ns] {
    return perm::is_writeable(ns.rim.pickup_topic_route_data("TestTopic")->queue_datas[0].perm);
  };
  const auto member_count = [&ns] {
    return ns.rim.pickup_topic_route_data("TestTopic")->broker_datas[0].broker_addrs.size();
  };
  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"TestTopic"}, {2}), kT0);
  EXPECT_EQ(member_count(), 2u);
  EXPECT_TRUE(writable());

  ns.rim.unregister_broker(BrokerInfo::master().unregister_request(),
                           RemovalPath::kUnregisterRequest);
  EXPECT_EQ(member_count(), 1u);
  EXPECT_FALSE(writable());

  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
  EXPECT_EQ(member_count(), 2u);
  EXPECT_TRUE(writable());
}

// Registers `broker` with order topics of `queue_nums` queues (the order flag itself never
// reaches QueueData), as RouteInfoManagerNewTest#registerBrokerWithOrderTopic and
// #registerBrokerWithGlobalOrderTopic do.
void register_order_topic(RouteInfoManager& rim, const BrokerInfo& broker, const std::string& topic,
                          int queue_nums) {
  TopicConfig base = topic_config("baseTopic", queue_nums == 1 ? 1 : 16);
  TopicConfig order = topic_config(topic, queue_nums);
  base.order = order.order = true;
  rim.register_broker(broker.request_with({base, order}, {1}), kT0);
}

void unregister(RouteInfoManager& rim, const BrokerInfo& broker) {
  rim.unregister_broker(broker.unregister_request(), RemovalPath::kUnregisterRequest);
}

// The acting-master check of both order-topic tests: one member shown at id 0, read-only.
void expect_slave_acting_as_master(const RouteInfoManager& rim, const std::string& topic) {
  auto route = rim.pickup_topic_route_data(topic);
  ASSERT_NE(route, nullptr);
  EXPECT_EQ(route->broker_datas.at(0).broker_addrs, (Addrs{{0, BrokerInfo::slave().broker_addr}}));
  EXPECT_FALSE(perm::is_writeable(route->queue_datas.at(0).perm));
}

// RouteInfoManagerNewTest#pickupPartitionOrderTopicRouteData
TEST(RoutePickup, PickupPartitionOrderTopicRouteData) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const std::string topic = "PartitionOrderTopicTest";
  // Case 1: the slave alone.
  register_order_topic(ns.rim, BrokerInfo::slave(), topic, 8);
  expect_slave_acting_as_master(ns.rim, topic);
  unregister(ns.rim, BrokerInfo::slave());

  // Case 2: slave and master, then the master leaves.
  register_order_topic(ns.rim, BrokerInfo::slave(), topic, 8);
  register_order_topic(ns.rim, BrokerInfo::master(), topic, 8);
  unregister(ns.rim, BrokerInfo::master());
  expect_slave_acting_as_master(ns.rim, topic);
  unregister(ns.rim, BrokerInfo::slave());

  // Case 3: two groups; only the one that loses its master gets an acting master.
  const BrokerInfo master1 = BrokerInfo::master().name("Default_Broker_ANOTHER");
  const BrokerInfo slave1 = BrokerInfo::slave().name("Default_Broker_ANOTHER");
  for (const auto& broker : {BrokerInfo::slave(), BrokerInfo::master(), master1, slave1}) {
    register_order_topic(ns.rim, broker, topic, 8);
  }
  auto route = ns.rim.pickup_topic_route_data(topic);
  EXPECT_EQ(route->broker_datas.size(), 2u);
  EXPECT_EQ(route->queue_datas.size(), 2u);

  unregister(ns.rim, BrokerInfo::master());
  route = ns.rim.pickup_topic_route_data(topic);
  ASSERT_EQ(route->broker_datas.size(), 2u);
  EXPECT_EQ(route->queue_datas.size(), 2u);
  EXPECT_EQ(testing::find_broker_data(*route, "Default_Broker")->broker_addrs,
            (Addrs{{0, BrokerInfo::slave().broker_addr}}));
  EXPECT_EQ(testing::find_broker_data(*route, master1.broker_name)->broker_addrs,
            (Addrs{{0, master1.broker_addr}, {1, slave1.broker_addr}}));
}

// RouteInfoManagerNewTest#pickupGlobalOrderTopicRouteData (upstream re-checks a stale route in
// case 2; here the route is picked again)
TEST(RoutePickup, PickupGlobalOrderTopicRouteData) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const std::string topic = "GlobalOrderTopicTest";
  register_order_topic(ns.rim, BrokerInfo::slave(), topic, 1);
  expect_slave_acting_as_master(ns.rim, topic);
  unregister(ns.rim, BrokerInfo::slave());

  register_order_topic(ns.rim, BrokerInfo::slave(), topic, 1);
  register_order_topic(ns.rim, BrokerInfo::master(), topic, 1);
  unregister(ns.rim, BrokerInfo::master());
  expect_slave_acting_as_master(ns.rim, topic);
  EXPECT_EQ(ns.rim.pickup_topic_route_data(topic)->queue_datas.at(0).write_queue_nums, 1);
}

// The rewrite happens only with supportActingMaster, for groups that enable it, whose queue is
// read-only, on topics other than rmq_sys_SYNC_BROKER_MEMBER_*; and only in the returned copy.
TEST(RoutePickup, ActingMasterRewriteConditions) {
  const auto lone_slave_route = [](bool support, bool enable, bool wipe, const std::string& topic) {
    NamesrvConfig config;
    config.support_acting_master = support;
    Namesrv ns(Profile::kV5, config);
    ns.rim.register_broker(BrokerInfo::slave().acting_master(enable).request({topic}, {2}), kT0);
    if (wipe) {
      ns.rim.wipe_write_perm_of_broker_by_lock("Default_Broker");
    } else {
      ns.rim.add_write_perm_of_broker_by_lock("Default_Broker");
    }
    auto route = ns.rim.pickup_topic_route_data(topic);
    EXPECT_EQ(ns.rim.broker_addr_table().at("Default_Broker").broker_addrs.count(0), 0u);
    return route->broker_datas.at(0).broker_addrs;
  };
  const Addrs as_slave{{1, "127.0.0.1:30911"}};
  const Addrs as_master{{0, "127.0.0.1:30911"}};
  EXPECT_EQ(lone_slave_route(true, true, true, "T"), as_master);
  EXPECT_EQ(lone_slave_route(false, true, true, "T"), as_slave);
  EXPECT_EQ(lone_slave_route(true, false, true, "T"), as_slave);
  EXPECT_EQ(lone_slave_route(true, true, false, "T"), as_slave);
  EXPECT_EQ(lone_slave_route(true, true, true, "rmq_sys_SYNC_BROKER_MEMBER_x"), as_slave);
}

// The smallest id moves to 0; the other members keep theirs.
TEST(RoutePickup, ActingMasterIsTheSmallestId) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  ns.rim.register_broker(BrokerInfo::slave().id(3).addr("10.0.0.3:1").request({"T"}, {3}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().id(2).addr("10.0.0.2:1").request({"T"}, {2}), kT0);
  ns.rim.wipe_write_perm_of_broker_by_lock("Default_Broker");
  EXPECT_EQ(ns.rim.pickup_topic_route_data("T")->broker_datas.at(0).broker_addrs,
            (Addrs{{0, "10.0.0.2:1"}, {3, "10.0.0.3:1"}}));
}

// 4.9 adds only the filter-server lists it has; 5.x adds every address of the group, with null
// where it has none. With no filter servers at all, neither adds anything.
TEST(RoutePickup, FilterServersOf4xAnd5x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
    EXPECT_TRUE(ns.rim.pickup_topic_route_data("T")->filter_server_table.empty());

    RegisterBrokerRequest request = BrokerInfo::master().request({"T"}, {1});
    request.filter_server_list = FilterServerList{"fs:1"};
    ns.rim.register_broker(request, kT0);
    const auto table = ns.rim.pickup_topic_route_data("T")->filter_server_table;
    EXPECT_EQ(table.at("127.0.0.1:10911"), (FilterServerList{"fs:1"}));
    if (profile == Profile::kV4_9) {
      EXPECT_EQ(table.count("127.0.0.1:30911"), 0u);
    } else {
      ASSERT_EQ(table.count("127.0.0.1:30911"), 1u);
      EXPECT_FALSE(table.at("127.0.0.1:30911").has_value());
    }
  }
}

// 5.x copies BrokerData whole (zone and acting-master flag); a group left empty by the
// single-topic guard still counts as found.
TEST(RoutePickup, BrokerDataCopyIn5x) {
  Namesrv ns(Profile::kV5);
  RegisterBrokerRequest request = BrokerInfo::master().request({"T"}, {1});
  request.zone_name = "zone-a";
  ns.rim.register_broker(request, kT0);
  const BrokerData copy = ns.rim.pickup_topic_route_data("T")->broker_datas.at(0);
  EXPECT_EQ(copy.zone_name, "zone-a");
  EXPECT_TRUE(copy.enable_acting_master);

  ns.rim.register_broker(BrokerInfo::master().name("Empty").request_with({topic_config("X")}, {2}),
                         kT0);
  ns.rim.register_topic("X", {QueueData{"Empty", 8, 8, 6, 0}});
  auto route = ns.rim.pickup_topic_route_data("X");
  ASSERT_NE(route, nullptr);
  EXPECT_TRUE(route->broker_datas.at(0).broker_addrs.empty());
}

}  // namespace
}  // namespace nssim::core

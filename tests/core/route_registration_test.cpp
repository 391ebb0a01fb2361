// RouteInfoManager#registerBroker, the parts 4.9 and 5.x share: group membership, the slave's
// result, address and id changes, live info and filter servers. Ported from upstream's
// RouteInfoManagerTest, RouteInfoManagerNewTest and RouteInfoManagerBrokerRegisterTest.
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

BrokerAddrInfo live_key_of(Profile profile, const std::string& cluster, const std::string& addr) {
  return BrokerAddrInfo{profile == Profile::kV4_9 ? "" : cluster, addr};
}

// Java: RouteInfoManagerTest#setup / #testRegisterBroker (the broker registered there).
RegisterBrokerRequest default_cluster_request(const std::string& cluster, const std::string& name,
                                              DataVersion data_version, ConnectionId channel) {
  return BrokerInfo::master()
      .cluster(cluster)
      .name(name)
      .id(1234)
      .ha("127.0.0.1:1001")
      .acting_master(false)
      .version(data_version)
      .request_with({topic_config("unit-test0", 16), topic_config("unit-test1", 16)}, channel);
}

// RouteInfoManagerTest#testRegisterBroker
TEST(RouteRegistration, RegisterBrokerReturnsAResult) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    auto result = ns.rim.register_broker(
        default_cluster_request("default-cluster", "default-broker", {100, 10, 0}, {1}), kT0);
    ASSERT_TRUE(result.has_value());
    // Id 1234 is a slave. A 4.9 slave never writes topics; a 5.x broker (enableActingMaster sent)
    // that is the group's smallest id is a prime slave and does.
    EXPECT_EQ(ns.rim.topic_queue_table().size(), profile == Profile::kV5 ? 2u : 0u);
  }
}

// RouteInfoManagerTest#testQueryBrokerTopicConfig
TEST(RouteRegistration, SameAddressInTwoClustersKeepsTwoLiveEntriesIn5x) {
  Namesrv ns(Profile::kV5);
  const std::string addr = "127.0.0.1:10911";
  ns.rim.register_broker(
      default_cluster_request("default-cluster", "default-broker", {100, 10, 0}, {1}), kT0);
  EXPECT_EQ(ns.rim.query_broker_topic_config("default-cluster", addr)->counter, 10);

  ns.rim.register_broker(
      default_cluster_request("default-cluster-1", "default-broker-1", {200, 20, 0}, {2}), kT0);
  EXPECT_EQ(ns.rim.query_broker_topic_config("default-cluster", addr)->counter, 10);
  EXPECT_EQ(ns.rim.query_broker_topic_config("default-cluster-1", addr)->counter, 20);

  ns.rim.unregister_broker({"default-cluster-1", addr, "default-broker-1", 1234},
                           RemovalPath::kUnregisterRequest);
  EXPECT_TRUE(ns.rim.query_broker_topic_config("default-cluster", addr).has_value());
  EXPECT_FALSE(ns.rim.query_broker_topic_config("default-cluster-1", addr).has_value());
}

// 4.9 keys liveness by address only: the second cluster's registration overwrites the first.
TEST(RouteRegistration, SameAddressInTwoClustersSharesOneLiveEntryIn4x) {
  Namesrv ns(Profile::kV4_9);
  const std::string addr = "127.0.0.1:10911";
  ns.rim.register_broker(
      default_cluster_request("default-cluster", "default-broker", {100, 10, 0}, {1}), kT0);
  ns.rim.register_broker(
      default_cluster_request("default-cluster-1", "default-broker-1", {200, 20, 0}, {2}), kT0);
  EXPECT_EQ(ns.rim.query_broker_topic_config("default-cluster", addr)->counter, 20);

  ns.rim.unregister_broker({"default-cluster-1", addr, "default-broker-1", 1234},
                           RemovalPath::kUnregisterRequest);
  EXPECT_FALSE(ns.rim.query_broker_topic_config("default-cluster", addr).has_value());
}

// RouteInfoManagerNewTest#registerBroker
TEST(RouteRegistration, SlaveResultCarriesTheMastersHaAndAddress) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    auto master = ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
    ASSERT_TRUE(master.has_value());
    EXPECT_FALSE(master->ha_server_addr.has_value());
    EXPECT_FALSE(master->master_addr.has_value());

    const BrokerInfo slave =
        BrokerInfo::master().id(1).addr("127.0.0.1:30911").ha("127.0.0.1:40911");
    auto result = ns.rim.register_broker(slave.request({"TestTopic"}, {2}), kT0);
    ASSERT_TRUE(result.has_value());
    EXPECT_EQ(result->ha_server_addr, "127.0.0.1:20911");
    EXPECT_EQ(result->master_addr, "127.0.0.1:10911");
  }
}

TEST(RouteRegistration, SlaveResultIsEmptyWithoutAMaster) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    auto result = ns.rim.register_broker(BrokerInfo::slave().request({"TestTopic"}, {1}), kT0);
    ASSERT_TRUE(result.has_value());
    EXPECT_FALSE(result->ha_server_addr.has_value());
    EXPECT_FALSE(result->master_addr.has_value());
  }
}

// Java throws a NullPointerException on a null wrapper and its catch returns the empty result:
// 4.9 after putting the address (so the master has no live entry for its slaves to find), 5.x
// at the single-topic guard, before putting it.
TEST(RouteRegistration, RegistrationWithoutTopicWrapperStopsHalfway) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    RegisterBrokerRequest request = BrokerInfo::master().request({"TestTopic"}, {1});
    request.topic_config_wrapper.reset();
    auto result = ns.rim.register_broker(request, kT0);
    ASSERT_TRUE(result.has_value());
    EXPECT_FALSE(testing::has_live_entry(ns.rim, "Default_Cluster", "127.0.0.1:10911"));
    const auto& addrs = ns.rim.broker_addr_table().at("Default_Broker").broker_addrs;
    EXPECT_EQ(addrs.size(), profile == Profile::kV4_9 ? 1u : 0u);

    auto slave = ns.rim.register_broker(BrokerInfo::slave().request({"TestTopic"}, {2}), kT0);
    ASSERT_TRUE(slave.has_value());
    EXPECT_FALSE(slave->master_addr.has_value());
  }
}

// 5.x: a known id with no wrapper gets a live entry carrying a fresh DataVersion (counter 0).
TEST(RouteRegistration, KnownIdWithoutTopicWrapperRefreshesLivenessIn5x) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
  RegisterBrokerRequest request = BrokerInfo::master().request({}, {1});
  request.topic_config_wrapper.reset();
  ASSERT_TRUE(ns.rim.register_broker(request, kT0 + 5).has_value());
  const auto& live = ns.rim.broker_live_table().at({"Default_Cluster", "127.0.0.1:10911"});
  EXPECT_EQ(live.last_update_timestamp, kT0 + 5);
  EXPECT_EQ(live.data_version.counter, 0);
}

// RouteInfoManagerNewTest#registerSlaveBroker
TEST(RouteRegistration, SlaveJoinsTheMastersBrokerData) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
    EXPECT_EQ(testing::ids_of(ns.rim.pickup_topic_route_data("TestTopic")->broker_datas.at(0)),
              (std::set<std::int64_t>{0}));

    ns.rim.register_broker(BrokerInfo::slave().request({"TestTopic"}, {2}), kT0);
    const BrokerData broker_data = ns.rim.pickup_topic_route_data("TestTopic")->broker_datas.at(0);
    EXPECT_EQ(broker_data.broker_addrs, (std::map<std::int64_t, std::string>{
                                            {0, "127.0.0.1:10911"}, {1, "127.0.0.1:30911"}}));
  }
}

// RouteInfoManagerNewTest#createNewTopic (the master's new topic comes with a new DataVersion,
// as a real broker's does; 4.9 would ignore it otherwise)
TEST(RouteRegistration, NewTopicOfTheMasterListsTheWholeGroup) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::slave().request({"TestTopic"}, {2}), kT0);
    ns.rim.register_broker(
        BrokerInfo::master().next_version(kT0 + 1).request({"TestTopic", "TestTopic1"}, {1}),
        kT0 + 1);

    auto route = ns.rim.pickup_topic_route_data("TestTopic1");
    ASSERT_NE(route, nullptr);
    EXPECT_EQ(testing::ids_of(route->broker_datas.at(0)), (std::set<std::int64_t>{0, 1}));
  }
}

// RouteInfoManagerNewTest#switchBrokerRole
TEST(RouteRegistration, SwitchBrokerRole) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    BrokerInfo master = BrokerInfo::master().acting_master(false);
    BrokerInfo slave = BrokerInfo::slave().acting_master(false);
    ns.rim.register_broker(master.request({"TestTopic"}, {1}), kT0);
    ns.rim.register_broker(slave.request({"TestTopic"}, {2}), kT0);

    ns.rim.unregister_broker(master.unregister_request(), RemovalPath::kUnregisterRequest);
    auto addrs = ns.rim.pickup_topic_route_data("TestTopic")->broker_datas.at(0).broker_addrs;
    EXPECT_EQ(addrs, (std::map<std::int64_t, std::string>{{1, slave.broker_addr}}));

    slave = slave.id(0).next_version(kT0 + 1);
    ns.rim.register_broker(slave.request({"TestTopic"}, {2}), kT0 + 1);
    addrs = ns.rim.pickup_topic_route_data("TestTopic")->broker_datas.at(0).broker_addrs;
    EXPECT_EQ(addrs, (std::map<std::int64_t, std::string>{{0, slave.broker_addr}}));

    master = master.id(1).next_version(kT0 + 2);
    ns.rim.register_broker(master.request({"TestTopic"}, {3}), kT0 + 2);
    addrs = ns.rim.pickup_topic_route_data("TestTopic")->broker_datas.at(0).broker_addrs;
    EXPECT_EQ(addrs, (std::map<std::int64_t, std::string>{{0, slave.broker_addr},
                                                          {1, master.broker_addr}}));
  }
}

// RouteInfoManagerBrokerRegisterTest#testMasterChangeFromSlave
TEST(RouteRegistration, MasterChangeFromSlave) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto cluster = testing::register_cluster(ns.rim, {}, kT0);
    const std::string topic = "topic-0";
    const std::string broker_name = "broker-0";
    auto route = ns.rim.pickup_topic_route_data(topic);
    EXPECT_EQ(testing::find_broker_data(*route, broker_name)->broker_addrs.at(kMasterId),
              "cluster-broker-0:0");

    // The slave at id 1 registers as the master; its old id-1 entry goes (same address).
    const std::string new_master_addr = "cluster-broker-0:1";
    std::vector<TopicConfig> topics;
    for (const auto& [name, config] : cluster.topic_config) topics.push_back(config);
    ns.rim.register_broker(BrokerInfo::master()
                               .cluster("cluster")
                               .name(broker_name)
                               .addr(new_master_addr)
                               .ha(new_master_addr)
                               .acting_master(false)
                               .version({kT0 + 1, 0, 0})
                               .request_with(topics, cluster.channels.at(new_master_addr)),
                           kT0 + 1);
    route = ns.rim.pickup_topic_route_data(topic);
    const BrokerData* broker_data = testing::find_broker_data(*route, broker_name);
    EXPECT_EQ(broker_data->broker_addrs.at(kMasterId), new_master_addr);
    EXPECT_EQ(testing::ids_of(*broker_data), (std::set<std::int64_t>{0, 2}));
  }
}

// 4.9 has no conflict check, and 5.x none when the stateVersions are equal: a new address for a
// held id replaces the old one; the old address's live entry stays.
TEST(RouteRegistration, IdHeldByAnotherAddressIsReplaced) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().addr("10.0.0.2:10911").request({"T"}, {2}), kT0);
    EXPECT_EQ(ns.rim.broker_addr_table().at("Default_Broker").broker_addrs,
              (std::map<std::int64_t, std::string>{{0, "10.0.0.2:10911"}}));
    EXPECT_TRUE(testing::has_live_entry(ns.rim, "Default_Cluster", "127.0.0.1:10911"));
  }
}

// Nothing stops a broker name from joining a second cluster; its BrokerData keeps the first.
TEST(RouteRegistration, BrokerNameInTwoClustersKeepsItsFirstCluster) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().cluster("C1").request({"T"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::slave().cluster("C2").request({"T"}, {2}), kT0);
    EXPECT_EQ(ns.rim.cluster_addr_table().at("C1"), (std::set<std::string>{"Default_Broker"}));
    EXPECT_EQ(ns.rim.cluster_addr_table().at("C2"), (std::set<std::string>{"Default_Broker"}));
    EXPECT_EQ(ns.rim.broker_addr_table().at("Default_Broker").cluster, "C1");
  }
}

// A non-empty filter-server list replaces the entry, an empty one removes it, null keeps it.
TEST(RouteRegistration, FilterServerListReplacesOrClears) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto key = live_key_of(profile, "Default_Cluster", "127.0.0.1:10911");
    RegisterBrokerRequest request = BrokerInfo::master().request({"T"}, {1});
    request.filter_server_list = FilterServerList{"fs:1"};
    ns.rim.register_broker(request, kT0);
    EXPECT_EQ(ns.rim.filter_server_table().at(key), (FilterServerList{"fs:1"}));

    request.filter_server_list.reset();
    ns.rim.register_broker(request, kT0);
    EXPECT_EQ(ns.rim.filter_server_table().count(key), 1u);

    request.filter_server_list = FilterServerList{};
    ns.rim.register_broker(request, kT0);
    EXPECT_EQ(ns.rim.filter_server_table().count(key), 0u);
  }
}

// Every registration replaces the live entry: time, DataVersion, connection and HA address.
TEST(RouteRegistration, ReRegistrationReplacesTheLiveEntry) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().ha("h:2").next_version(kT0 + 9).request({"T"}, {7}),
                           kT0 + 9);
    const auto& live =
        ns.rim.broker_live_table().at(live_key_of(profile, "Default_Cluster", "127.0.0.1:10911"));
    EXPECT_EQ(live.last_update_timestamp, kT0 + 9);
    EXPECT_EQ(live.data_version.counter, 2);
    EXPECT_EQ(live.channel, ConnectionId{7});
    EXPECT_EQ(live.ha_server_addr, "h:2");
    EXPECT_EQ(live.heartbeat_timeout_millis, kDefaultBrokerChannelExpiredTimeMs);
  }
}

}  // namespace
}  // namespace nssim::core

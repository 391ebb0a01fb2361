// RouteInfoManager#unregisterBroker: 4.9 removes by id at once; 5.x removes by address, in a batch,
// usually through the bounded BatchUnregistrationService queue. Ported from upstream's
// RouteInfoManagerNewTest and RouteInfoManagerBrokerRegisterTest.
#include <gtest/gtest.h>

#include "nameserver_core/route_info_manager.h"
#include "support/cluster_builder.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::has_topic;
using testing::kBothProfiles;
using testing::kT0;
using testing::Namesrv;
using testing::perm_of;

constexpr RemovalPath kRequest = RemovalPath::kUnregisterRequest;

std::map<std::int64_t, std::string> addrs_of(const RouteInfoManager& rim, const std::string& name) {
  return rim.broker_addr_table().at(name).broker_addrs;
}

// RouteInfoManagerNewTest#unregisterBroker
TEST(RouteUnregistration, UnregisterBroker) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    const std::vector<std::string> topics = {"TestTopic", "TestTopic1", "TestTopic2"};
    ns.rim.register_broker(BrokerInfo::master().request(topics, {1}), kT0);
    auto removals = ns.rim.unregister_broker(
        {"Default_Cluster", "127.0.0.1:10911", "Default_Broker", 0}, kRequest);
    for (const auto& topic : topics) EXPECT_FALSE(has_topic(ns.rim, topic));
    ASSERT_EQ(removals.size(), 1u);
    EXPECT_TRUE(removals[0].removed_live_entry);
    EXPECT_TRUE(removals[0].removed_addr_entry);
    EXPECT_TRUE(removals[0].removed_broker_name);
    EXPECT_EQ(removals[0].path, kRequest);
    if (profile == Profile::kV4_9) continue;

    ns.rim.register_broker(BrokerInfo::master().request(topics, {1}), kT0);
    EXPECT_TRUE(ns.rim.submit_unregister_broker_request(BrokerInfo::master().unregister_request(),
                                                        kRequest));
    ns.rim.process_pending_unregistrations();
    EXPECT_EQ(ns.rim.pending_unregistrations(), 0u);
    for (const auto& topic : topics) EXPECT_FALSE(has_topic(ns.rim, topic));
  }
}

// RouteInfoManagerNewTest#unRegisterSlaveBroker
TEST(RouteUnregistration, UnregisterSlaveBroker) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    const BrokerInfo slave = BrokerInfo::slave();
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
    ns.rim.register_broker(slave.request({"TestTopic"}, {2}), kT0);
    ns.rim.unregister_broker(slave.unregister_request(), kRequest);
    auto route = ns.rim.pickup_topic_route_data("TestTopic");
    ASSERT_EQ(route->broker_datas.size(), 1u);
    EXPECT_EQ(route->broker_datas[0].broker_addrs,
              (std::map<std::int64_t, std::string>{{0, "127.0.0.1:10911"}}));
    EXPECT_EQ(perm_of(ns.rim, "TestTopic", "Default_Broker"), 6);  // a master remains
    if (profile == Profile::kV4_9) continue;

    ns.rim.register_broker(slave.request({"TestTopic"}, {2}), kT0);
    ns.rim.submit_unregister_broker_request(slave.unregister_request(), kRequest);
    ns.rim.process_pending_unregistrations();
    EXPECT_EQ(ns.rim.pickup_topic_route_data("TestTopic")->broker_datas[0].broker_addrs,
              (std::map<std::int64_t, std::string>{{0, "127.0.0.1:10911"}}));
  }
}

// RouteInfoManagerNewTest#unRegisterMasterBroker
TEST(RouteUnregistration, MasterLeavingAnActingMasterGroupWipesTheWriteBit) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const BrokerInfo slave = BrokerInfo::slave();
  ns.rim.register_broker(BrokerInfo::master().acting_master(true).request({"TestTopic"}, {1}), kT0);
  ns.rim.register_broker(slave.request({"TestTopic"}, {2}), kT0);
  ns.rim.unregister_broker(BrokerInfo::master().unregister_request(), kRequest);

  auto route = ns.rim.pickup_topic_route_data("TestTopic");
  ASSERT_EQ(route->broker_datas.size(), 1u);
  EXPECT_EQ(route->broker_datas[0].broker_addrs.at(kMasterId), slave.broker_addr);
  ASSERT_EQ(route->queue_datas.size(), 1u);
  EXPECT_EQ(route->queue_datas[0].perm, perm::kRead);
  EXPECT_EQ(perm_of(ns.rim, "baseTopic", "Default_Broker"), perm::kRead);  // every topic
}

// RouteInfoManagerNewTest#unRegisterMasterBrokerOldVersion (4.9 never wipes)
TEST(RouteUnregistration, MasterLeavingWithoutActingMasterKeepsTheWriteBit) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    ns.rim.register_broker(BrokerInfo::master().acting_master(false).request({"TestTopic"}, {1}),
                           kT0);
    ns.rim.register_broker(BrokerInfo::slave().acting_master(false).request({"TestTopic"}, {2}),
                           kT0);
    ns.rim.unregister_broker(BrokerInfo::master().unregister_request(), kRequest);
    auto route = ns.rim.pickup_topic_route_data("TestTopic");
    ASSERT_EQ(route->broker_datas.size(), 1u);
    EXPECT_EQ(route->broker_datas[0].broker_addrs.count(kMasterId), 0u);
    ASSERT_EQ(route->queue_datas.size(), 1u);
    EXPECT_EQ(route->queue_datas[0].perm, perm::kRead | perm::kWrite);
  }
}

// RouteInfoManagerNewTest#submitMultiUnRegisterRequests
TEST(RouteUnregistration, SubmitMultiUnregisterRequests) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const BrokerInfo master1 = BrokerInfo::master();
  const BrokerInfo master2 = BrokerInfo::master().name("Default_Broker1").addr("127.0.0.1:109119");
  ns.rim.register_broker(master1.request({"TestTopic1"}, {1}), kT0);
  ns.rim.register_broker(master2.request({"TestTopic2"}, {2}), kT0);
  EXPECT_TRUE(ns.rim.submit_unregister_broker_request(master1.unregister_request(), kRequest));
  EXPECT_TRUE(ns.rim.submit_unregister_broker_request(master2.unregister_request(), kRequest));
  EXPECT_EQ(ns.rim.pending_unregistrations(), 2u);
  EXPECT_EQ(ns.rim.process_pending_unregistrations().size(), 2u);
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic1"));
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic2"));
  EXPECT_TRUE(ns.rim.broker_addr_table().empty());
  EXPECT_TRUE(ns.rim.cluster_addr_table().empty());
}

// RouteInfoManagerBrokerRegisterTest#testUnregisterBroker
TEST(RouteUnregistration, UnregisteredSlaveLeavesTheRoute) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto cluster = testing::register_cluster(ns.rim, {}, kT0);
    const BrokerData& broker_data = cluster.broker_data_map.at("broker-0");
    ns.rim.unregister_broker({"cluster", broker_data.broker_addrs.at(2), "broker-0", 2}, kRequest);
    auto route = ns.rim.pickup_topic_route_data("topic-0");
    EXPECT_EQ(testing::ids_of(*testing::find_broker_data(*route, "broker-0")),
              (std::set<std::int64_t>{0, 1}));
  }
}

// 4.9 removes the entry by id, whatever address holds it: a late unregister from a replaced
// master deletes the new master. 5.x removes by address and only drops the old live entry.
TEST(RouteUnregistration, StaleUnregisterDeletesTheNewMasterOnlyIn4x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo old_master = BrokerInfo::master();
    const BrokerInfo new_master = BrokerInfo::master().addr("10.0.0.2:10911");
    ns.rim.register_broker(old_master.request({"T"}, {1}), kT0);
    ns.rim.register_broker(new_master.request({"T"}, {2}), kT0 + 1);
    auto removals = ns.rim.unregister_broker(old_master.unregister_request(), kRequest);

    EXPECT_FALSE(testing::has_live_entry(ns.rim, "Default_Cluster", old_master.broker_addr));
    EXPECT_TRUE(testing::has_live_entry(ns.rim, "Default_Cluster", new_master.broker_addr));
    ASSERT_EQ(removals.size(), 1u);
    EXPECT_TRUE(removals[0].removed_live_entry);
    if (profile == Profile::kV4_9) {
      EXPECT_TRUE(removals[0].removed_broker_name);
      EXPECT_TRUE(ns.rim.broker_addr_table().empty());
      EXPECT_FALSE(has_topic(ns.rim, "T"));
    } else {
      EXPECT_FALSE(removals[0].removed_addr_entry);
      EXPECT_EQ(addrs_of(ns.rim, "Default_Broker"),
                (std::map<std::int64_t, std::string>{{0, new_master.broker_addr}}));
      EXPECT_TRUE(has_topic(ns.rim, "T"));
    }
  }
}

// The last member takes its group, its topics (only where it was alone) and its cluster along.
TEST(RouteUnregistration, LastMemberTakesGroupTopicsAndClusterAlong) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo a = BrokerInfo::master().name("A").addr("10.0.0.1:1");
    const BrokerInfo b = BrokerInfo::master().name("B").addr("10.0.0.2:1");
    ns.rim.register_broker(a.request({"Shared", "OnlyA"}, {1}), kT0);
    ns.rim.register_broker(b.request({"Shared"}, {2}), kT0);

    ns.rim.unregister_broker(a.unregister_request(), kRequest);
    EXPECT_EQ(ns.rim.broker_addr_table().count("A"), 0u);
    EXPECT_EQ(ns.rim.cluster_addr_table().at("Default_Cluster"), (std::set<std::string>{"B"}));
    EXPECT_FALSE(has_topic(ns.rim, "OnlyA"));
    auto shared = ns.rim.pickup_topic_route_data("Shared");
    ASSERT_EQ(shared->queue_datas.size(), 1u);
    EXPECT_EQ(shared->queue_datas[0].broker_name, "B");

    ns.rim.unregister_broker(b.unregister_request(), kRequest);
    EXPECT_TRUE(ns.rim.cluster_addr_table().empty());
    EXPECT_TRUE(ns.rim.topic_queue_table().empty());
  }
}

// The group's name leaves the cluster set named by the request, not the group's own cluster.
TEST(RouteUnregistration, ClusterSetIsTheOneNamedByTheRequest) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    const UnregisterBrokerRequest request{"Other_Cluster", "127.0.0.1:10911", "Default_Broker", 0};
    auto removals = ns.rim.unregister_broker(request, kRequest);
    ASSERT_EQ(removals.size(), 1u);
    // 5.x keys the live entry by (cluster, address): the one of Default_Cluster stays.
    EXPECT_EQ(removals[0].removed_live_entry, profile == Profile::kV4_9);
    EXPECT_EQ(testing::has_live_entry(ns.rim, "Default_Cluster", "127.0.0.1:10911"),
              profile == Profile::kV5);
    EXPECT_TRUE(removals[0].removed_broker_name);
    EXPECT_TRUE(ns.rim.broker_addr_table().empty());
    EXPECT_FALSE(has_topic(ns.rim, "T"));
    EXPECT_EQ(ns.rim.cluster_addr_table().at("Default_Cluster"),
              (std::set<std::string>{"Default_Broker"}));
  }
}

// The live entry is keyed by address (4.9) or (cluster, address) (5.x), not by name: an unknown
// broker name still drops it, and leaves every group alone.
TEST(RouteUnregistration, UnknownBrokerNameStillDropsTheLiveEntry) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    auto removals = ns.rim.unregister_broker(
        {"Default_Cluster", "127.0.0.1:10911", "No_Such_Broker", 0}, kRequest);
    ASSERT_EQ(removals.size(), 1u);
    EXPECT_TRUE(removals[0].removed_live_entry);
    EXPECT_FALSE(removals[0].removed_addr_entry);
    EXPECT_EQ(addrs_of(ns.rim, "Default_Broker").size(), 1u);
    EXPECT_TRUE(has_topic(ns.rim, "T"));
  }
}

// 5.x: the processor only queues; the tables change when the batch service drains the queue.
TEST(RouteUnregistration, QueuedUnregisterChangesNothingUntilProcessed) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.submit_unregister_broker_request(BrokerInfo::master().unregister_request(), kRequest);
  EXPECT_EQ(ns.rim.pending_unregistrations(), 1u);
  EXPECT_TRUE(has_topic(ns.rim, "T"));
  EXPECT_TRUE(testing::has_live_entry(ns.rim, "Default_Cluster", "127.0.0.1:10911"));

  EXPECT_EQ(ns.rim.process_pending_unregistrations().size(), 1u);
  EXPECT_FALSE(has_topic(ns.rim, "T"));
  EXPECT_TRUE(ns.rim.process_pending_unregistrations().empty());
}

// Java: BatchUnregistrationService#submit is LinkedBlockingQueue#offer on a queue bounded by
// unRegisterBrokerQueueCapacity, read once when the manager is built.
TEST(RouteUnregistration, FullQueueRejectsSubmissions) {
  NamesrvConfig config;
  config.un_register_broker_queue_capacity = 2;
  Namesrv ns(Profile::kV5, config);
  const UnregisterBrokerRequest request = BrokerInfo::master().unregister_request();
  EXPECT_TRUE(ns.rim.submit_unregister_broker_request(request, kRequest));
  ns.config.un_register_broker_queue_capacity = 3000;  // too late: the queue is built
  EXPECT_TRUE(ns.rim.submit_unregister_broker_request(request, kRequest));
  EXPECT_FALSE(ns.rim.submit_unregister_broker_request(request, kRequest));
  EXPECT_EQ(ns.rim.pending_unregistrations(), 2u);

  ns.rim.process_pending_unregistrations();
  EXPECT_TRUE(ns.rim.submit_unregister_broker_request(request, kRequest));
}

TEST(RouteUnregistration, DefaultQueueHoldsThreeThousandRequests) {
  Namesrv ns(Profile::kV5);
  const UnregisterBrokerRequest request = BrokerInfo::master().unregister_request();
  for (int i = 0; i < 3000; ++i)
    ASSERT_TRUE(ns.rim.submit_unregister_broker_request(request, kRequest));
  EXPECT_FALSE(ns.rim.submit_unregister_broker_request(request, kRequest));
}

// One drain is one batch: both members of a group leave together, and the group with them.
TEST(RouteUnregistration, BatchRemovesAWholeGroup) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
  ns.rim.submit_unregister_broker_request(BrokerInfo::slave().unregister_request(), kRequest);
  ns.rim.submit_unregister_broker_request(BrokerInfo::master().unregister_request(), kRequest);
  auto removals = ns.rim.process_pending_unregistrations();
  ASSERT_EQ(removals.size(), 2u);
  EXPECT_FALSE(removals[0].removed_broker_name);
  EXPECT_TRUE(removals[1].removed_broker_name);
  EXPECT_TRUE(ns.rim.broker_addr_table().empty());
  EXPECT_TRUE(ns.rim.topic_queue_table().empty());
}

// 5.x with notifyMinBrokerIdChanged: removing a group's smallest id from an acting-master group
// notifies every remaining member, naming the offline address.
TEST(RouteUnregistration, RemovingTheSmallestIdNotifiesTheRemainingMembers) {
  for (bool acting_master : {false, true}) {
    SCOPED_TRACE(acting_master);
    NamesrvConfig config;
    config.notify_min_broker_id_changed = true;
    Namesrv ns(Profile::kV5, config);
    const BrokerInfo master = BrokerInfo::master().acting_master(acting_master);
    const BrokerInfo slave1 = BrokerInfo::slave().acting_master(acting_master);
    const BrokerInfo slave2 = slave1.id(2).addr("127.0.0.1:50911");
    for (const auto& broker : {master, slave1, slave2}) {
      ns.rim.register_broker(broker.request({"T"}, {1}), kT0);
    }
    ns.rim.take_min_broker_id_notices();
    ns.rim.unregister_broker(slave2.unregister_request(), kRequest);  // not the smallest
    EXPECT_TRUE(ns.rim.take_min_broker_id_notices().empty());

    ns.rim.unregister_broker(master.unregister_request(), kRequest);
    auto notices = ns.rim.take_min_broker_id_notices();
    if (!acting_master) {
      EXPECT_TRUE(notices.empty());
      continue;
    }
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_EQ(notices[0].min_broker_id, 1);
    EXPECT_EQ(notices[0].min_broker_addr, slave1.broker_addr);
    EXPECT_EQ(notices[0].offline_broker_addr, master.broker_addr);
    EXPECT_EQ(notices[0].notify_addrs, (std::vector<std::string>{slave1.broker_addr}));
  }
}

}  // namespace
}  // namespace nssim::core

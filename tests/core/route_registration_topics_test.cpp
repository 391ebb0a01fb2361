// RouteInfoManager#registerBroker, topic side: when a registration writes QueueData (DataVersion
// change, registerFirst, 5.x isTopicConfigChanged), what it never removes, 5.x's
// deleteTopicWithBrokerRegistration and 5.x's single-topic guard.
#include <gtest/gtest.h>

#include "nameserver_core/route_info_manager.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::has_topic;
using testing::kBothProfiles;
using testing::kT0;
using testing::Namesrv;
using testing::perm_of;
using testing::topic_config;

NamesrvConfig delete_topic_config() {
  NamesrvConfig config = testing::acting_master_config();
  config.delete_topic_with_broker_registration = true;
  return config;
}

// RouteInfoManagerNewTest#keepTopicWithBrokerRegistration
TEST(TopicRegistration, TopicsAreNeverRemovedByRegistration) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic", "TestTopic1"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic1"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().next_version(kT0).request({"TestTopic1"}, {1}),
                           kT0);
    EXPECT_TRUE(has_topic(ns.rim, "TestTopic"));
    EXPECT_TRUE(has_topic(ns.rim, "TestTopic1"));
  }
}

// RouteInfoManagerNewTest#deleteTopicWithBrokerRegistration
TEST(TopicRegistration, DeleteTopicWithBrokerRegistration) {
  Namesrv ns(Profile::kV5, delete_topic_config());
  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic", "TestTopic1"}, {1}), kT0);
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic"));
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic1"));

  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic1"}, {1}), kT0);
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic1"));
}

// RouteInfoManagerNewTest#deleteTopicWithBrokerRegistration2
TEST(TopicRegistration, DeleteTopicWithBrokerRegistrationRemovesOnlyThatBroker) {
  Namesrv ns(Profile::kV5, delete_topic_config());
  const BrokerInfo master1 = BrokerInfo::master();
  const BrokerInfo master2 = BrokerInfo::master().name("Default_Broker1").addr("127.0.0.1:109119");
  ns.rim.register_broker(master1.request({"TestTopic", "TestTopic1"}, {1}), kT0);
  ns.rim.register_broker(master2.request({"TestTopic", "TestTopic1"}, {2}), kT0);
  EXPECT_EQ(ns.rim.pickup_topic_route_data("TestTopic")->broker_datas.size(), 2u);
  EXPECT_EQ(ns.rim.pickup_topic_route_data("TestTopic1")->broker_datas.size(), 2u);

  ns.rim.register_broker(master1.request({"TestTopic1"}, {1}), kT0);
  auto route = ns.rim.pickup_topic_route_data("TestTopic");
  ASSERT_EQ(route->broker_datas.size(), 1u);
  EXPECT_EQ(route->broker_datas.at(0).broker_name, master2.broker_name);
  EXPECT_EQ(ns.rim.pickup_topic_route_data("TestTopic1")->broker_datas.size(), 2u);

  ns.rim.register_broker(master2.request({"TestTopic1"}, {2}), kT0);
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));
  EXPECT_EQ(ns.rim.pickup_topic_route_data("TestTopic1")->broker_datas.size(), 2u);
}

// Static topics are not supported by the deletion: a wrapper with mappings deletes nothing.
TEST(TopicRegistration, DeleteTopicWithBrokerRegistrationSkipsStaticTopicWrappers) {
  Namesrv ns(Profile::kV5, delete_topic_config());
  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic", "TestTopic1"}, {1}), kT0);
  RegisterBrokerRequest request = BrokerInfo::master().request({"TestTopic1"}, {1});
  request.topic_config_wrapper->topic_queue_mapping_info_map["TestTopic1"] = {"Default_Broker",
                                                                              "{}"};
  ns.rim.register_broker(request, kT0);
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic"));
}

// Only a master or a prime slave touches topics, and 4.9 has no such option at all.
TEST(TopicRegistration, DeleteTopicWithBrokerRegistrationIgnoresSlavesAnd4x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, delete_topic_config());
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic", "TestTopic1"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::slave().request({"TestTopic1"}, {2}), kT0);
    EXPECT_TRUE(has_topic(ns.rim, "TestTopic"));
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic1"}, {1}), kT0);
    EXPECT_EQ(has_topic(ns.rim, "TestTopic"), profile == Profile::kV4_9);
  }
}

// An existing QueueData of this broker is rewritten only when the DataVersion changed.
TEST(TopicRegistration, UnchangedDataVersionKeepsTheStoredQueueData) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master();
    ns.rim.register_broker(master.request_with({topic_config("base"), topic_config("T")}, {1}),
                           kT0);
    ns.rim.register_broker(
        master.request_with({topic_config("base"), topic_config("T", 4, 4)}, {1}), kT0);
    EXPECT_EQ(perm_of(ns.rim, "T", "Default_Broker"), 6);
    EXPECT_EQ(ns.rim.topic_queue_table().at("T").at("Default_Broker").write_queue_nums, 8);

    ns.rim.register_broker(
        master.next_version(kT0).request_with({topic_config("base"), topic_config("T", 4, 4)}, {1}),
        kT0);
    EXPECT_EQ(perm_of(ns.rim, "T", "Default_Broker"), 4);
    EXPECT_EQ(ns.rim.topic_queue_table().at("T").at("Default_Broker").write_queue_nums, 4);
  }
}

// DataVersion#equals: 4.9 compares timestamp and counter, 5.x also stateVersion.
TEST(TopicRegistration, StateVersionAloneIsAChangeOnlyIn5x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master();
    ns.rim.register_broker(master.request_with({topic_config("base"), topic_config("T")}, {1}),
                           kT0);
    const BrokerInfo bumped = master.version({kT0, 1, 1});
    EXPECT_EQ(ns.rim.is_broker_topic_config_changed("Default_Cluster", master.broker_addr,
                                                    bumped.data_version),
              profile == Profile::kV5);
    ns.rim.register_broker(
        bumped.request_with({topic_config("base"), topic_config("T", 8, 4)}, {1}), kT0);
    EXPECT_EQ(perm_of(ns.rim, "T", "Default_Broker"), profile == Profile::kV5 ? 4 : 6);
  }
}

// registerFirst: a new BrokerData writes the topics even when the address's live entry already
// holds this DataVersion.
TEST(TopicRegistration, NewBrokerDataWritesTopicsDespiteUnchangedDataVersion) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master();
    ns.rim.register_broker(master.request({"T"}, {1}), kT0);
    ns.rim.register_broker(master.name("Other_Broker").request({"T"}, {1}), kT0);
    EXPECT_EQ(perm_of(ns.rim, "T", "Other_Broker"), 6);
  }
}

// registerFirst: an id that held no address (a slave taking over as master) writes the topics
// even with the DataVersion it already registered as a slave.
TEST(TopicRegistration, SlaveTurnedMasterWritesTopicsDespiteUnchangedDataVersion) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master().acting_master(false);
    const BrokerInfo slave = BrokerInfo::slave().acting_master(false);
    ns.rim.register_broker(master.request({"T"}, {1}), kT0);
    ns.rim.register_broker(slave.request({"T", "S"}, {2}), kT0);
    EXPECT_FALSE(has_topic(ns.rim, "S"));

    ns.rim.unregister_broker(master.unregister_request(), RemovalPath::kUnregisterRequest);
    ns.rim.register_broker(slave.id(0).request({"T", "S"}, {2}), kT0);
    EXPECT_EQ(perm_of(ns.rim, "S", "Default_Broker"), 6);
  }
}

// 4.9 keeps a NameServer-only deleteTopic until the broker's DataVersion changes; 5.x re-adds a
// missing topic (isTopicConfigChanged) at the next periodic registration.
TEST(TopicRegistration, NameServerOnlyDeleteIsKeptIn4xButUndoneIn5x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T1", "T2"}, {1}), kT0);
    ns.rim.delete_topic("T1");
    ns.rim.register_broker(BrokerInfo::master().request({"T1", "T2"}, {1}), kT0 + 30000);
    EXPECT_EQ(has_topic(ns.rim, "T1"), profile == Profile::kV5);
    ns.rim.register_broker(BrokerInfo::master().next_version(kT0).request({"T1", "T2"}, {1}),
                           kT0 + 60000);
    EXPECT_TRUE(has_topic(ns.rim, "T1"));
  }
}

// 5.x isTopicConfigChanged is also true when the topic lacks this broker.
TEST(TopicRegistration, BrokerMissingFromATopicIsReAddedIn5x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master1 = BrokerInfo::master().cluster("C1");
    const BrokerInfo master2 = BrokerInfo::master().cluster("C2").name("B2").addr("10.0.0.2:1");
    ns.rim.register_broker(master1.request({"T"}, {1}), kT0);
    ns.rim.register_broker(master2.request({"T"}, {2}), kT0);
    ns.rim.delete_topic("T", "C1");
    EXPECT_FALSE(perm_of(ns.rim, "T", "Default_Broker").has_value());

    ns.rim.register_broker(master1.request({"T"}, {1}), kT0);
    EXPECT_EQ(perm_of(ns.rim, "T", "Default_Broker").has_value(), profile == Profile::kV5);
  }
}

// RouteInfoManagerNewTest#queryBrokerTopicConfig
TEST(TopicRegistration, QueryBrokerTopicConfig) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    const BrokerInfo broker = BrokerInfo::master().version({kT0, 1, 3});
    EXPECT_FALSE(ns.rim.query_broker_topic_config(broker.cluster_name, broker.broker_addr));
    ns.rim.register_broker(broker.request({"TestTopic"}, {1}), kT0);
    auto stored = ns.rim.query_broker_topic_config(broker.cluster_name, broker.broker_addr);
    ASSERT_TRUE(stored.has_value());
    EXPECT_TRUE(data_version_equals(*stored, broker.data_version, Profile::kV5));
  }
}

// RouteInfoManagerNewTest#isBrokerTopicConfigChanged
TEST(TopicRegistration, IsBrokerTopicConfigChanged) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    const BrokerInfo broker = BrokerInfo::master();
    const auto changed = [&](std::optional<DataVersion> data_version) {
      return ns.rim.is_broker_topic_config_changed(broker.cluster_name, broker.broker_addr,
                                                   data_version);
    };
    EXPECT_TRUE(changed(broker.data_version));  // nothing stored yet
    ns.rim.register_broker(broker.request({"TestTopic"}, {1}), kT0);
    const DataVersion stored =
        *ns.rim.query_broker_topic_config("Default_Cluster", "127.0.0.1:10911");
    EXPECT_FALSE(changed(stored));
    EXPECT_TRUE(changed(DataVersion{stored.timestamp + 1000, stored.counter, 0}));
    EXPECT_TRUE(changed(DataVersion{stored.timestamp, stored.counter + 1, 0}));
    EXPECT_TRUE(changed(std::nullopt));
  }
}

// RouteInfoManagerNewTest#isTopicConfigChanged
TEST(TopicRegistration, IsTopicConfigChanged) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const BrokerInfo broker = BrokerInfo::master();
  const auto changed = [&](const std::string& topic) {
    return ns.rim.is_topic_config_changed(broker.cluster_name, broker.broker_addr,
                                          broker.data_version, broker.broker_name, topic);
  };
  EXPECT_TRUE(changed("TestTopic"));
  ns.rim.register_broker(broker.request({"TestTopic"}, {1}), kT0);
  EXPECT_FALSE(changed("TestTopic"));
  EXPECT_TRUE(changed("TestTopic1"));
}

// 5.x: a broker whose id is not yet in its group may not register exactly one topic (Java
// returns null: "register broker failed"). What happened before the check stays.
TEST(TopicRegistration, FirstRegistrationWithOneTopicIsRejectedIn5x) {
  Namesrv ns(Profile::kV5);
  RegisterBrokerRequest request = BrokerInfo::master().request_with({topic_config("T")}, {1});
  request.zone_name = "zone-a";
  EXPECT_FALSE(ns.rim.register_broker(request, kT0).has_value());

  EXPECT_EQ(ns.rim.cluster_addr_table().at("Default_Cluster"),
            (std::set<std::string>{"Default_Broker"}));
  const BrokerData& broker_data = ns.rim.broker_addr_table().at("Default_Broker");
  EXPECT_TRUE(broker_data.broker_addrs.empty());
  EXPECT_TRUE(broker_data.enable_acting_master);
  EXPECT_EQ(broker_data.zone_name, "zone-a");
  EXPECT_TRUE(ns.rim.broker_live_table().empty());
  EXPECT_TRUE(ns.rim.topic_queue_table().empty());
}

// The same-address removal runs before the guard: the address loses its old id and gets none.
TEST(TopicRegistration, RejectedSingleTopicRegistrationKeepsTheSameAddressRemoval) {
  Namesrv ns(Profile::kV5);
  const BrokerInfo slave = BrokerInfo::slave().acting_master(false);
  ns.rim.register_broker(slave.request({"T"}, {1}), kT0);
  EXPECT_FALSE(
      ns.rim.register_broker(slave.id(0).request_with({topic_config("T")}, {1}), kT0).has_value());
  EXPECT_TRUE(ns.rim.broker_addr_table().at("Default_Broker").broker_addrs.empty());
  EXPECT_TRUE(testing::has_live_entry(ns.rim, "Default_Cluster", slave.broker_addr));
}

// An incremental one-topic registration from a known id is accepted (the guard's intent).
TEST(TopicRegistration, OneTopicFromAKnownIdIsAccepted) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    auto result = ns.rim.register_broker(
        BrokerInfo::master().next_version(kT0).request_with({topic_config("New")}, {1}), kT0);
    EXPECT_TRUE(result.has_value());
    EXPECT_TRUE(has_topic(ns.rim, "New"));
    EXPECT_TRUE(has_topic(ns.rim, "T"));
  }
}

// 4.9 has no guard; 5.x's guard counts exactly one topic, so an empty table passes.
TEST(TopicRegistration, GuardAppliesOnlyTo5xAndExactlyOneTopic) {
  Namesrv v4(Profile::kV4_9);
  EXPECT_TRUE(
      v4.rim.register_broker(BrokerInfo::master().request_with({topic_config("T")}, {1}), kT0)
          .has_value());
  EXPECT_TRUE(has_topic(v4.rim, "T"));

  Namesrv v5(Profile::kV5);
  EXPECT_TRUE(v5.rim.register_broker(BrokerInfo::master().request_with({}, {1}), kT0).has_value());
  EXPECT_TRUE(testing::has_live_entry(v5.rim, "Default_Cluster", "127.0.0.1:10911"));
}

// 4.9 writes topics from a master only, whatever the DataVersion says.
TEST(TopicRegistration, SlaveTopicsAreIgnoredIn4x) {
  Namesrv ns(Profile::kV4_9);
  ns.rim.register_broker(BrokerInfo::slave().request({"S"}, {2}), kT0);
  EXPECT_TRUE(ns.rim.topic_queue_table().empty());
  EXPECT_EQ(ns.rim.broker_addr_table().at("Default_Broker").broker_addrs.size(), 1u);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().next_version(kT0).request({"S"}, {2}), kT0);
  EXPECT_FALSE(has_topic(ns.rim, "S"));
}

}  // namespace
}  // namespace nssim::core

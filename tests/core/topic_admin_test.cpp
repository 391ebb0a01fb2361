// Administrative mutations of RouteInfoManager: write-permission wipe and restore, both forms of
// deleteTopic, and 5.x's registerTopic. Ported from upstream's RouteInfoManagerBrokerPermTest,
// RouteInfoManagerTest, RouteInfoManagerNewTest and RouteInfoManagerStaticRegisterTest.
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
using testing::topic_config;

// Upstream swaps topicQueueTable for one holding a single QueueData of `broker_name` with `perm`;
// here the broker registers that topic plus one more, which is then deleted.
void register_single_topic(RouteInfoManager& rim, const std::string& broker_name,
                           const std::string& topic, int perm) {
  rim.register_broker(
      BrokerInfo::master()
          .name(broker_name)
          .request_with({topic_config(topic, 8, perm), topic_config("scratch")}, {1}),
      kT0);
  rim.delete_topic("scratch");
}

// RouteInfoManagerBrokerPermTest#testAddWritePermOfBrokerByLock
TEST(TopicAdmin, AddWritePermOfBrokerByLock) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    register_single_topic(ns.rim, "broker-0", "topic-0", perm::kRead);
    EXPECT_EQ(ns.rim.add_write_perm_of_broker_by_lock("broker-0"), 1);
    EXPECT_EQ(perm_of(ns.rim, "topic-0", "broker-0"), perm::kRead | perm::kWrite);
  }
}

// RouteInfoManagerBrokerPermTest#testWipeWritePermOfBrokerByLock
TEST(TopicAdmin, WipeWritePermOfReadOnlyBroker) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    register_single_topic(ns.rim, "broker-0", "topic-0", perm::kRead);
    EXPECT_EQ(ns.rim.wipe_write_perm_of_broker_by_lock("broker-0"), 1);
    EXPECT_EQ(perm_of(ns.rim, "topic-0", "broker-0"), perm::kRead);
  }
}

// RouteInfoManagerTest#testWipeWritePermOfBrokerByLock
TEST(TopicAdmin, WipeWritePermOfBrokerByLock) {
  Namesrv ns(Profile::kV5);
  register_single_topic(ns.rim, "broker-a", "topic-a", perm::kRead | perm::kWrite);
  EXPECT_EQ(ns.rim.wipe_write_perm_of_broker_by_lock("broker-a"), 1);
  EXPECT_EQ(perm_of(ns.rim, "topic-a", "broker-a"), perm::kRead);
}

// RouteInfoManagerTest#testAddWritePermOfBrokerByLock
TEST(TopicAdmin, AddWritePermOfReadOnlyBroker) {
  Namesrv ns(Profile::kV5);
  register_single_topic(ns.rim, "broker-a", "topic-a", perm::kRead);
  EXPECT_EQ(ns.rim.add_write_perm_of_broker_by_lock("broker-a"), 1);
  EXPECT_EQ(perm_of(ns.rim, "topic-a", "broker-a"), perm::kRead | perm::kWrite);
}

// RouteInfoManagerNewTest#wipeWritePermOfBrokerByLock
TEST(TopicAdmin, WipedBrokerShowsReadOnlyInTheRoute) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
  EXPECT_EQ(ns.rim.pickup_topic_route_data("TestTopic")->queue_datas.at(0).perm, 6);
  ns.rim.wipe_write_perm_of_broker_by_lock("Default_Broker");
  EXPECT_EQ(ns.rim.pickup_topic_route_data("TestTopic")->queue_datas.at(0).perm, 4);
}

// Wipe clears WRITE and keeps every other bit; add sets READ|WRITE and drops INHERIT and
// PRIORITY. Both count the broker's topics and leave other brokers alone.
TEST(TopicAdmin, WipeClearsOnlyWriteAndAddDropsInheritAndPriority) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const std::vector<int> perms = {4, 5, 6, 7, 13, 15};
    std::vector<TopicConfig> topics;
    for (int p : perms) topics.push_back(topic_config("P" + std::to_string(p), 8, p));
    ns.rim.register_broker(BrokerInfo::master().request_with(topics, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().name("Other").request_with(topics, {2}), kT0);

    EXPECT_EQ(ns.rim.wipe_write_perm_of_broker_by_lock("Default_Broker"), 6);
    for (int p : perms) {
      EXPECT_EQ(perm_of(ns.rim, "P" + std::to_string(p), "Default_Broker"), p & ~perm::kWrite);
      EXPECT_EQ(perm_of(ns.rim, "P" + std::to_string(p), "Other"), p);
    }
    EXPECT_EQ(ns.rim.add_write_perm_of_broker_by_lock("Other"), 6);
    for (int p : perms) EXPECT_EQ(perm_of(ns.rim, "P" + std::to_string(p), "Other"), 6);
    EXPECT_EQ(ns.rim.wipe_write_perm_of_broker_by_lock("No_Such_Broker"), 0);
    EXPECT_EQ(ns.rim.add_write_perm_of_broker_by_lock("No_Such_Broker"), 0);
  }
}

// Neither is persisted, but only a registration that rewrites the QueueData (a new DataVersion)
// puts the broker's own perm back.
TEST(TopicAdmin, WipeLastsUntilTheDataVersionChanges) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    ns.rim.wipe_write_perm_of_broker_by_lock("Default_Broker");
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0 + 30000);
    EXPECT_EQ(perm_of(ns.rim, "T", "Default_Broker"), perm::kRead);
    ns.rim.register_broker(BrokerInfo::master().next_version(kT0).request({"T"}, {1}), kT0 + 60000);
    EXPECT_EQ(perm_of(ns.rim, "T", "Default_Broker"), perm::kRead | perm::kWrite);
  }
}

// RouteInfoManagerNewTest#deleteTopic
TEST(TopicAdmin, DeleteTopic) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
    ns.rim.delete_topic("TestTopic");
    EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));

    // A changed DataVersion brings it back in 4.9 too.
    ns.rim.register_broker(BrokerInfo::master().next_version(kT0).request({"TestTopic"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master()
                               .cluster("AnotherCluster")
                               .name("AnotherBroker")
                               .request({"TestTopic"}, {2}),
                           kT0);
    EXPECT_EQ(ns.rim.pickup_topic_route_data("TestTopic")->broker_datas.size(), 2u);
    ns.rim.delete_topic("TestTopic", "Default_Cluster");
    auto route = ns.rim.pickup_topic_route_data("TestTopic");
    ASSERT_EQ(route->broker_datas.size(), 1u);
    EXPECT_EQ(route->broker_datas[0].broker_name, "AnotherBroker");
  }
}

// RouteInfoManagerStaticRegisterTest#testDeleteTopic
TEST(TopicAdmin, DeleteTopicOfARegisteredCluster) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    testing::register_cluster(ns.rim, {}, kT0);
    ns.rim.delete_topic("topic-0");
    EXPECT_FALSE(has_topic(ns.rim, "topic-0"));
    EXPECT_TRUE(has_topic(ns.rim, "topic-1"));
  }
}

// deleteTopic(topic, cluster): an unknown cluster or topic is a no-op; the topic goes once its
// last group is removed.
TEST(TopicAdmin, DeleteTopicOfACluster) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().cluster("C1").name("A").request({"T"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().cluster("C2").name("B").request({"T"}, {2}), kT0);
    ns.rim.delete_topic("T", "No_Such_Cluster");
    ns.rim.delete_topic("No_Such_Topic", "C1");
    EXPECT_EQ(ns.rim.topic_queue_table().at("T").size(), 2u);

    ns.rim.delete_topic("T", "C1");
    EXPECT_FALSE(perm_of(ns.rim, "T", "A").has_value());
    EXPECT_TRUE(perm_of(ns.rim, "T", "B").has_value());
    ns.rim.delete_topic("T", "C2");
    EXPECT_EQ(ns.rim.topic_queue_table().count("T"), 0u);
    EXPECT_TRUE(has_topic(ns.rim, "baseTopic"));
  }
}

// RouteInfoManagerNewTest#registerSingleTopicWithBrokerRegistration
TEST(TopicAdmin, RegisterSingleTopicWithBrokerRegistration) {
  NamesrvConfig config = testing::acting_master_config();
  config.delete_topic_with_broker_registration = true;
  Namesrv ns(Profile::kV5, config);
  const BrokerInfo master = BrokerInfo::master();
  const auto register_single_topic = [&ns, &master](const std::string& topic) {
    ns.rim.register_topic(topic, {QueueData{master.broker_name, 8, 8, 6, 0}});
  };
  register_single_topic("TestTopic");  // no such broker yet: ignored
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));

  ns.rim.register_broker(master.request({"TestTopic"}, {1}), kT0);
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic"));
  register_single_topic("TestTopic1");
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic1"));

  ns.rim.register_broker(master.request({"TestTopic", "TestTopic1"}, {1}), kT0);
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic"));
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic1"));

  ns.rim.register_broker(master.request({"TestTopic"}, {1}), kT0);
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic"));
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic1"));

  register_single_topic("TestTopic1");
  EXPECT_TRUE(has_topic(ns.rim, "TestTopic1"));
  ns.rim.unregister_broker(master.unregister_request(), RemovalPath::kUnregisterRequest);
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic1"));
}

// Java 5.x: registerTopic returns at the first QueueData of an unknown group: into an existing
// topic the ones before it are kept, a new topic is not created at all; an empty list is ignored.
TEST(TopicAdmin, RegisterTopicStopsAtAnUnknownGroup) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().name("A").request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::master().name("B").request({"T"}, {2}), kT0);
  ns.rim.register_topic("T", {QueueData{"A", 1, 1, 2, 0}, QueueData{"Unknown", 1, 1, 6, 0},
                              QueueData{"B", 1, 1, 2, 0}});
  EXPECT_EQ(ns.rim.topic_queue_table().at("T").at("A"), (QueueData{"A", 1, 1, 2, 0}));
  EXPECT_EQ(perm_of(ns.rim, "T", "B"), 6);

  ns.rim.register_topic("New", {QueueData{"A", 1, 1, 6, 0}, QueueData{"Unknown", 1, 1, 6, 0}});
  EXPECT_FALSE(has_topic(ns.rim, "New"));
  ns.rim.register_topic("New", {});
  EXPECT_FALSE(has_topic(ns.rim, "New"));
  ns.rim.register_topic("New", {QueueData{"A", 1, 1, 6, 0}, QueueData{"B", 2, 2, 6, 0}});
  EXPECT_EQ(ns.rim.topic_queue_table().at("New").size(), 2u);
}

}  // namespace
}  // namespace nssim::core

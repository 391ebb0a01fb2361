// RouteInfoManager#onChannelDestroy, reached through BrokerHousekeepingService when a connection
// closes, fails or idles: 4.9 removes at once (falling back to the peer address), 5.x looks the
// broker up by connection and queues an unregistration. Ported from upstream's
// BrokerHousekeepingServiceTest and RouteInfoManagerNewTest.
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

std::map<std::int64_t, std::string> route_addrs(const RouteInfoManager& rim,
                                                const std::string& topic) {
  return rim.pickup_topic_route_data(topic)->broker_datas.at(0).broker_addrs;
}

// Destroys `channel` and, in 5.x, runs the batch it queued.
void destroy(RouteInfoManager& rim, ConnectionId channel, const std::string& remote_addr = "") {
  rim.on_channel_destroy(channel, remote_addr, RemovalPath::kChannelClose);
  rim.process_pending_unregistrations();
}

// A connection no broker registered on (a client, the housekeeping test's null channel) leaves
// every table as it was, whichever BrokerHousekeepingService event reported it.
void expect_foreign_connection_is_harmless(RemovalPath path) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    testing::register_cluster(ns.rim, {}, kT0);
    const auto live_before = ns.rim.broker_live_table().size();
    EXPECT_TRUE(ns.rim.on_channel_destroy(ConnectionId{999}, "127.0.0.1:9876", path).empty());
    EXPECT_EQ(ns.rim.pending_unregistrations(), 0u);
    EXPECT_EQ(ns.rim.broker_live_table().size(), live_before);
    EXPECT_EQ(ns.rim.topic_queue_table().size(), 10u);
  }
}

// BrokerHousekeepingServiceTest#testOnChannelClose
TEST(BrokerHousekeeping, OnChannelClose) {
  expect_foreign_connection_is_harmless(RemovalPath::kChannelClose);
}

// BrokerHousekeepingServiceTest#testOnChannelException
TEST(BrokerHousekeeping, OnChannelException) {
  expect_foreign_connection_is_harmless(RemovalPath::kChannelException);
}

// BrokerHousekeepingServiceTest#testOnChannelIdle (upstream calls onChannelException there)
TEST(BrokerHousekeeping, OnChannelIdle) {
  expect_foreign_connection_is_harmless(RemovalPath::kChannelIdle);
}

// RouteInfoManagerNewTest#onChannelDestroy
TEST(ChannelDestroy, OnChannelDestroy) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    ns.rim.register_broker(BrokerInfo::master().request({"TestTopic", "TestTopic1"}, {1}), kT0);
    destroy(ns.rim, {1});
    EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));
    EXPECT_FALSE(has_topic(ns.rim, "TestTopic1"));

    const BrokerInfo master = BrokerInfo::master().acting_master(false);
    const BrokerInfo slave = BrokerInfo::slave().acting_master(false);
    ns.rim.register_broker(master.request({"TestTopic"}, {2}), kT0);
    ns.rim.register_broker(slave.request({"TestTopic"}, {3}), kT0);
    EXPECT_EQ(
        route_addrs(ns.rim, "TestTopic"),
        (std::map<std::int64_t, std::string>{{0, master.broker_addr}, {1, slave.broker_addr}}));
    destroy(ns.rim, {2});
    EXPECT_EQ(route_addrs(ns.rim, "TestTopic"),
              (std::map<std::int64_t, std::string>{{1, slave.broker_addr}}));
    destroy(ns.rim, {3});
    EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));
  }
}

// RouteInfoManagerNewTest#onChannelDestroyByBrokerInfo: the (cluster, address) variant, which
// the 5.x scan calls for an expired broker.
TEST(ChannelDestroy, OnChannelDestroyByBrokerInfo) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic", "TestTopic1"}, {1}), kT0);
  ns.rim.scan_not_active_broker(kT0 + testing::kExpiry + 1);
  EXPECT_EQ(ns.rim.pending_unregistrations(), 1u);
  ns.rim.process_pending_unregistrations();
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic1"));
}

// RouteInfoManagerNewTest#switchBrokerRole_ChannelDestroy
TEST(ChannelDestroy, SwitchBrokerRoleAfterChannelDestroy) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile, testing::acting_master_config());
    BrokerInfo master = BrokerInfo::master().acting_master(false);
    BrokerInfo slave = BrokerInfo::slave().acting_master(false);
    ns.rim.register_broker(master.request({"TestTopic"}, {1}), kT0);
    ns.rim.register_broker(slave.request({"TestTopic"}, {2}), kT0);

    destroy(ns.rim, {1});
    EXPECT_EQ(route_addrs(ns.rim, "TestTopic"),
              (std::map<std::int64_t, std::string>{{1, slave.broker_addr}}));

    slave = slave.id(0).next_version(kT0 + 1);
    ns.rim.register_broker(slave.request({"TestTopic"}, {2}), kT0 + 1);
    EXPECT_EQ(route_addrs(ns.rim, "TestTopic"),
              (std::map<std::int64_t, std::string>{{0, slave.broker_addr}}));

    master = master.id(1).next_version(kT0 + 2);
    ns.rim.register_broker(master.request({"TestTopic"}, {3}), kT0 + 2);
    EXPECT_EQ(
        route_addrs(ns.rim, "TestTopic"),
        (std::map<std::int64_t, std::string>{{0, slave.broker_addr}, {1, master.broker_addr}}));
  }
}

// 4.9: a connection that matches no live entry falls back to the peer address; a broker
// listening there is removed. 5.x looks up by connection only.
TEST(ChannelDestroy, PeerAddressFallbackOnlyIn4x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    auto removals =
        ns.rim.on_channel_destroy(ConnectionId{42}, "127.0.0.1:10911", RemovalPath::kChannelClose);
    EXPECT_EQ(ns.rim.pending_unregistrations(), 0u);
    EXPECT_EQ(has_topic(ns.rim, "T"), profile == Profile::kV5);
    EXPECT_EQ(removals.size(), profile == Profile::kV4_9 ? 1u : 0u);
  }
}

// A connection replaced by a later registration on a new one is stale: closing it removes
// nothing (the peer address is the broker's ephemeral port, not its listening one).
TEST(ChannelDestroy, StaleConnectionRemovesNothing) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {2}), kT0 + 30000);
    EXPECT_TRUE(
        ns.rim.on_channel_destroy({1}, "127.0.0.1:54321", RemovalPath::kChannelClose).empty());
    EXPECT_EQ(ns.rim.pending_unregistrations(), 0u);
    EXPECT_TRUE(testing::has_live_entry(ns.rim, "Default_Cluster", "127.0.0.1:10911"));
    EXPECT_TRUE(has_topic(ns.rim, "T"));
  }
}

// 4.9 reports what it removed, with the cluster found in clusterAddrTable and the path given.
TEST(ChannelDestroy, RemovalReportIn4x) {
  Namesrv ns(Profile::kV4_9);
  RegisterBrokerRequest request = BrokerInfo::master().request({"T"}, {1});
  request.filter_server_list = FilterServerList{"fs:1"};
  ns.rim.register_broker(request, kT0);
  auto removals = ns.rim.on_channel_destroy({1}, "", RemovalPath::kChannelIdle);
  ASSERT_EQ(removals.size(), 1u);
  EXPECT_EQ(removals[0].cluster_name, "Default_Cluster");
  EXPECT_EQ(removals[0].broker_name, "Default_Broker");
  EXPECT_EQ(removals[0].broker_addr, "127.0.0.1:10911");
  EXPECT_EQ(removals[0].path, RemovalPath::kChannelIdle);
  EXPECT_TRUE(removals[0].removed_live_entry);
  EXPECT_TRUE(removals[0].removed_addr_entry);
  EXPECT_TRUE(removals[0].removed_broker_name);
  EXPECT_TRUE(ns.rim.filter_server_table().empty());
  EXPECT_TRUE(ns.rim.cluster_addr_table().empty());
}

// 5.x: the lookup finds the connection's broker and queues its unregistration, nothing more.
TEST(ChannelDestroy, QueuesTheBrokersUnregistrationIn5x) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
  EXPECT_TRUE(ns.rim.on_channel_destroy({2}, "", RemovalPath::kChannelException).empty());
  EXPECT_EQ(ns.rim.pending_unregistrations(), 1u);
  EXPECT_EQ(ns.rim.broker_addr_table().at("Default_Broker").broker_addrs.size(), 2u);

  auto removals = ns.rim.process_pending_unregistrations();
  ASSERT_EQ(removals.size(), 1u);
  EXPECT_EQ(removals[0].broker_addr, "127.0.0.1:30911");
  EXPECT_EQ(removals[0].broker_name, "Default_Broker");
  EXPECT_EQ(removals[0].path, RemovalPath::kChannelException);
  EXPECT_TRUE(removals[0].removed_addr_entry);
  EXPECT_FALSE(removals[0].removed_broker_name);
}

}  // namespace
}  // namespace nssim::core

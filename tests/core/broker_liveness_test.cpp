// RouteInfoManager#scanNotActiveBroker: the exact expiry boundary (last + timeout < now, strict),
// what refreshes it, and what a scan does: 4.9 removes at once, 5.x only queues unregistrations.
// Time is advanced by passing now_ms; nothing sleeps.
#include <gtest/gtest.h>

#include "nameserver_core/route_info_manager.h"
#include "support/cluster_builder.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::has_topic;
using testing::kBothProfiles;
using testing::kExpiry;
using testing::kT0;
using testing::Namesrv;

// The removals of a scan at `now_ms`: inline in 4.9, after draining the queue in 5.x.
std::vector<BrokerRemoval> scan_and_drain(RouteInfoManager& rim, std::int64_t now_ms) {
  ScanResult result = rim.scan_not_active_broker(now_ms);
  if (rim.profile() == Profile::kV4_9) return result.removals;
  EXPECT_TRUE(result.removals.empty());
  return rim.process_pending_unregistrations();
}

TEST(BrokerLiveness, ExpiryBoundaryIsStrict) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {7}), kT0);
    for (std::int64_t now : {kT0 + kExpiry - 1, kT0 + kExpiry}) {
      ScanResult kept = ns.rim.scan_not_active_broker(now);
      EXPECT_TRUE(kept.expired.empty()) << now;
      EXPECT_TRUE(kept.channels_to_close.empty()) << now;
      EXPECT_EQ(ns.rim.pending_unregistrations(), 0u);
    }
    ScanResult expired = ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
    ASSERT_EQ(expired.expired.size(), 1u);
    EXPECT_EQ(expired.expired[0].broker_addr, "127.0.0.1:10911");
    EXPECT_EQ(expired.channels_to_close, (std::vector<ConnectionId>{{7}}));
    if (profile == Profile::kV4_9) {
      ASSERT_EQ(expired.removals.size(), 1u);
      EXPECT_EQ(expired.removals[0].path, RemovalPath::kScanExpiry);
      EXPECT_TRUE(expired.removals[0].removed_live_entry);
      EXPECT_TRUE(expired.removals[0].removed_broker_name);
      EXPECT_FALSE(has_topic(ns.rim, "T"));
    } else {
      EXPECT_TRUE(expired.removals.empty());
      EXPECT_EQ(ns.rim.pending_unregistrations(), 1u);
      EXPECT_TRUE(has_topic(ns.rim, "T"));  // liveness never filters routes
      auto removals = ns.rim.process_pending_unregistrations();
      ASSERT_EQ(removals.size(), 1u);
      EXPECT_EQ(removals[0].path, RemovalPath::kScanExpiry);
      EXPECT_FALSE(has_topic(ns.rim, "T"));
    }
  }
}

// 5.x: heartbeatTimeoutMillis from the registration replaces 120 s for that broker only.
TEST(BrokerLiveness, PerBrokerHeartbeatTimeoutIn5x) {
  Namesrv ns(Profile::kV5);
  RegisterBrokerRequest master = BrokerInfo::master().request({"T"}, {1});
  master.heartbeat_timeout_millis = 10000;
  ns.rim.register_broker(master, kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);

  EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + 10000).expired.empty());
  ScanResult result = ns.rim.scan_not_active_broker(kT0 + 10001);
  ASSERT_EQ(result.expired.size(), 1u);
  EXPECT_EQ(result.expired[0].broker_addr, "127.0.0.1:10911");
  EXPECT_EQ(ns.rim.pending_unregistrations(), 1u);
}

TEST(BrokerLiveness, HeartbeatTimeoutIsIgnoredIn4x) {
  Namesrv ns(Profile::kV4_9);
  RegisterBrokerRequest master = BrokerInfo::master().request({"T"}, {1});
  master.heartbeat_timeout_millis = 10000;
  ns.rim.register_broker(master, kT0);
  EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + 10001).expired.empty());
  EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + kExpiry).expired.empty());
  EXPECT_EQ(ns.rim.scan_not_active_broker(kT0 + kExpiry + 1).expired.size(), 1u);
}

// Java: updateBrokerInfoUpdateTimestamp (QUERY_DATA_VERSION, 5.x BROKER_HEARTBEAT) moves the
// boundary to the refresh time.
TEST(BrokerLiveness, TimestampRefreshMovesTheBoundary) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    ns.rim.update_broker_info_update_timestamp("Default_Cluster", "127.0.0.1:10911", kT0 + 100000);
    EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + kExpiry + 1).expired.empty());
    EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + 100000 + kExpiry).expired.empty());
    EXPECT_EQ(scan_and_drain(ns.rim, kT0 + 100000 + kExpiry + 1).size(), 1u);
  }
}

TEST(BrokerLiveness, ReRegistrationMovesTheBoundary) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0 + 30000);
    EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + 30000 + kExpiry).expired.empty());
    EXPECT_EQ(scan_and_drain(ns.rim, kT0 + 30000 + kExpiry + 1).size(), 1u);
  }
}

// A refresh for an address with no live entry creates none.
TEST(BrokerLiveness, RefreshOfAnUnknownBrokerIsIgnored) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.update_broker_info_update_timestamp("Default_Cluster", "127.0.0.1:10911", kT0);
    EXPECT_TRUE(ns.rim.broker_live_table().empty());
  }
}

// RouteInfoManagerBrokerRegisterTest#testScanNotActiveBroker (4.9.8; commented out in 5.3.3)
TEST(BrokerLiveness, ScanRemovesEachBrokerSetNotActive) {
  Namesrv ns(Profile::kV4_9);
  const auto cluster = testing::register_cluster(ns.rim, {}, kT0);
  for (const auto& [name, broker_data] : cluster.broker_data_map) {
    for (const auto& [id, addr] : broker_data.broker_addrs) {
      ns.rim.update_broker_info_update_timestamp("cluster", addr, 0);  // set not active
      ScanResult result = ns.rim.scan_not_active_broker(kT0);
      ASSERT_EQ(result.expired.size(), 1u);
      EXPECT_EQ(result.expired[0].broker_addr, addr);
      EXPECT_EQ(result.channels_to_close, (std::vector<ConnectionId>{cluster.channels.at(addr)}));
    }
  }
  EXPECT_TRUE(ns.rim.broker_live_table().empty());
  EXPECT_TRUE(ns.rim.broker_addr_table().empty());
  EXPECT_TRUE(ns.rim.topic_queue_table().empty());
}

// RouteInfoManagerNewTest#scanNotActiveBroker (its 30 s sleep becomes a 30001 ms step)
TEST(BrokerLiveness, ScanNotActiveBrokerWithExpiredTime) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
  EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0).expired.empty());

  RegisterBrokerRequest request = BrokerInfo::master().request({"TestTopic"}, {1});
  request.heartbeat_timeout_millis = 30000;
  ns.rim.register_broker(request, kT0);
  EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + 30000).expired.empty());
  EXPECT_EQ(ns.rim.scan_not_active_broker(kT0 + 30001).expired.size(), 1u);
  EXPECT_EQ(ns.rim.process_pending_unregistrations().size(), 1u);
  EXPECT_FALSE(has_topic(ns.rim, "TestTopic"));
}

// 5.x: every scan queues again until the batch runs; the duplicate finds nothing left.
TEST(BrokerLiveness, RepeatedScansQueueAgainIn5x) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
  ns.rim.scan_not_active_broker(kT0 + kExpiry + 5001);
  EXPECT_EQ(ns.rim.pending_unregistrations(), 2u);
  auto removals = ns.rim.process_pending_unregistrations();
  ASSERT_EQ(removals.size(), 2u);
  EXPECT_TRUE(removals[0].removed_broker_name);
  EXPECT_FALSE(removals[1].removed_live_entry);
  EXPECT_FALSE(removals[1].removed_addr_entry);
  EXPECT_TRUE(ns.rim.broker_live_table().empty());
}

// 5.x: a scan's submissions are offers; once the queue is full the rest are dropped.
TEST(BrokerLiveness, ScanDropsUnregistrationsWhenTheQueueIsFull) {
  NamesrvConfig config;
  config.un_register_broker_queue_capacity = 1;
  Namesrv ns(Profile::kV5, config);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
  ScanResult result = ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
  EXPECT_EQ(result.expired.size(), 2u);
  EXPECT_EQ(ns.rim.pending_unregistrations(), 1u);
  ns.rim.process_pending_unregistrations();
  EXPECT_EQ(ns.rim.broker_live_table().size(), 1u);
}

// 5.x: an expired address that no group lists (its id went to another address) queues nothing;
// its live entry stays and every later scan closes its channel again.
TEST(BrokerLiveness, ExpiredAddressListedByNoGroupStaysLiveIn5x) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::master().addr("10.0.0.2:1").request({"T"}, {2}), kT0 + 60000);
  for (std::int64_t now : {kT0 + kExpiry + 1, kT0 + kExpiry + 5001}) {
    ScanResult result = ns.rim.scan_not_active_broker(now);
    ASSERT_EQ(result.expired.size(), 1u);
    EXPECT_EQ(result.expired[0].broker_addr, "127.0.0.1:10911");
    EXPECT_EQ(result.channels_to_close, (std::vector<ConnectionId>{{1}}));
    EXPECT_EQ(ns.rim.pending_unregistrations(), 0u);
  }
  EXPECT_TRUE(testing::has_live_entry(ns.rim, "Default_Cluster", "127.0.0.1:10911"));
}

// 5.x race (upstream, kept): a registration arriving between the scan's submit and the batch is
// removed by the batch.
TEST(BrokerLiveness, QueuedExpiryRemovesAFreshRegistrationIn5x) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {2}), kT0 + kExpiry + 2);
  ns.rim.process_pending_unregistrations();
  EXPECT_TRUE(ns.rim.broker_live_table().empty());
  EXPECT_FALSE(has_topic(ns.rim, "T"));
}

// A master that expires leaves its slave and the group's topics; 5.x in acting-master mode also
// drops the write bit, since no master remains.
TEST(BrokerLiveness, ExpiredMasterLeavesItsSlaveAndTopics) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0 + 60000);
    EXPECT_EQ(scan_and_drain(ns.rim, kT0 + kExpiry + 1).size(), 1u);
    EXPECT_EQ(ns.rim.broker_addr_table().at("Default_Broker").broker_addrs,
              (std::map<std::int64_t, std::string>{{1, "127.0.0.1:30911"}}));
    EXPECT_EQ(testing::perm_of(ns.rim, "T", "Default_Broker"),
              profile == Profile::kV4_9 ? 6 : perm::kRead);
  }
}

// 5.x keys liveness by (cluster, address): the same address in two clusters expires per cluster.
TEST(BrokerLiveness, SameAddressExpiresPerClusterIn5x) {
  Namesrv ns(Profile::kV5);
  const BrokerInfo in_c1 = BrokerInfo::master().cluster("C1").name("B1");
  const BrokerInfo in_c2 = BrokerInfo::master().cluster("C2").name("B2");
  ns.rim.register_broker(in_c1.request({"T1"}, {1}), kT0);
  ns.rim.register_broker(in_c2.request({"T2"}, {1}), kT0 + 60000);
  ScanResult result = ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
  ASSERT_EQ(result.expired.size(), 1u);
  EXPECT_EQ(result.expired[0], (BrokerAddrInfo{"C1", in_c1.broker_addr}));
  ns.rim.process_pending_unregistrations();
  EXPECT_FALSE(has_topic(ns.rim, "T1"));
  EXPECT_TRUE(has_topic(ns.rim, "T2"));
  EXPECT_TRUE(testing::has_live_entry(ns.rim, "C2", in_c2.broker_addr));
}

}  // namespace
}  // namespace nssim::core

// The orders RouteInfoManager's indexes must keep so that expiry and channel events find what
// Java's table walks find: the first live entry on a channel in table order, the first group
// listing an address, expired entries in table order whatever their deadlines, and indexes that
// follow re-registrations and removals.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "nameserver_core/route_info_manager.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::kBothProfiles;
using testing::kExpiry;
using testing::kT0;
using testing::Namesrv;

const BrokerInfo kGroupA = BrokerInfo::master().name("group-a").addr("10.0.0.1:10911");
const BrokerInfo kGroupB = BrokerInfo::master().name("group-b").addr("10.0.0.2:10911");

std::vector<std::string> addrs_of_keys(const std::vector<BrokerAddrInfo>& keys) {
  std::vector<std::string> addrs;
  for (const auto& key : keys) addrs.push_back(key.broker_addr);
  return addrs;
}

std::vector<std::string> queued_groups(RouteInfoManager& rim) {
  std::vector<std::string> names;
  for (const auto& removal : rim.process_pending_unregistrations()) {
    names.push_back(removal.broker_name);
  }
  return names;
}

// Two live entries on one channel, registered in reverse table order: Java's walk meets the
// first in table order, and so does the channel index.
TEST(RouteIndexes, ChannelDestroyTakesTheFirstLiveEntryOnTheChannelInTableOrder) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(kGroupB.request({"T"}, {5}), kT0);
    ns.rim.register_broker(kGroupA.request({"T"}, {5}), kT0);
    auto first = ns.rim.on_channel_destroy({5}, "", RemovalPath::kChannelClose);
    if (profile == Profile::kV4_9) {
      ASSERT_EQ(first.size(), 1u);
      EXPECT_EQ(first[0].broker_name, "group-a");
    } else {
      EXPECT_EQ(queued_groups(ns.rim), (std::vector<std::string>{"group-a"}));
    }
    EXPECT_EQ(ns.rim.broker_addr_table().count("group-a"), 0u);
    EXPECT_EQ(ns.rim.broker_addr_table().count("group-b"), 1u);
    ns.rim.on_channel_destroy({5}, "", RemovalPath::kChannelClose);
    if (profile == Profile::kV5) queued_groups(ns.rim);
    EXPECT_TRUE(ns.rim.broker_addr_table().empty());
  }
}

// A broker that re-registers over a new connection leaves the old one: closing it finds nothing.
TEST(RouteIndexes, ReRegistrationMovesTheBrokerToItsNewChannel) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(kGroupA.request({"T"}, {1}), kT0);
    ns.rim.register_broker(kGroupA.request({"T"}, {2}), kT0 + 30000);
    EXPECT_TRUE(ns.rim.on_channel_destroy({1}, "", RemovalPath::kChannelClose).empty());
    EXPECT_EQ(ns.rim.pending_unregistrations(), 0u);
    ns.rim.on_channel_destroy({2}, "", RemovalPath::kChannelClose);
    ns.rim.process_pending_unregistrations();
    EXPECT_TRUE(ns.rim.broker_addr_table().empty());
    EXPECT_TRUE(ns.rim.broker_live_table().empty());
  }
}

// One address listed by two groups (a broker renamed without unregistering): the walk stops at
// the first group in table order, so only that group loses it.
TEST(RouteIndexes, AnAddressInTwoGroupsLeavesTheFirstGroupInTableOrder) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo renamed_to_b = kGroupA.name("group-b");
    ns.rim.register_broker(renamed_to_b.request({"T"}, {1}), kT0);
    ns.rim.register_broker(kGroupA.request({"T"}, {1}), kT0);
    std::vector<std::string> removed;
    if (profile == Profile::kV4_9) {
      for (const auto& removal : ns.rim.on_channel_destroy({1}, "", RemovalPath::kChannelClose)) {
        removed.push_back(removal.broker_name);
      }
    } else {
      ns.rim.on_channel_destroy({1}, "", RemovalPath::kChannelClose);
      removed = queued_groups(ns.rim);
    }
    EXPECT_EQ(removed, (std::vector<std::string>{"group-a"}));
    EXPECT_EQ(ns.rim.broker_addr_table().count("group-a"), 0u);
    ASSERT_EQ(ns.rim.broker_addr_table().count("group-b"), 1u);
    EXPECT_EQ(ns.rim.broker_addr_table().at("group-b").broker_addrs.at(kMasterId),
              kGroupA.broker_addr);
    // The index moved on: the address now names group-b.
    ns.rim.register_broker(renamed_to_b.request({"T"}, {3}), kT0 + 1);
    ns.rim.on_channel_destroy({3}, "", RemovalPath::kChannelClose);
    ns.rim.process_pending_unregistrations();
    EXPECT_TRUE(ns.rim.broker_addr_table().empty());
  }
}

// Expired entries come out in table order, not in the order of their deadlines.
TEST(RouteIndexes, ScanReportsExpiredBrokersInTableOrder) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(kGroupB.request({"T"}, {2}), kT0);
    ns.rim.register_broker(kGroupA.request({"T"}, {1}), kT0 + 1000);
    const ScanResult one = ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
    EXPECT_EQ(addrs_of_keys(one.expired), (std::vector<std::string>{kGroupB.broker_addr}));
    if (profile == Profile::kV5) ns.rim.process_pending_unregistrations();
    ns.rim.register_broker(kGroupB.request({"T"}, {2}), kT0 + 500);
    const ScanResult both = ns.rim.scan_not_active_broker(kT0 + 1000 + kExpiry + 1);
    EXPECT_EQ(addrs_of_keys(both.expired),
              (std::vector<std::string>{kGroupA.broker_addr, kGroupB.broker_addr}));
    EXPECT_EQ(both.channels_to_close, (std::vector<ConnectionId>{{1}, {2}}));
  }
}

// 4.9: an expired entry's channel lookup removes another entry on the same channel (Java's
// onChannelDestroy(remoteAddr, channel) prefers the channel's entry). That entry, expired too, is
// not met again, and the first entry's address stays in its group, as in the table walk.
TEST(RouteIndexes, FourNineExpiryOnASharedChannelRemovesTheOtherEntry) {
  Namesrv ns(Profile::kV4_9);
  ns.rim.register_broker(kGroupA.request({"T"}, {7}), kT0);
  ns.rim.register_broker(kGroupB.request({"T"}, {7}), kT0);
  const ScanResult result = ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
  EXPECT_EQ(addrs_of_keys(result.expired), (std::vector<std::string>{kGroupA.broker_addr}));
  EXPECT_TRUE(ns.rim.broker_live_table().empty());
  EXPECT_EQ(ns.rim.broker_addr_table().count("group-a"), 1u);
  EXPECT_EQ(ns.rim.broker_addr_table().count("group-b"), 0u);
  const auto route = ns.rim.pickup_topic_route_data("T");
  ASSERT_NE(route, nullptr);
  ASSERT_EQ(route->broker_datas.size(), 1u);
  EXPECT_EQ(route->broker_datas[0].broker_name, "group-a");
  EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + 10 * kExpiry).expired.empty());
}

// 5.x: a broker that re-registers between the scan and the drain is still removed (the queued
// request names its address), and the deadline index forgets it with its live entry.
TEST(RouteIndexes, FiveXReRegistrationBetweenScanAndDrainIsRemovedAndForgotten) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(kGroupA.request({"T"}, {1}), kT0);
  ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
  ns.rim.register_broker(kGroupA.request({"T"}, {2}), kT0 + kExpiry + 2);
  EXPECT_EQ(queued_groups(ns.rim), (std::vector<std::string>{"group-a"}));
  EXPECT_TRUE(ns.rim.broker_live_table().empty());
  EXPECT_TRUE(ns.rim.scan_not_active_broker(kT0 + 10 * kExpiry).expired.empty());
  EXPECT_TRUE(ns.rim.on_channel_destroy({2}, "", RemovalPath::kChannelClose).empty());
  EXPECT_EQ(ns.rim.pending_unregistrations(), 0u);
  ns.rim.register_broker(kGroupA.request({"T"}, {3}), kT0 + 10 * kExpiry);
  EXPECT_EQ(addrs_of_keys(ns.rim.scan_not_active_broker(kT0 + 11 * kExpiry + 1).expired),
            (std::vector<std::string>{kGroupA.broker_addr}));
}

// The 4.9 channel walk also drops every empty group it passes. No 4.9 operation leaves a group
// empty, which is why the address index may skip groups not listing the address: this checks the
// invariant after each kind of 4.9 write.
TEST(RouteIndexes, NoFourNineOperationLeavesAnEmptyGroup) {
  Namesrv ns(Profile::kV4_9);
  const auto expect_no_empty_group = [&](const char* step) {
    for (const auto& [name, data] : ns.rim.broker_addr_table()) {
      EXPECT_FALSE(data.broker_addrs.empty()) << step << ": " << name;
    }
  };
  const BrokerInfo slave = kGroupA.id(1).addr("10.0.0.9:10911");
  ns.rim.register_broker(kGroupA.request({"T"}, {1}), kT0);
  ns.rim.register_broker(slave.request({"T"}, {2}), kT0);
  ns.rim.register_broker(slave.id(2).request({"T"}, {2}), kT0);  // same address, new id
  expect_no_empty_group("re-registration under another id");
  ns.rim.register_broker(kGroupA.id(1).request({"T"}, {1}), kT0);  // the master moves to id 1
  expect_no_empty_group("master moved");
  ns.rim.unregister_broker(kGroupA.unregister_request(), RemovalPath::kUnregisterRequest);
  expect_no_empty_group("unregister by a stale id");
  ns.rim.on_channel_destroy({2}, "", RemovalPath::kChannelClose);
  expect_no_empty_group("channel destroy");
  ns.rim.register_broker(kGroupB.request({"T"}, {3}), kT0);
  ns.rim.scan_not_active_broker(kT0 + kExpiry + 1);
  expect_no_empty_group("scan");
}

}  // namespace
}  // namespace nssim::core

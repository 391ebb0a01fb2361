// The broker's client tables (sim/broker/client_tables.h) against upstream's rules: the strict
// expiry of ProducerManager/ConsumerManager#scanNotActiveChannel, the housekeeping scan's grid,
// doChannelCloseEvent, and ClientManageProcessor#heartBeat's registrations.
#include <gtest/gtest.h>

#include "sim/broker/client_tables.h"

namespace nssim::sim {
namespace {

HeartbeatData producer_heartbeat(const std::string& client, const std::string& group) {
  return HeartbeatData{client, {}, {group, "CLIENT_INNER_PRODUCER"}};
}

TEST(BrokerClientTables, ScanKeepsAChannelUntilMoreThan120sPassedSinceItsLastHeartbeat) {
  const std::int64_t t = 40'000;
  for (const std::int64_t scan : {t + 119'999, t + 120'000}) {
    ProducerManager producers;
    producers.register_producer("g", 1, "c1", t);
    EXPECT_TRUE(producers.scan_not_active_channel(scan).empty()) << scan;
    EXPECT_EQ(producers.entry_count(), 1U);
  }
  ProducerManager producers;
  producers.register_producer("g", 1, "c1", t);
  const auto removed = producers.scan_not_active_channel(t + 120'001);
  ASSERT_EQ(removed.size(), 1U);
  EXPECT_EQ(removed[0].group, "g");
  EXPECT_EQ(removed[0].channel, 1U);
  EXPECT_EQ(removed[0].info.last_update_ms, t);
  EXPECT_EQ(producers.entry_count(), 0U);
  EXPECT_TRUE(producers.group_channel_table().empty());
}

TEST(BrokerClientTables, AHeartbeatRefreshesTheEntryItFinds) {
  ProducerManager producers;
  producers.register_producer("g", 1, "c1", 0);
  producers.register_producer("g", 1, "c1", 30'000);
  EXPECT_TRUE(producers.scan_not_active_channel(150'000).empty());
  EXPECT_EQ(producers.scan_not_active_channel(150'001).size(), 1U);
}

TEST(BrokerClientTables, TheScanRunsTenSecondsAfterTheStartThenEveryTenSeconds) {
  EXPECT_EQ(housekeeping_scan_at(5'003, 0), 15'003);
  EXPECT_EQ(housekeeping_scan_at(5'003, 1), 25'003);
  EXPECT_EQ(housekeeping_scan_at(5'003, 12), 135'003);
}

TEST(BrokerClientTables, AChannelCloseRemovesTheChannelFromEveryGroupAndNothingElse) {
  BrokerClientTables tables;
  tables.heart_beat(producer_heartbeat("c1", "g"), 1, 0);
  tables.heart_beat(producer_heartbeat("c2", "g"), 2, 0);
  const auto removed = tables.on_channel_close(1);
  ASSERT_EQ(removed.size(), 2U);  // g and CLIENT_INNER_PRODUCER
  EXPECT_EQ(removed[0].group, "CLIENT_INNER_PRODUCER");
  EXPECT_EQ(removed[1].group, "g");
  EXPECT_EQ(tables.producers.entry_count(), 2U);
  EXPECT_TRUE(tables.on_channel_close(1).empty());
}

TEST(BrokerClientTables, ConsumerRegistrationSaysWhetherTheChannelIsNew) {
  ConsumerManager consumers;
  EXPECT_TRUE(consumers.register_consumer("cg", 1, "c1", 0));
  EXPECT_FALSE(consumers.register_consumer("cg", 1, "c1", 30'000));
  EXPECT_TRUE(consumers.register_consumer("cg", 2, "c2", 30'000));
  EXPECT_TRUE(consumers.scan_not_active_channel(150'000).empty());
  EXPECT_EQ(consumers.scan_not_active_channel(150'001).size(), 2U);
  EXPECT_EQ(consumers.entry_count(), 0U);
}

TEST(BrokerClientTables, AHeartbeatRegistersEveryGroupItCarries) {
  BrokerClientTables tables;
  tables.heart_beat(HeartbeatData{"c1", {"cg"}, {"g", "CLIENT_INNER_PRODUCER"}}, 7, 1'000);
  EXPECT_EQ(tables.producers.entry_count(), 2U);
  EXPECT_EQ(tables.consumers.entry_count(), 1U);
  EXPECT_EQ(tables.scan_exception_channel(121'001).size(), 2U);
  EXPECT_EQ(tables.consumers.entry_count(), 0U);
}

}  // namespace
}  // namespace nssim::sim

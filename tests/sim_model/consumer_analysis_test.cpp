// result.json's consumers block (sim/analysis/consumer_analysis.h) on hand-made records: stalls
// with their 1 s threshold at its boundary, duplicates, never-delivered messages, ownership gaps.
#include "sim/analysis/consumer_analysis.h"

#include <gtest/gtest.h>

namespace nssim::sim {
namespace {

struct Fixture {
  Scenario scenario;
  StoredMessages stored;
  ConsumerRecord record;

  explicit Fixture(const std::vector<std::int64_t>& store_times) {
    ConsumerSpec spec;
    spec.group = "g";
    spec.topics = {"T"};
    scenario.consumers = {spec};
    for (const std::int64_t t : store_times) stored.add("broker-a", "T", 0, t);
    stored.finish();
    record.queues = {{"g", QueueKey{"broker-a", "T", 0}}};
    record.consumers = {{"consumer-0", "g", "c0", 0, 100000}, {"consumer-1", "g", "c1", 0, 100000}};
  }
  void deliver(std::int64_t offset, std::int64_t at_ms, std::uint32_t consumer = 0) {
    record.deliveries.push_back(
        {0, consumer, offset, stored.queues().begin()->second.stored_ms(offset), at_ms});
  }
  nlohmann::json group() const {
    return consumers_json(scenario, record, stored, 100000)["groups"][0];
  }
};

// A message waits from its store on; the stall starts once it is 1 s old and ends at the next
// delivery. 1999 ms of waiting is a 999 ms backlog: no stall; 2000 ms is exactly 1 s: one.
TEST(ConsumerAnalysis, StallNeedsOneSecondOfBacklogWithoutDelivery) {
  for (const std::int64_t wait : {1999, 2000, 2001}) {
    Fixture f({10000});
    f.deliver(0, 10000 + wait);
    const auto group = f.group();
    if (wait < 2000) {
      EXPECT_EQ(group["stall_ms"]["count"], 0) << wait;
    } else {
      EXPECT_EQ(group["stall_ms"]["count"], 1) << wait;
      EXPECT_EQ(group["stall_ms"]["max"], wait - 1000) << wait;
      EXPECT_EQ(group["longest_stalls"][0]["from_ms"], 11000);
      EXPECT_EQ(group["longest_stalls"][0]["queue"], "broker-a/T/0");
    }
    EXPECT_EQ(group["latency_ms"]["max"], wait);
  }
}

// A redelivered offset counts once as delivered and once as a duplicate; an undelivered one
// stalls until the run's end.
TEST(ConsumerAnalysis, DuplicatesAndNeverDeliveredMessages) {
  Fixture f({1000, 2000, 3000});
  f.deliver(0, 1005);
  f.deliver(1, 2005);
  f.deliver(1, 2500, 1);
  const auto group = f.group();
  EXPECT_EQ(group["stored"], 3);
  EXPECT_EQ(group["delivered"], 2);
  EXPECT_EQ(group["never_delivered"], 1);
  EXPECT_EQ(group["deliveries"], 3);
  EXPECT_EQ(group["duplicates"], 1);
  EXPECT_EQ(group["duplicate_offsets"], 1);
  EXPECT_EQ(group["stall_ms"]["max"], 100000 - 4000);
  EXPECT_EQ(group["latency_ms"]["never"], 1);
}

// Owners over [first ownership, end): a gap between two owners, and an overlap.
TEST(ConsumerAnalysis, NoOwnerAndTwoOwnersTime) {
  Fixture f({});
  f.record.ownerships = {{0, 0, 1000, 40000}, {0, 1, 45000, 100000}, {0, 0, 60000, 62000}};
  const auto group = f.group();
  EXPECT_EQ(group["owned_from_ms"], 1000);
  EXPECT_EQ(group["no_owner_ms"]["total"], 5000);
  EXPECT_EQ(group["two_owners_ms"]["total"], 2000);
}

}  // namespace
}  // namespace nssim::sim

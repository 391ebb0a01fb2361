// LatencyFaultToleranceImpl and MQFaultStrategy per profile: durations from latencies, 4.9's
// overwrite versus 5.x's extend-only isolation, and queue selection with latency fault tolerance
// off and on.
#include <gtest/gtest.h>

#include <string>

#include "route_fixtures.h"
#include "sim/client/latency_fault_tolerance.h"
#include "sim/client/mq_fault_strategy.h"

namespace nssim::sim {
namespace {

using testing::route_of;

constexpr std::int64_t kT = 1'000'000;

TopicPublishInfo two_groups() {
  return topic_route_data_to_topic_publish_info(route_of({{"broker-a", 2}, {"broker-b", 2}}));
}

// One thread's values: its sendWhichQueue from `start`, and no whichItemWorst yet.
struct OneThread {
  explicit OneThread(std::int32_t start) : send_which_queue(start) {}
  ThreadLocalIndex send_which_queue;
  std::optional<ThreadLocalIndex> which_item_worst;
  ThreadIndexes indexes() { return ThreadIndexes{send_which_queue, which_item_worst}; }
};

TEST(FaultStrategy, NotAvailableDurationFollowsEachProfilesThresholds) {
  const MqFaultStrategy v4(core::Profile::kV4_9, true, false);
  EXPECT_EQ(v4.compute_not_available_duration(0), 0);
  EXPECT_EQ(v4.compute_not_available_duration(549), 0);
  EXPECT_EQ(v4.compute_not_available_duration(550), 30000);
  EXPECT_EQ(v4.compute_not_available_duration(3000), 180000);
  EXPECT_EQ(v4.compute_not_available_duration(30000), 600000);  // 4.9's isolation latency
  const MqFaultStrategy v5(core::Profile::kV5, true, false);
  EXPECT_EQ(v5.compute_not_available_duration(1799), 2000);
  EXPECT_EQ(v5.compute_not_available_duration(1800), 5000);
  EXPECT_EQ(v5.compute_not_available_duration(3001), 6000);
  EXPECT_EQ(v5.compute_not_available_duration(10000), 10000);  // 5.x's isolation latency
  EXPECT_EQ(v5.compute_not_available_duration(15000), 30000);
}

TEST(FaultStrategy, V49IsolationLasts600Seconds) {
  MqFaultStrategy s(core::Profile::kV4_9, true, false);
  s.update_fault_item("broker-b", 3001, /*isolation=*/true, /*reachable=*/true, kT);
  const auto& lft = s.latency_fault_tolerance();
  EXPECT_FALSE(lft.is_available("broker-b", kT + 599'999));
  EXPECT_TRUE(lft.is_available("broker-b", kT + 600'000));
  EXPECT_TRUE(lft.is_available("broker-a", kT));
}

TEST(FaultStrategy, V49FastSuccessOverwritesTheIsolation) {
  MqFaultStrategy s(core::Profile::kV4_9, true, false);
  s.update_fault_item("broker-b", 3001, true, true, kT);
  s.update_fault_item("broker-b", 3, false, true, kT + 10);
  EXPECT_TRUE(s.latency_fault_tolerance().is_available("broker-b", kT + 10));
}

TEST(FaultStrategy, V5IsolationLasts10SecondsAndIsOnlyExtended) {
  MqFaultStrategy s(core::Profile::kV5, true, false);
  s.update_fault_item("broker-b", 3001, true, true, kT);
  const auto& lft = s.latency_fault_tolerance();
  EXPECT_FALSE(lft.is_available("broker-b", kT + 9'999));
  EXPECT_TRUE(lft.is_available("broker-b", kT + 10'000));
  s.update_fault_item("broker-b", 3, false, true, kT + 10);  // a fast success changes nothing
  EXPECT_FALSE(lft.is_available("broker-b", kT + 9'999));
  s.update_fault_item("broker-b", 3001, true, true, kT + 5'000);  // re-armed
  EXPECT_FALSE(lft.is_available("broker-b", kT + 14'999));
  EXPECT_TRUE(lft.is_available("broker-b", kT + 15'000));
}

TEST(FaultStrategy, V5ReachableFlagFollowsTheLastUpdate) {
  MqFaultStrategy s(core::Profile::kV5, true, true);
  s.update_fault_item("broker-b", 3001, true, /*reachable=*/false, kT);
  EXPECT_FALSE(s.latency_fault_tolerance().is_reachable("broker-b"));
  EXPECT_TRUE(s.latency_fault_tolerance().is_reachable("broker-a"));
  s.update_fault_item("broker-b", 3, false, /*reachable=*/true, kT + 1);
  EXPECT_TRUE(s.latency_fault_tolerance().is_reachable("broker-b"));
  LatencyFaultTolerance v4(core::Profile::kV4_9);
  v4.update_fault_item("broker-b", 1, 0, /*reachable=*/false, kT);
  EXPECT_TRUE(v4.is_reachable("broker-b"));
}

TEST(FaultStrategy, DisabledFaultToleranceRecordsNothing) {
  MqFaultStrategy s(core::Profile::kV4_9, false, false);
  s.update_fault_item("broker-b", 3001, true, true, kT);
  EXPECT_TRUE(s.latency_fault_tolerance().items().empty());
}

TEST(FaultStrategy, LatencyOffPicksAreTheSameInBothProfiles) {
  for (auto profile : {core::Profile::kV4_9, core::Profile::kV5}) {
    MqFaultStrategy s(profile, false, false);
    const auto info = two_groups();
    OneThread caller(5);
    Rng rng(1);
    // 6 -> broker-b/0 on a first attempt; a retry after broker-b skips to 8 -> broker-a/0.
    EXPECT_EQ(s.select_one_message_queue(info, caller.indexes(), std::nullopt, false, kT, rng),
              (MessageQueue{"broker-b", 0}));
    EXPECT_EQ(
        s.select_one_message_queue(info, caller.indexes(), std::string("broker-b"), true, kT, rng),
        (MessageQueue{"broker-a", 0}));
    EXPECT_EQ(caller.send_which_queue.value(), 8);
  }
}

TEST(FaultStrategy, V49LatencyOnSkipsUnavailableAndIgnoresLastBroker) {
  MqFaultStrategy s(core::Profile::kV4_9, true, false);
  const auto info = two_groups();
  OneThread caller(1);  // next index 2 -> broker-b/0
  Rng rng(1);
  EXPECT_EQ(
      s.select_one_message_queue(info, caller.indexes(), std::string("broker-b"), false, kT, rng),
      (MessageQueue{"broker-b", 0}));
  s.update_fault_item("broker-b", 3001, true, true, kT);
  const auto again = two_groups();
  OneThread caller_again(1);
  // Index 2 (broker-b/0) and 3 (broker-b/1) are skipped locally; 4 -> broker-a/0. The shared
  // index moved by one only.
  EXPECT_EQ(s.select_one_message_queue(again, caller_again.indexes(), std::nullopt, false, kT, rng),
            (MessageQueue{"broker-a", 0}));
  EXPECT_EQ(caller_again.send_which_queue.value(), 2);
}

TEST(FaultStrategy, V49LatencyOnWithEveryBrokerIsolatedPicksOneAtLeast) {
  MqFaultStrategy s(core::Profile::kV4_9, true, false);
  s.update_fault_item("broker-a", 3001, true, true, kT);
  s.update_fault_item("broker-b", 100, false, true, kT);  // 100 ms: 0 ms isolation, but later
  s.update_fault_item("broker-b", 600, false, true, kT);  // 600 ms: 30 s
  const auto info = two_groups();
  OneThread caller(0);
  Rng rng(1);
  const MessageQueue mq =
      s.select_one_message_queue(info, caller.indexes(), std::nullopt, false, kT, rng);
  // Two items, half = 1: the better one (lower latency: broker-b), queue id from the index.
  EXPECT_EQ(mq.broker_name, "broker-b");
  // First loop: index 1; plain pick: 2; queue id: 3 % 2.
  EXPECT_EQ(mq.queue_id, 1);
  EXPECT_EQ(caller.send_which_queue.value(), 3);
}

TEST(FaultStrategy, V49PickOneAtLeastOfABrokerOutsideTheRouteIsForgotten) {
  MqFaultStrategy s(core::Profile::kV4_9, true, false);
  const auto info = topic_route_data_to_topic_publish_info(route_of({{"broker-a", 2}}));
  OneThread caller(0);
  s.update_fault_item("broker-a", 3001, true, true, kT);
  s.update_fault_item("broker-z", 1, false, true, kT);  // available, best, but not in the route
  s.update_fault_item("broker-z", 600, false, true, kT);
  Rng rng(1);
  const MessageQueue mq =
      s.select_one_message_queue(info, caller.indexes(), std::nullopt, false, kT, rng);
  EXPECT_EQ(mq.broker_name, "broker-a");
  EXPECT_FALSE(s.latency_fault_tolerance().items().contains("broker-z"));
}

TEST(FaultStrategy, V5LatencyOnAvoidsUnavailableAndLastBroker) {
  MqFaultStrategy s(core::Profile::kV5, true, false);
  s.update_fault_item("broker-b", 3001, true, true, kT);
  const auto info = two_groups();
  OneThread caller(1);
  Rng rng(1);
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(s.select_one_message_queue(info, caller.indexes(), std::nullopt, false, kT, rng)
                  .broker_name,
              "broker-a");
  }
  // A retry after broker-a: only broker-b is not last, and it is unavailable but reachable.
  EXPECT_EQ(
      s.select_one_message_queue(info, caller.indexes(), std::string("broker-a"), true, kT, rng)
          .broker_name,
      "broker-b");
}

TEST(FaultStrategy, V5UnreachableAndUnavailableFallsBackToAPlainPick) {
  MqFaultStrategy s(core::Profile::kV5, true, true);
  s.update_fault_item("broker-a", 3001, true, /*reachable=*/false, kT);
  const auto info = topic_route_data_to_topic_publish_info(route_of({{"broker-a", 2}}));
  OneThread caller(0);
  Rng rng(1);
  EXPECT_EQ(
      s.select_one_message_queue(info, caller.indexes(), std::nullopt, false, kT, rng).broker_name,
      "broker-a");
  EXPECT_EQ(caller.send_which_queue.value(), 5);  // 2 + 2 filtered tries, then the plain pick
}

TEST(FaultStrategy, V5RetryResetsTheIndexFromTheRng) {
  MqFaultStrategy s(core::Profile::kV5, true, false);
  const auto info = two_groups();
  OneThread caller(1);
  Rng rng(42);
  Rng expected(42);
  ThreadLocalIndex reference(0);
  reference.reset(expected);
  s.select_one_message_queue(info, caller.indexes(), std::string("broker-a"), /*reset_index=*/true,
                             kT, rng);
  // Reset, then one increment that passes (or more until a broker-b queue comes).
  EXPECT_GT(caller.send_which_queue.value(), reference.value());
  EXPECT_LE(caller.send_which_queue.value(), static_cast<std::int64_t>(reference.value()) + 4);
}

TEST(FaultStrategy, PickOneAtLeastPrefersAvailableThenLowLatency) {
  LatencyFaultTolerance lft(core::Profile::kV4_9);
  lft.update_fault_item("broker-a", 50, 60000, true, kT);  // unavailable
  lft.update_fault_item("broker-b", 900, 0, true, kT);     // available, slow
  lft.update_fault_item("broker-c", 10, 0, true, kT);      // available, fast
  lft.update_fault_item("broker-d", 20, 0, true, kT);      // available
  Rng rng(5);
  std::optional<ThreadLocalIndex> worst;
  std::set<std::string> picked;
  for (int i = 0; i < 16; ++i) picked.insert(*lft.pick_one_at_least(kT, worst, rng));
  EXPECT_EQ(picked, (std::set<std::string>{"broker-c", "broker-d"}));  // the better half
  LatencyFaultTolerance empty(core::Profile::kV4_9);
  EXPECT_FALSE(empty.pick_one_at_least(kT, worst, rng));
}

}  // namespace
}  // namespace nssim::sim

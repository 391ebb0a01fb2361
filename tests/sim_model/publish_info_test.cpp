// TopicPublishInfo from routes (MQClientInstance#topicRouteData2TopicPublishInfo), the
// ThreadLocalIndex arithmetic, round-robin picks with last-broker avoidance, and the client's
// route-change test.
#include "sim/client/publish_info.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "route_fixtures.h"
#include "sim/nameserver/route_data_changed.h"

namespace nssim::sim {
namespace {

using testing::GroupSpec;
using testing::route_of;

std::vector<std::string> brokers_of(const TopicPublishInfo& info) {
  std::vector<std::string> out;
  for (const auto& mq : info.message_queue_list()) {
    out.push_back(mq.broker_name + "/" + std::to_string(mq.queue_id));
  }
  return out;
}

TEST(PublishInfo, QueuesFollowBrokerNameOrderAndWriteQueueNums) {
  const auto route = route_of({{"broker-b", 1}, {"broker-a", 2}});
  const auto info = topic_route_data_to_topic_publish_info(route);
  EXPECT_EQ(brokers_of(info), (std::vector<std::string>{"broker-a/0", "broker-a/1", "broker-b/0"}));
  EXPECT_TRUE(info.ok());
  EXPECT_FALSE(info.order_topic());
  EXPECT_EQ(info.brokers(), (std::set<std::string>{"broker-a", "broker-b"}));
}

TEST(PublishInfo, MasterlessGroupContributesNothing) {
  const auto route = route_of({{"broker-a", 4}, {"broker-b", 4, 6, /*has_master=*/false}});
  const auto info = topic_route_data_to_topic_publish_info(route);
  EXPECT_EQ(info.brokers(), (std::set<std::string>{"broker-a"}));
  EXPECT_EQ(info.message_queue_list().size(), 4u);
  const auto none =
      topic_route_data_to_topic_publish_info(route_of({{"broker-b", 4, 6, /*has_master=*/false}}));
  EXPECT_FALSE(none.ok());
}

TEST(PublishInfo, GroupWithoutWritePermContributesNothing) {
  const auto route = route_of({{"broker-a", 4, /*perm=*/4}, {"broker-b", 4, 6}});
  const auto info = topic_route_data_to_topic_publish_info(route);
  EXPECT_EQ(info.brokers(), (std::set<std::string>{"broker-b"}));
  EXPECT_EQ(info.get_queue_id_by_broker("broker-a"), -1);
  EXPECT_EQ(info.get_queue_id_by_broker("broker-b"), 4);
  EXPECT_EQ(info.get_queue_id_by_broker(std::nullopt), -1);
}

TEST(PublishInfo, QueueDataWithoutBrokerDataContributesNothing) {
  auto route = route_of({{"broker-a", 2}, {"broker-b", 2}});
  route.broker_datas.pop_back();
  const auto info = topic_route_data_to_topic_publish_info(route);
  EXPECT_EQ(info.brokers(), (std::set<std::string>{"broker-a"}));
}

TEST(PublishInfo, OrderTopicConfWinsAndIgnoresPermAndMasters) {
  auto route = route_of({{"broker-a", 4, /*perm=*/4, /*has_master=*/false}});
  route.order_topic_conf = "broker-b:2;broker-a:1;";
  const auto info = topic_route_data_to_topic_publish_info(route);
  EXPECT_TRUE(info.order_topic());
  EXPECT_EQ(brokers_of(info), (std::vector<std::string>{"broker-b/0", "broker-b/1", "broker-a/0"}));
}

TEST(PublishInfo, EmptyOrderTopicConfIsIgnoredAndMalformedEntriesSkipped) {
  auto route = route_of({{"broker-a", 1}});
  route.order_topic_conf = "";
  EXPECT_FALSE(topic_route_data_to_topic_publish_info(route).order_topic());
  route.order_topic_conf = "broker-x;broker-y:z;broker-z:1";
  const auto info = topic_route_data_to_topic_publish_info(route);
  EXPECT_EQ(brokers_of(info), (std::vector<std::string>{"broker-z/0"}));
}

TEST(ThreadLocalIndex, IncrementWrapsAndMasksLikeJava) {
  ThreadLocalIndex index(INT32_MAX);
  EXPECT_EQ(index.increment_and_get(), 0);  // MIN_VALUE & 0x7FFFFFFF
  EXPECT_EQ(index.value(), INT32_MIN);
  EXPECT_EQ(index.increment_and_get(), 1);
  ThreadLocalIndex negative(-5);
  EXPECT_EQ(negative.increment_and_get(), 0x7FFFFFFC);
}

TEST(ThreadLocalIndex, RandomStartFollowsTheProfile) {
  Rng rng4(11);
  Rng rng5(11);
  bool saw_negative_v5 = false;
  for (int i = 0; i < 64; ++i) {
    EXPECT_GE(ThreadLocalIndex::random(core::Profile::kV4_9, rng4).value(), 0);
    saw_negative_v5 |= ThreadLocalIndex::random(core::Profile::kV5, rng5).value() < 0;
  }
  EXPECT_TRUE(saw_negative_v5);
  ThreadLocalIndex index(-1);
  Rng rng(3);
  for (int i = 0; i < 64; ++i) {
    index.reset(rng);
    EXPECT_GE(index.value(), 0);
    EXPECT_LT(index.value(), INT32_MAX);
  }
}

TEST(ThreadLocalIndex, JavaAbsKeepsMinValue) {
  EXPECT_EQ(java_abs(INT32_MIN), INT32_MIN);
  EXPECT_EQ(java_abs(-7), 7);
  EXPECT_EQ(java_int_add(INT32_MAX, 1), INT32_MIN);
}

TEST(PublishInfo, RoundRobinSequenceFromASeededIndex) {
  auto info = topic_route_data_to_topic_publish_info(route_of({{"broker-a", 2}, {"broker-b", 2}}));
  ThreadLocalIndex index(5);
  std::vector<std::string> picks;
  for (int i = 0; i < 5; ++i) {
    const auto& mq = info.select_one_message_queue(index);
    picks.push_back(mq.broker_name + "/" + std::to_string(mq.queue_id));
  }
  // Indexes 6, 7, 8, 9, 10 over four queues.
  EXPECT_EQ(picks, (std::vector<std::string>{"broker-b/0", "broker-b/1", "broker-a/0", "broker-a/1",
                                             "broker-b/0"}));
}

TEST(PublishInfo, LastBrokerIsAvoidedWhileAnotherExists) {
  auto info = topic_route_data_to_topic_publish_info(route_of({{"broker-a", 2}, {"broker-b", 2}}));
  ThreadLocalIndex index(5);
  // Index 6 is broker-b/0, 7 broker-b/1, 8 broker-a/0: two picks skipped.
  const auto& mq = info.select_one_message_queue(index, std::optional<std::string>("broker-b"));
  EXPECT_EQ(mq.broker_name, "broker-a");
  EXPECT_EQ(mq.queue_id, 0);
  EXPECT_EQ(index.value(), 8);
}

TEST(PublishInfo, LastBrokerAloneFallsBackToAPlainPick) {
  auto info = topic_route_data_to_topic_publish_info(route_of({{"broker-a", 2}}));
  ThreadLocalIndex index(0);
  const auto& mq = info.select_one_message_queue(index, std::optional<std::string>("broker-a"));
  EXPECT_EQ(mq.broker_name, "broker-a");
  EXPECT_EQ(index.value(), 3);  // two tries, then the plain pick
}

TEST(PublishInfo, FilteredPickReturnsNullWhenNothingPasses) {
  auto info = topic_route_data_to_topic_publish_info(route_of({{"broker-a", 3}}));
  ThreadLocalIndex index(0);
  EXPECT_EQ(info.select_one_message_queue(index, [](const MessageQueue&) { return false; }),
            nullptr);
  EXPECT_EQ(index.value(), 3);
}

TEST(RouteChange, ReorderedListsAreNotAChange) {
  const auto route = route_of({{"broker-a", 4}, {"broker-b", 4}});
  auto reordered = route;
  std::swap(reordered.queue_datas[0], reordered.queue_datas[1]);
  std::swap(reordered.broker_datas[0], reordered.broker_datas[1]);
  for (auto profile : {core::Profile::kV4_9, core::Profile::kV5}) {
    EXPECT_FALSE(topic_route_data_changed(route, reordered, profile));
    EXPECT_TRUE(topic_route_data_changed(std::nullopt, route, profile));
  }
}

TEST(RouteChange, AddressesQueuesAndPermAreChangesButClusterIsNot) {
  const auto route = route_of({{"broker-a", 4}});
  auto other_cluster = route;
  other_cluster.broker_datas[0].cluster = "OtherCluster";  // BrokerData#equals ignores it
  EXPECT_FALSE(topic_route_data_changed(route, other_cluster, core::Profile::kV5));
  auto no_master = route;
  no_master.broker_datas[0].broker_addrs.erase(0);
  EXPECT_TRUE(topic_route_data_changed(route, no_master, core::Profile::kV5));
  auto wiped = route;
  wiped.queue_datas[0].perm = 4;
  EXPECT_TRUE(topic_route_data_changed(route, wiped, core::Profile::kV4_9));
  auto ordered = route;
  ordered.order_topic_conf = "broker-a:4";
  EXPECT_TRUE(topic_route_data_changed(route, ordered, core::Profile::kV4_9));
}

TEST(RouteChange, StaticTopicMappingCountsOnlyIn5x) {
  const auto route = route_of({{"broker-a", 4}});
  auto mapped = route;
  mapped.topic_queue_mapping_by_broker.emplace();
  (*mapped.topic_queue_mapping_by_broker)["broker-a"] =
      core::TopicQueueMappingInfo{"broker-a", "{}"};
  EXPECT_FALSE(topic_route_data_changed(route, mapped, core::Profile::kV4_9));
  EXPECT_TRUE(topic_route_data_changed(route, mapped, core::Profile::kV5));
}

}  // namespace
}  // namespace nssim::sim

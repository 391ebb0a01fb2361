// AllocateMessageQueueAveragely: contiguous shares of the sorted queues, the first `mod`
// consumers one queue more, nothing for a consumer the broker did not list or beyond the queues.
#include "sim/client/allocate_message_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

namespace nssim::sim {
namespace {

std::vector<MessageQueue> queues(int count, const std::string& broker = "broker-a") {
  std::vector<MessageQueue> all;
  for (int q = 0; q < count; ++q) all.push_back(MessageQueue{broker, q});
  return all;
}

std::vector<int> ids(const std::vector<MessageQueue>& share) {
  std::vector<int> out;
  for (const MessageQueue& mq : share) out.push_back(mq.queue_id);
  return out;
}

TEST(AllocateMessageQueueAveragely, EightQueuesOverThreeConsumersAreThreeThreeTwoInOrder) {
  const std::vector<std::string> cids{"c0", "c1", "c2"};
  EXPECT_EQ(ids(allocate_message_queue_averagely(queues(8), cids, "c0")),
            (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(ids(allocate_message_queue_averagely(queues(8), cids, "c1")),
            (std::vector<int>{3, 4, 5}));
  EXPECT_EQ(ids(allocate_message_queue_averagely(queues(8), cids, "c2")), (std::vector<int>{6, 7}));
}

TEST(AllocateMessageQueueAveragely, FewerQueuesThanConsumersLeavesTheLastOnesIdle) {
  const std::vector<std::string> cids{"c0", "c1", "c2"};
  EXPECT_EQ(ids(allocate_message_queue_averagely(queues(2), cids, "c0")), (std::vector<int>{0}));
  EXPECT_EQ(ids(allocate_message_queue_averagely(queues(2), cids, "c1")), (std::vector<int>{1}));
  EXPECT_TRUE(allocate_message_queue_averagely(queues(2), cids, "c2").empty());
}

TEST(AllocateMessageQueueAveragely, AConsumerTheBrokerDoesNotListTakesNothing) {
  EXPECT_TRUE(allocate_message_queue_averagely(queues(4), {"c0", "c1"}, "c9").empty());
}

TEST(AllocateMessageQueueAveragely, AClientListedTwiceCountsAtItsFirstPlace) {
  // Two channels of c0 (#7870): c0 takes index 0's share and the list's length counts both.
  const std::vector<std::string> cids{"c0", "c0", "c1"};
  EXPECT_EQ(ids(allocate_message_queue_averagely(queues(6), cids, "c0")), (std::vector<int>{0, 1}));
  EXPECT_EQ(ids(allocate_message_queue_averagely(queues(6), cids, "c1")), (std::vector<int>{4, 5}));
}

// Every split of n queues over m consumers covers each queue exactly once, in contiguous
// shares whose sizes differ by at most one.
TEST(AllocateMessageQueueAveragely, EverySplitCoversEachQueueOnce) {
  for (int n = 1; n <= 20; ++n) {
    for (int m = 1; m <= 12; ++m) {
      std::vector<std::string> cids;
      for (int c = 0; c < m; ++c) cids.push_back("c" + std::to_string(c + 10));
      std::vector<int> covered;
      std::size_t smallest = 1000;
      std::size_t largest = 0;
      for (const std::string& cid : cids) {
        const std::vector<int> share = ids(allocate_message_queue_averagely(queues(n), cids, cid));
        for (std::size_t i = 1; i < share.size(); ++i) ASSERT_EQ(share[i], share[i - 1] + 1);
        covered.insert(covered.end(), share.begin(), share.end());
        smallest = std::min(smallest, share.size());
        largest = std::max(largest, share.size());
      }
      std::vector<int> expected(static_cast<std::size_t>(n));
      for (int q = 0; q < n; ++q) expected[static_cast<std::size_t>(q)] = q;
      EXPECT_EQ(covered, expected) << n << " queues over " << m;
      EXPECT_LE(largest - smallest, 1U) << n << " queues over " << m;
    }
  }
}

TEST(AllocateMessageQueueAveragely, QueuesSortByBrokerNameThenQueueId) {
  std::vector<MessageQueue> mixed{{"broker-b", 0}, {"broker-a", 1}, {"broker-a", 0}};
  std::sort(mixed.begin(), mixed.end(), message_queue_less);
  EXPECT_EQ(mixed[0], (MessageQueue{"broker-a", 0}));
  EXPECT_EQ(mixed[1], (MessageQueue{"broker-a", 1}));
  EXPECT_EQ(mixed[2], (MessageQueue{"broker-b", 0}));
}

}  // namespace
}  // namespace nssim::sim

// ProcessQueue: the offset a consumed batch lets the consumer commit is the smallest offset still
// held, or one past the last one put once none is: consuming out of order never skips a message.
#include "sim/client/process_queue.h"

#include <gtest/gtest.h>

namespace nssim::sim {
namespace {

TEST(ProcessQueue, TheCommittableOffsetIsTheSmallestStillHeld) {
  ProcessQueue pq;
  EXPECT_EQ(pq.put_message({0, 1, 2, 3, 4}), 5U);
  EXPECT_EQ(pq.remove_message({0}), 1);
  EXPECT_EQ(pq.remove_message({2}), 1);  // 1 is still being consumed
  EXPECT_EQ(pq.remove_message({1}), 3);
  EXPECT_EQ(pq.remove_message({3, 4}), 5);  // empty: queueOffsetMax + 1
  EXPECT_EQ(pq.msg_count(), 0U);
}

TEST(ProcessQueue, NothingHeldGivesNoOffset) {
  ProcessQueue pq;
  EXPECT_EQ(pq.remove_message({7}), std::nullopt);
}

TEST(ProcessQueue, OffsetsAlreadyHeldAreNotAddedAgainNorMoveTheMax) {
  ProcessQueue pq;
  EXPECT_EQ(pq.put_message({10, 11}), 2U);
  EXPECT_EQ(pq.put_message({11, 12}), 1U);
  EXPECT_EQ(pq.msg_count(), 3U);
  EXPECT_EQ(pq.max_span(), 2);
  EXPECT_EQ(pq.put_message({11}), 0U);
  EXPECT_EQ(pq.remove_message({10, 11, 12}), 13);
}

TEST(ProcessQueue, PullsExpireAfterExactlyOneHundredTwentySecondsIdle) {
  ProcessQueue pq;
  pq.set_last_pull_ms(5000);
  EXPECT_FALSE(pq.pull_expired(5000 + 119999, kPullMaxIdleTimeMs));
  EXPECT_FALSE(pq.pull_expired(5000 + 120000, kPullMaxIdleTimeMs));
  EXPECT_TRUE(pq.pull_expired(5000 + 120001, kPullMaxIdleTimeMs));
}

}  // namespace
}  // namespace nssim::sim

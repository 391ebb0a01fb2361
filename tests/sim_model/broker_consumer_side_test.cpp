// A broker's consumer side: offsets committed, flushed and lost to a crash; the long-polling
// answer of a held pull (a message's arrival, or the hold service's 5 s checks); the consumer
// list a broker answers.
#include <gtest/gtest.h>

#include "sim/broker/client_tables.h"
#include "sim/broker/consumer_offset_manager.h"
#include "sim/broker/queue_messages.h"

namespace nssim::sim {
namespace {

const OffsetKey kQueue{"group-a", "TopicTest", 3};

TEST(ConsumerOffsetManager, ACrashLosesTheCommitsSinceTheLastFlush) {
  ConsumerOffsetManager offsets;
  EXPECT_EQ(offsets.query_offset(kQueue), std::nullopt);
  offsets.commit_offset(kQueue, 40);
  offsets.persist();
  offsets.commit_offset(kQueue, 75);
  offsets.commit_offset(kQueue, 70);  // a smaller commit is taken as it is
  EXPECT_EQ(offsets.query_offset(kQueue), 70);
  offsets.restart();
  EXPECT_EQ(offsets.query_offset(kQueue), 40);
}

TEST(ConsumerOffsetManager, FlushesTenSecondsAfterTheStartThenEveryFive) {
  EXPECT_EQ(consumer_offset_flush_at(2000, 0), 12000);
  EXPECT_EQ(consumer_offset_flush_at(2000, 1), 17000);
  EXPECT_EQ(consumer_offset_flush_at(2000, 10), 62000);
}

QueueMessages stored_at(std::initializer_list<std::int64_t> times) {
  QueueMessages queue;
  for (const std::int64_t t : times) queue.append(t);
  return queue;
}

TEST(QueueMessages, MaxOffsetCountsTheMessagesStoredByThen) {
  const QueueMessages queue = stored_at({100, 100, 250});
  EXPECT_EQ(queue.max_offset_at(99), 0);
  EXPECT_EQ(queue.max_offset_at(100), 2);
  EXPECT_EQ(queue.max_offset_at(249), 2);
  EXPECT_EQ(queue.max_offset_at(250), 3);
  EXPECT_EQ(queue.stored_ms(2), 250);
  EXPECT_EQ(queue.stored_ms(3), kNever);
}

TEST(HeldPull, AMastersArrivalAnswersAtOnce) {
  const QueueMessages queue = stored_at({1000, 7000});
  for (const core::Profile profile : {core::Profile::kV4_9, core::Profile::kV5}) {
    EXPECT_EQ(held_pull_answer_ms(queue, 1, 2000, 15000, hold_service(profile, false, 0)), 7000);
  }
}

TEST(HeldPull, AFourNineSlaveAnswersOnlyAtTheNextCheck) {
  const QueueMessages queue = stored_at({1000, 7000});
  EXPECT_EQ(held_pull_answer_ms(queue, 1, 2000, 15000, hold_service(core::Profile::kV4_9, true, 0)),
            10000);
  EXPECT_EQ(held_pull_answer_ms(queue, 1, 2000, 15000, hold_service(core::Profile::kV5, true, 0)),
            7000);
}

TEST(HeldPull, AnIdlePullReturnsAtTheFirstCheckPastItsTimeout) {
  const QueueMessages queue = stored_at({1000});
  const HoldService hold = hold_service(core::Profile::kV5, false, 0);
  // Checks every 5 s from the broker's start: a timeout falling on a check is answered by it,
  // one a millisecond later by the next, so an idle long poll lasts [15, 20) s.
  EXPECT_EQ(held_pull_answer_ms(queue, 1, 5000, 15000, hold), 20000);
  EXPECT_EQ(held_pull_answer_ms(queue, 1, 5001, 15000, hold), 25000);
  EXPECT_EQ(held_pull_answer_ms(queue, 1, 4999, 15000, hold), 20000);
  // The checks count from the incarnation's start.
  EXPECT_EQ(
      held_pull_answer_ms(queue, 1, 5000, 15000, hold_service(core::Profile::kV5, false, 1234)),
      21234);
}

TEST(ConsumerManager, ListsOneClientIdPerChannelOfTheGroup) {
  ConsumerManager consumers;
  EXPECT_TRUE(consumers.register_consumer("group-a", 2, "10.0.0.2@1", 0));
  EXPECT_TRUE(consumers.register_consumer("group-a", 1, "10.0.0.1@1", 0));
  EXPECT_TRUE(consumers.register_consumer("group-a", 3, "10.0.0.1@1", 0));  // a second channel
  EXPECT_FALSE(consumers.register_consumer("group-a", 2, "10.0.0.2@1", 5));
  EXPECT_EQ(consumers.all_client_ids("group-a"),
            (std::vector<std::string>{"10.0.0.1@1", "10.0.0.2@1", "10.0.0.1@1"}));
  EXPECT_EQ(consumers.channels_of("group-a"), (std::vector<BrokerChannel>{1, 2, 3}));
  EXPECT_TRUE(consumers.all_client_ids("group-b").empty());
  consumers.do_channel_close_event(1);
  EXPECT_EQ(consumers.all_client_ids("group-a"),
            (std::vector<std::string>{"10.0.0.2@1", "10.0.0.1@1"}));
}

}  // namespace
}  // namespace nssim::sim

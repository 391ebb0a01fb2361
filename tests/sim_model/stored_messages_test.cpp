// Every message the brokers stored, per queue in store order: one per stored attempt of every
// reported send, whatever order the producers report in, and nothing kept when no StoredMessages
// is given (a run without consumers).
#include "sim/record/stored_messages.h"

#include <gtest/gtest.h>

#include "sim/record/send_stats.h"

namespace nssim::sim {
namespace {

AttemptRecord stored_attempt(const char* broker, int queue_id, std::int64_t stored_ms) {
  AttemptRecord attempt;
  attempt.broker_name = broker;
  attempt.queue_id = queue_id;
  attempt.start_ms = stored_ms - 1;
  attempt.end_ms = stored_ms + 1;
  attempt.stored = true;
  attempt.stored_ms = stored_ms;
  return attempt;
}

AttemptRecord lost_attempt(const char* broker, int queue_id, std::int64_t start_ms) {
  AttemptRecord attempt;
  attempt.broker_name = broker;
  attempt.queue_id = queue_id;
  attempt.start_ms = start_ms;
  attempt.end_ms = start_ms + 3000;
  attempt.cause = SendCause::kRequestTimeout;
  return attempt;
}

SendRecord send(const char* topic, std::vector<AttemptRecord> attempts) {
  SendRecord record;
  record.topic = topic;
  record.start_ms = attempts.front().start_ms;
  record.end_ms = attempts.back().end_ms;
  record.attempts = std::move(attempts);
  return record;
}

TEST(StoredMessages, SortsEachQueueByStoreTime) {
  StoredMessages stored;
  stored.add("broker-a", "TopicTest", 1, 300);
  stored.add("broker-a", "TopicTest", 1, 100);
  stored.add("broker-b", "TopicTest", 1, 200);
  stored.add("broker-a", "TopicTest", 1, 100);
  EXPECT_TRUE(stored.queues().empty());  // built by finish()
  stored.finish();
  EXPECT_TRUE(stored.finished());
  EXPECT_EQ(stored.total(), 4);
  ASSERT_EQ(stored.queues().size(), 2u);
  const QueueMessages& a = stored.queues().at(QueueKey{"broker-a", "TopicTest", 1});
  ASSERT_EQ(a.size(), 3);
  EXPECT_EQ(a.stored_ms(0), 100);
  EXPECT_EQ(a.stored_ms(1), 100);
  EXPECT_EQ(a.stored_ms(2), 300);
  EXPECT_EQ(a.stored_ms(3), kNever);
  EXPECT_EQ(a.max_offset_at(99), 0);
  EXPECT_EQ(a.max_offset_at(100), 2);
  EXPECT_EQ(stored.queues().at(QueueKey{"broker-b", "TopicTest", 1}).size(), 1);
}

TEST(StoredMessages, QueuesAreOrderedByTopicThenBrokerThenQueue) {
  EXPECT_LT((QueueKey{"broker-b", "A", 3}), (QueueKey{"broker-a", "B", 0}));
  EXPECT_LT((QueueKey{"broker-a", "A", 3}), (QueueKey{"broker-b", "A", 0}));
  EXPECT_LT((QueueKey{"broker-a", "A", 0}), (QueueKey{"broker-a", "A", 1}));
  EXPECT_EQ((QueueKey{"broker-a", "A", 1}), (QueueKey{"broker-a", "A", 1}));
}

// Each stored attempt is one message: a retry after a stored but unanswered attempt stores the
// message twice, a lost attempt stores nothing, and the counts equal the sends' stored_copies.
TEST(StoredMessages, SendStatsKeepsEveryStoredAttemptOfEverySend) {
  StoredMessages stored;
  SendStats stats({});
  stats.keep_stored_messages(&stored);
  const std::vector<SendRecord> sends = {
      send("TopicTest", {stored_attempt("broker-a", 0, 1000)}),
      send("TopicTest", {lost_attempt("broker-a", 1, 1500), stored_attempt("broker-b", 1, 4600)}),
      send("TopicTest", {stored_attempt("broker-a", 0, 5000), stored_attempt("broker-b", 0, 8100)}),
      send("Audit", {lost_attempt("broker-a", 0, 2000)}),
  };
  // Two producers report out of each other's time order.
  auto& late = stats.observer_for("app-1", "app");
  auto& early = stats.observer_for("app-0", "app");
  late.on_send(sends[2]);
  early.on_send(sends[0]);
  early.on_send(sends[1]);
  late.on_send(sends[3]);
  stored.finish();
  std::int64_t copies = 0;
  for (const SendRecord& record : sends) copies += stored_copies(record);
  EXPECT_EQ(copies, 4);
  EXPECT_EQ(stored.total(), copies);
  std::int64_t in_queues = 0;
  for (const auto& [key, queue] : stored.queues()) {
    in_queues += queue.size();
    for (std::int64_t offset = 1; offset < queue.size(); ++offset) {
      EXPECT_LE(queue.stored_ms(offset - 1), queue.stored_ms(offset));
    }
  }
  EXPECT_EQ(in_queues, copies);
  ASSERT_EQ(stored.queues().size(), 3u);
  const QueueMessages& a0 = stored.queues().at(QueueKey{"broker-a", "TopicTest", 0});
  ASSERT_EQ(a0.size(), 2);
  EXPECT_EQ(a0.stored_ms(0), 1000);
  EXPECT_EQ(a0.stored_ms(1), 5000);
  EXPECT_EQ(stored.queues().count(QueueKey{"broker-a", "Audit", 0}), 0u);
}

TEST(StoredMessages, NothingIsKeptWithoutOne) {
  SendStats stats({});
  stats.observer_for("app-0", "app").on_send(send("TopicTest", {stored_attempt("broker-a", 0, 7)}));
  EXPECT_EQ(stats.totals().sends, 1);  // counted as ever, kept nowhere
}

}  // namespace
}  // namespace nssim::sim

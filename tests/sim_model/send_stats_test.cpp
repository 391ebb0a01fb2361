// What the run keeps of its sends, per broker group and per producer group: a retried send counts
// one attempt at each broker it tried, successes land in the second they started, and each
// producer's sends count for its own group only.
#include "sim/record/send_stats.h"

#include <gtest/gtest.h>

namespace nssim::sim {
namespace {

AttemptRecord attempt(const std::string& broker, std::int64_t start_ms, SendCause cause) {
  return {broker, start_ms, start_ms + 5, cause};
}

SendRecord send(std::vector<AttemptRecord> attempts, SendCause cause) {
  SendRecord record;
  record.topic = "TopicTest";
  record.start_ms = attempts.empty() ? 0 : attempts.front().start_ms;
  record.end_ms = attempts.empty() ? 0 : attempts.back().end_ms;
  record.cause = cause;
  record.attempts = std::move(attempts);
  return record;
}

TEST(SendStats, ARetriedSendCountsOneAttemptAtEachBroker) {
  SendStats stats({});
  auto& producer = stats.observer_for("app-0", "app");
  producer.on_send(send({attempt("broker-a", 1500, SendCause::kConnectRefused),
                         attempt("broker-b", 1600, SendCause::kOk)},
                        SendCause::kOk));
  producer.on_send(send({attempt("broker-b", 2100, SendCause::kOk)}, SendCause::kOk));
  const auto& a = stats.by_broker().at("broker-a");
  const auto& b = stats.by_broker().at("broker-b");
  EXPECT_EQ(a.attempts, 1);
  EXPECT_EQ(a.failed(), 1);
  EXPECT_EQ(a.by_cause[static_cast<std::size_t>(SendCause::kConnectRefused)], 1);
  EXPECT_TRUE(a.ok_per_second.empty());
  EXPECT_EQ(b.attempts, 2);
  EXPECT_EQ(b.failed(), 0);
  EXPECT_EQ(b.ok_per_second, (std::vector<std::int64_t>{0, 1, 1}));
  EXPECT_EQ(stats.totals().attempts, 3);
  EXPECT_EQ(stats.totals().retries_succeeded, 1);
}

TEST(SendStats, AttemptsWithoutABrokerAreCountedNowhere) {
  SendStats stats({});
  stats.observer_for("app-0", "app")
      .on_send(send({attempt("", 0, SendCause::kNoRoute)}, SendCause::kNoRoute));
  EXPECT_TRUE(stats.by_broker().empty());
  EXPECT_EQ(stats.totals().failed(), 1);
}

TEST(SendStats, EachProducerCountsForItsOwnGroup) {
  SendStats stats({});
  stats.observer_for("app-0", "app")
      .on_send(send({attempt("broker-a", 0, SendCause::kOk)}, SendCause::kOk));
  stats.observer_for("app-1", "app")
      .on_send(send({attempt("broker-a", 0, SendCause::kRequestTimeout)},
                    SendCause::kSendTimeoutBudget));
  stats.observer_for("batch-0", "batch")
      .on_send(send({attempt("broker-a", 0, SendCause::kOk)}, SendCause::kOk));
  EXPECT_EQ(stats.by_group().at("app").sends, 2);
  EXPECT_EQ(stats.by_group().at("app").failed(), 1);
  EXPECT_EQ(stats.by_group().at("batch").sends, 1);
  EXPECT_EQ(stats.by_group().at("batch").failed(), 0);
}

TEST(SendStats, EachClientsSchedulerRunsAndHeartbeatsAreKeptPerAddress) {
  SendStats stats({});
  auto& producer = stats.observer_for("app-0", "app");
  producer.on_scheduled_run({ScheduledTask::kRoutePoll, 10, 10, 12});
  producer.on_scheduled_run({ScheduledTask::kHeartbeat, 1000, 1000, 4003});
  producer.on_heartbeat({"broker-a", 0, "broker-a:10911", 1000, 4001, SendCause::kRequestTimeout});
  producer.on_heartbeat({"broker-b", 0, "broker-b:10911", 4001, 4003, SendCause::kOk});
  producer.on_heartbeat({"broker-a", 0, "broker-a:10911", 31000, 31002, SendCause::kOk});
  const ClientSchedule& schedule = stats.schedules().at("app-0");
  ASSERT_EQ(schedule.runs.size(), 2u);
  EXPECT_EQ(schedule.runs[1].task, ScheduledTask::kHeartbeat);
  EXPECT_STREQ(scheduled_task_name(schedule.runs[1].task), "heartbeat");
  const HeartbeatCounts& a = schedule.heartbeats.at("broker-a:10911");
  EXPECT_EQ(a.broker_name, "broker-a");
  EXPECT_EQ(a.attempts, 2);
  EXPECT_EQ(a.failed(), 1);
  EXPECT_EQ(a.by_cause[static_cast<std::size_t>(SendCause::kRequestTimeout)], 1);
  EXPECT_EQ(schedule.heartbeats.at("broker-b:10911").failed(), 0);
}

}  // namespace
}  // namespace nssim::sim

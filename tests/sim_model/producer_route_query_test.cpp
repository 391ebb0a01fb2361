// ProducerModel's route query for sends without usable publish info
// (DefaultMQProducerImpl#tryToFindTopicPublishInfo): its round trip to the chosen NameServer, its
// timeout, lockNamesrv, the default topic TBW102 and the NameServer choice, against a hand-built
// RouteHistory and the client's NameServer state as it starts. Latencies are 0.5 ms per link: the
// 256-byte request takes 2 ms to the NameServer, the answer 1 ms back, a connect 2 ms.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "producer_harness.h"

namespace nssim::sim {
namespace {

using testing::GroupSpec;
using testing::Harness;
using testing::kProfiles;
using testing::kTopic;
using testing::route_of;

const SendRecord& send_started_at(const Harness& h, std::int64_t start_ms) {
  for (const auto& s : h.recorder.sends) {
    if (s.start_ms == start_ms) return s;
  }
  ADD_FAILURE() << "no send started at " << start_ms;
  static const SendRecord kNone;
  return kNone;
}

TEST(ProducerRouteQuery, SendWithoutPublishInfoStartsOneRoundTripLater) {
  for (auto profile : kProfiles) {
    for (bool connected : {true, false}) {
      Harness h(profile);
      h.answers(0, h.route, 0);
      h.client_uses(0, connected);
      h.start(1000, /*with_route=*/false).advance_to(5000);
      // The request crosses in 2 ms, the answer in 1 ms; without an open channel the query
      // connects first (2 ms).
      const std::int64_t found = connected ? 1003 : 1005;
      const SendRecord& first = send_started_at(h, 1000);
      EXPECT_EQ(first.cause, SendCause::kOk);
      ASSERT_FALSE(first.attempts.empty());
      EXPECT_EQ(first.attempts.front().start_ms, found);
      ASSERT_EQ(h.recorder.publish.size(), 1u);
      EXPECT_EQ(std::get<1>(h.recorder.publish[0]), found);
      // Later sends find the publish info and ask no one.
      const SendRecord& second = send_started_at(h, 1100);
      ASSERT_FALSE(second.attempts.empty());
      EXPECT_EQ(second.attempts.front().start_ms, 1100);
      EXPECT_TRUE(h.failed().empty());
    }
  }
}

// Sends without a route queue on lockNamesrv: each holder asks in turn (one round trip each), so a
// burst makes one query at a time; sends that arrive once the publish info is ok ask no one.
TEST(ProducerRouteQuery, LockNamesrvSerializesTheQueriesOfABurst) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 1000.0;
    h.answers(0, h.route, 0);
    h.client_uses(0);
    h.start(1000, /*with_route=*/false).advance_to(1100);
    EXPECT_EQ(send_started_at(h, 1000).attempts.front().start_ms, 1003);
    EXPECT_EQ(send_started_at(h, 1001).attempts.front().start_ms, 1006);
    EXPECT_EQ(send_started_at(h, 1002).attempts.front().start_ms, 1009);
    EXPECT_EQ(send_started_at(h, 1003).attempts.front().start_ms, 1003);
    EXPECT_EQ(h.recorder.publish.size(), 1u);  // the answers after the first change nothing
    EXPECT_TRUE(h.failed().empty());
  }
}

// The request waits in the paused NameServer's socket until it resumes at `resume_ms`; the
// answer comes 1 ms later and must arrive within mqClientApiTimeout (3000 ms) of the request.
TEST(ProducerRouteQuery, QueryTimeoutFailsTheSendAfterMqClientApiTimeout) {
  for (auto profile : kProfiles) {
    for (std::int64_t resume_ms : {3999, 4000}) {
      Harness h(profile);
      h.spec.rate_per_s = 0.1;
      h.spec.config.send_msg_timeout = 10000;  // budget left for the attempt
      h.answers(0, h.route, 0);
      h.client_uses(0);
      h.net.pause(h.nameservers[0], 500);
      h.net.resume(h.nameservers[0], resume_ms);
      h.start(1000, /*with_route=*/false).advance_to(5000);
      const SendRecord& s = send_started_at(h, 1000);
      if (resume_ms == 3999) {
        EXPECT_EQ(s.cause, SendCause::kOk);
        ASSERT_FALSE(s.attempts.empty());
        EXPECT_EQ(s.attempts.front().start_ms, 4000);  // the deadline itself
      } else {
        // RemotingTimeoutException, seen kTimedWaitOverrunMs after the deadline; upstream
        // rethrows it as IllegalStateException, which ends the send without an attempt.
        EXPECT_EQ(s.cause, SendCause::kNoRoute);
        EXPECT_EQ(s.end_ms, 1000 + 3000 + kTimedWaitOverrunMs);
        EXPECT_TRUE(s.attempts.empty());
        EXPECT_EQ(h.model->publish_info(kTopic), nullptr);
      }
    }
  }
}

// A waiter gets lockNamesrv if it is released by its tryLock deadline (arrival + 3000 ms), and
// otherwise gives up 1 ms after it (and tries again for the default topic). The NameServer stays
// paused, so every query times out after mqClientApiTimeout: the first holds the lock 3999 or
// 4000 ms past its start. Sends arrive every second.
TEST(ProducerRouteQuery, LockWaiterGivesUpAtItsTryLockDeadline) {
  for (auto profile : kProfiles) {
    for (std::int64_t api_timeout : {3999, 4000}) {
      Harness h(profile);
      h.spec.rate_per_s = 1.0;
      h.spec.config.mq_client_api_timeout = api_timeout;
      h.answers(0, h.route, 0);
      h.client_uses(0);
      h.net.pause(h.nameservers[0], 500);
      h.start(1000, /*with_route=*/false).advance_to(20000);
      const std::int64_t released = 1000 + api_timeout + kTimedWaitOverrunMs;
      EXPECT_EQ(send_started_at(h, 1000).end_ms, released);
      // Whoever takes the lock at the release connects (the holder's timeout closed the channel;
      // a paused process's kernel accepts) and times out after mqClientApiTimeout too.
      const std::int64_t next_holder_ends = released + api_timeout + kTimedWaitOverrunMs;
      const SendRecord& waiter = send_started_at(h, 2000);
      EXPECT_EQ(waiter.cause, SendCause::kNoRoute);
      if (api_timeout == 3999) {
        EXPECT_EQ(released, 2000 + 3000);  // its deadline: it takes the lock
        EXPECT_EQ(waiter.end_ms, next_holder_ends);
      } else {
        // It gave up at 5001 and queued again for TBW102 behind the send of 3000, which took
        // the lock; that wait ends the same way 3000 ms later.
        EXPECT_EQ(waiter.end_ms, 2000 + 2 * (3000 + kTimedWaitOverrunMs));
        EXPECT_EQ(send_started_at(h, 3000).end_ms, next_holder_ends);
      }
    }
  }
}

// Publish info that exists but has no writable queue: each send first asks once (no default
// topic: the topic has route info), then fails with "No route info" or goes on with the answer.
TEST(ProducerRouteQuery, NotOkPublishInfoMakesOneQueryFirst) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    const auto good = h.route;
    for (auto& bd : h.route.broker_datas) bd.broker_addrs.erase(0);
    h.answers(0, h.route, 0);
    h.answers(0, good, 3000);
    h.client_uses(0);
    h.start().advance_to(5000);
    for (const auto& s : h.recorder.sends) {
      if (s.start_ms < 3000) {
        EXPECT_EQ(s.cause, SendCause::kNoRoute);
        EXPECT_EQ(s.end_ms, s.start_ms + 3);
        EXPECT_TRUE(s.attempts.empty());
      } else if (s.start_ms == 3000) {
        ASSERT_FALSE(s.attempts.empty());
        EXPECT_EQ(s.attempts.front().start_ms, 3003);
        EXPECT_EQ(s.cause, SendCause::kOk);
      } else {
        EXPECT_EQ(s.attempts.front().start_ms, s.start_ms);
      }
    }
    // The first poll, then each of the 20 answers to a not-ok publish info rebuilt it; the
    // answer at 3003 too, and none after.
    EXPECT_EQ(h.recorder.publish.size(), 1u + 20u + 1u);
  }
}

// A topic the NameServer does not know: the default topic TBW102 is asked for at once (the same
// thread takes lockNamesrv again), and its route is used with min(4, readQueueNums) queues.
TEST(ProducerRouteQuery, UnknownTopicTakesTheDefaultTopicsRoute) {
  for (auto profile : kProfiles) {
    for (bool default_known : {true, false}) {
      Harness h(profile);
      h.answers(0, std::nullopt, 0);
      if (default_known) {
        h.answers(0, route_of({GroupSpec{"broker-a", 8, 7}, GroupSpec{"broker-b", 8, 7}}), 0,
                  kAutoCreateTopicKeyTopic);
      }
      h.client_uses(0);
      h.start(1000, /*with_route=*/false).advance_to(1050);
      const SendRecord& s = send_started_at(h, 1000);
      if (default_known) {
        EXPECT_EQ(s.cause, SendCause::kOk);
        ASSERT_FALSE(s.attempts.empty());
        EXPECT_EQ(s.attempts.front().start_ms, 1006);  // two round trips
        const TopicPublishInfo* info = h.model->publish_info(kTopic);
        ASSERT_NE(info, nullptr);
        EXPECT_EQ(info->message_queue_list().size(), 8u);
        EXPECT_EQ(info->brokers(), (std::set<std::string>{"broker-a", "broker-b"}));
      } else {
        EXPECT_EQ(s.cause, SendCause::kNoRoute);
        EXPECT_EQ(s.end_ms, 1006);
        EXPECT_EQ(h.model->publish_info(kTopic), nullptr);
      }
    }
  }
}

// The chosen NameServer (ns-1) has no channel, so the query moves on to the next one, ns-0, whose
// process is down: refused after one round trip. 4.9 tries the next address within the same
// invokeSync; 5.x fails the call, and the next send's query moves on.
TEST(ProducerRouteQuery, RefusedNameServerIsSkippedWithinOneQueryOnlyIn49) {
  for (auto profile : kProfiles) {
    Harness h(profile, {"broker-a", "broker-b"}, /*nameserver_count=*/2);
    h.net.stop_process(h.nameservers[0], DownKind::kCrash, 500);
    h.answers(1, h.route, 0);
    h.client_uses(1, /*connected=*/false);
    h.start(1000, /*with_route=*/false).advance_to(2000);
    const SendRecord& first = send_started_at(h, 1000);
    const SendRecord& second = send_started_at(h, 1100);
    if (profile == core::Profile::kV4_9) {
      // Refused at 1002, connected to ns-1 at 1004, answered at 1007.
      EXPECT_EQ(first.cause, SendCause::kOk);
      ASSERT_FALSE(first.attempts.empty());
      EXPECT_EQ(first.attempts.front().start_ms, 1007);
      EXPECT_EQ(second.attempts.front().start_ms, 1100);
    } else {
      EXPECT_EQ(first.cause, SendCause::kNoRoute);
      EXPECT_EQ(first.end_ms, 1002);
      // ns-0 is the choice now and its channel is not OK: the next call moves on to ns-1.
      EXPECT_EQ(second.cause, SendCause::kOk);
      ASSERT_FALSE(second.attempts.empty());
      EXPECT_EQ(second.attempts.front().start_ms, 1105);
    }
  }
}

}  // namespace
}  // namespace nssim::sim

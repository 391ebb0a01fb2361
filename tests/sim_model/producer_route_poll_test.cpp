// ProducerModel's scheduled route poll (MQClientInstance#startScheduledTask ->
// updateTopicRouteInfoFromNameServer): its fixed-rate rounds on the one scheduler thread, the
// NameServer choice and channels it shares with the sends' route queries, lockNamesrv, the 4.9
// walk on a refused connect, and a remoting failure ending the round. Latencies are 0.5 ms per
// link: the 256-byte request takes 2 ms to the NameServer, the answer 1 ms back, a connect 2 ms.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "producer_harness.h"

namespace nssim::sim {
namespace {

using testing::Harness;
using testing::kProfiles;
using testing::kTopic;

// When each poll of `topic` began (asked_ms), in order.
std::vector<std::int64_t> asked_at(const Harness& h, const std::string& topic = kTopic) {
  std::vector<std::int64_t> out;
  for (const auto& u : h.recorder.route_updates) {
    if (u.topic == topic) out.push_back(u.query.asked_ms);
  }
  return out;
}

std::vector<std::string> poll_failures(Harness& h) {
  std::vector<std::string> out;
  for (const auto& e : h.log.events()) {
    if (e.kind == EventKind::kRoutePollFailed) {
      out.push_back(e.fields["topic"].get<std::string>() + " " +
                    e.fields["cause"].get<std::string>());
    }
  }
  return out;
}

// The first round 10 ms after the start connects (2 ms) and asks (3 ms); later rounds reuse the
// channel, every pollNameServerInterval.
TEST(ProducerRoutePoll, FirstRoundTenMsAfterStartThenEveryInterval) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 0.0;  // the poll alone
    h.answers(0, h.route, 0);
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(70000);
    const auto& updates = h.recorder.route_updates;
    ASSERT_EQ(updates.size(), 3u);
    EXPECT_EQ(updates[0].query.nameserver, "ns-0");
    EXPECT_EQ(updates[0].query.outcome, "ok");
    EXPECT_EQ(updates[0].query.asked_ms, 1010);
    EXPECT_EQ(updates[0].answered_ms, 1015);
    EXPECT_EQ(updates[0].gained, (std::vector<std::string>{"broker-a", "broker-b"}));
    EXPECT_EQ(updates[1].answered_ms, 31013);
    EXPECT_EQ(updates[2].answered_ms, 61013);
    EXPECT_NE(h.model->publish_info(kTopic), nullptr);
    EXPECT_TRUE(poll_failures(h).empty());
  }
}

// pollNameServerInterval 2000 ms against a paused NameServer: each round's request times out
// after mqClientApiTimeout (3000 ms, seen 1 ms late) and closes the channel, so each round outlasts
// its period and the next starts at once (scheduleAtFixedRate). Once the NameServer resumes at
// 6000, the late round is answered and the rounds fall back onto the fixed grid 1010 + k * 2000.
TEST(ProducerRoutePoll, ARoundThatOutlastsThePeriodDelaysTheNext) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 0.0;
    h.spec.config.poll_name_server_interval = 2000;
    h.answers(0, h.route, 0);
    h.net.pause(h.nameservers[0], 500);
    h.net.resume(h.nameservers[0], 6000);
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(9500);
    // 1010: connect 1012, timeout 4011. 4011: connect 4013, processed at 6000, answered 6001.
    // 6001 (due 5010): answered 6004. Then 7010 and 9010 on the grid.
    EXPECT_EQ(asked_at(h), (std::vector<std::int64_t>{1010, 4011, 6001, 7010, 9010}));
    EXPECT_EQ(poll_failures(h), (std::vector<std::string>{"TopicTest request_timeout"}));
    EXPECT_EQ(h.log.events().front().t_ms, 4011);
  }
}

// A send whose publish info is not ok, arriving while the poll holds lockNamesrv, waits for it.
// The NameServer answers a route without masters until 1009 and the good one after; the send at
// 1000 asks (connecting) and fails for want of a route at 1005. The NameServer pauses at 1008: the
// poll's request of 1010 is processed when it resumes at 4000 and answered at 4001. The send of
// 2000 then makes its own query (answered 4004) before its first attempt, and the send of 3000
// after it (4007). Without the lock they would have asked at once and been answered at 4001.
TEST(ProducerRoutePoll, ThePollTakesLockNamesrv) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 1.0;
    const core::TopicRouteData good = h.route;
    for (auto& bd : h.route.broker_datas) bd.broker_addrs.erase(0);
    h.answers(0, h.route, 0);
    h.answers(0, good, 1009);
    h.net.pause(h.nameservers[0], 1008);
    h.net.resume(h.nameservers[0], 4000);
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(4500);
    ASSERT_GE(h.recorder.sends.size(), 3u);
    EXPECT_EQ(h.recorder.sends[0].cause, SendCause::kNoRoute);
    EXPECT_EQ(h.recorder.sends[0].end_ms, 1005);
    for (std::size_t i : {1, 2}) {
      const SendRecord& send = h.recorder.sends[i];
      EXPECT_EQ(send.start_ms, static_cast<std::int64_t>(1000 * (i + 1)));
      EXPECT_EQ(send.cause, SendCause::kOk);
      ASSERT_FALSE(send.attempts.empty());
      EXPECT_EQ(send.attempts.front().start_ms, i == 1 ? 4004 : 4007);
    }
  }
}

// The chosen NameServer's process is down: the connect is refused after one round trip. 4.9 tries
// the next address within the same call; 5.x fails the call, which ends the round (logged), and
// the next round moves on to the other NameServer.
TEST(ProducerRoutePoll, RefusedConnectIsWalkedPastIn49AndEndsTheRoundIn5x) {
  for (auto profile : kProfiles) {
    Harness h(profile, {"broker-a", "broker-b"}, /*nameserver_count=*/2);
    h.spec.rate_per_s = 0.0;
    h.spec.topics = {kTopic, "TopicOther"};
    h.net.stop_process(h.nameservers[0], DownKind::kCrash, 500);
    h.answers(1, h.route, 0);
    h.client_uses(1, /*connected=*/false);  // no channel to ns-1: the first call moves on to ns-0
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(40000);
    const auto& updates = h.recorder.route_updates;
    if (profile == core::Profile::kV4_9) {
      // Refused by ns-0 at 1012, connected to ns-1 at 1014, answered at 1017; TopicOther next.
      ASSERT_GE(updates.size(), 2u);
      EXPECT_EQ(updates[0].query.nameserver, "ns-1");
      EXPECT_EQ(updates[0].query.outcome, "ok");
      EXPECT_EQ(updates[0].answered_ms, 1017);
      EXPECT_EQ(updates[1].topic, "TopicOther");
      EXPECT_EQ(updates[1].query.outcome, "topic_not_exist");
      EXPECT_TRUE(poll_failures(h).empty());
    } else {
      ASSERT_GE(updates.size(), 3u);
      EXPECT_EQ(updates[0].query.nameserver, "ns-0");
      EXPECT_EQ(updates[0].query.outcome, "connect_refused");
      EXPECT_EQ(updates[0].answered_ms, 1012);
      // TopicOther is not polled in that round.
      EXPECT_EQ(updates[1].topic, kTopic);
      EXPECT_EQ(updates[1].query.nameserver, "ns-1");
      EXPECT_EQ(updates[1].answered_ms, 31015);
      EXPECT_EQ(updates[2].topic, "TopicOther");
      EXPECT_EQ(poll_failures(h), (std::vector<std::string>{"TopicTest connect_refused"}));
    }
  }
}

// A send's query and the poll are one client: the send's query at 1000 opens the channel to ns-0
// (answered 1005), and the poll at 1010 uses it without connecting (answered 1013).
TEST(ProducerRoutePoll, SharesTheChannelWithTheSendsQueries) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 0.001;
    h.answers(0, h.route, 0);
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(2000);
    const auto& updates = h.recorder.route_updates;
    ASSERT_EQ(updates.size(), 2u);
    EXPECT_EQ(updates[0].answered_ms, 1005);
    EXPECT_EQ(updates[1].query.asked_ms, 1010);
    EXPECT_EQ(updates[1].query.nameserver, "ns-0");
    EXPECT_EQ(updates[1].answered_ms, 1013);
  }
}

}  // namespace
}  // namespace nssim::sim

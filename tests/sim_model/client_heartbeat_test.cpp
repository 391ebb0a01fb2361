// ProducerModel's heartbeat run (cleanOfflineBroker + sendHeartbeatToAllBrokerWithLock on the
// scheduler thread): one HEART_BEAT per master, in name order, one after another; the channels it
// shares with the sends (a timeout closes the channel and fails the sends on it); the cleaning of
// addresses no cached route names; and the #1681 family, a TOPIC_NOT_EXIST answer that keeps the
// last brokers heartbeated forever. Latencies are 0.5 ms per link (a connect 2 ms, a request and
// its answer 3 ms).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "producer_harness.h"

namespace nssim::sim {
namespace {

using testing::Harness;
using testing::kProfiles;
using testing::kTopic;

std::vector<HeartbeatRecord> heartbeats_to(const Harness& h, const std::string& address) {
  std::vector<HeartbeatRecord> out;
  for (const auto& hb : h.recorder.heartbeats) {
    if (hb.address == address) out.push_back(hb);
  }
  return out;
}

// The route without `group`'s queues and BrokerData.
core::TopicRouteData without(core::TopicRouteData route, const std::string& group) {
  std::erase_if(route.queue_datas, [&](const auto& q) { return q.broker_name == group; });
  std::erase_if(route.broker_datas, [&](const auto& b) { return b.broker_name == group; });
  return route;
}

// The first Hb run (due 1 s after the start) connects to each master in turn (2 ms) and asks
// (3 ms): broker-a 2000..2005, broker-b 2005..2010; later runs reuse the channels (3 ms each).
TEST(ClientHeartbeat, OneRequestPerMasterInNameOrderOneAfterAnother) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 0.0;
    h.answers(0, h.route, 0);
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(40000);
    const auto& hbs = h.recorder.heartbeats;
    ASSERT_EQ(hbs.size(), 4u);
    EXPECT_EQ(hbs[0].broker_name, "broker-a");
    EXPECT_EQ(hbs[0].broker_id, 0);
    EXPECT_EQ(hbs[0].address, "broker-a:10911");
    EXPECT_EQ(hbs[0].start_ms, 2000);
    EXPECT_EQ(hbs[0].end_ms, 2005);
    EXPECT_EQ(hbs[1].address, "broker-b:10911");
    EXPECT_EQ(hbs[1].start_ms, 2005);
    EXPECT_EQ(hbs[1].end_ms, 2010);
    EXPECT_EQ(hbs[2].start_ms, 32000);
    EXPECT_EQ(hbs[2].end_ms, 32003);
    EXPECT_EQ(hbs[3].end_ms, 32006);
    for (const auto& hb : hbs) EXPECT_EQ(hb.cause, SendCause::kOk);
    // The runs: Rt 1010..1015, Hb 2000..2010, Rt 31010..31013, Hb 32000..32006.
    const auto& runs = h.recorder.runs;
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(runs[1].task, ScheduledTask::kHeartbeat);
    EXPECT_EQ(runs[1].due_ms, 2000);
    EXPECT_EQ(runs[1].end_ms, 2010);
    EXPECT_EQ(runs[3].end_ms, 32006);
  }
}

// broker-a's process is paused (SIGSTOP) at 1500: its kernel still accepts connections, nothing
// is answered. Sends go round robin over the 8 queues, every 250 ms. The heartbeat of 2000 on
// the channel the sends opened times out at 5001 (mqClientApiTimeout, 1 ms late) and closes it:
// the sends pending on it fail fast then (RemotingSendRequestException), before their own
// timeouts.
TEST(ClientHeartbeat, ATimeoutClosesTheChannelAndFailsTheSendsOnIt) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 4.0;
    h.spec.config.retry_times_when_send_failed = 0;
    h.answers(0, h.route, 0);
    h.net.pause(h.broker.at("broker-a"), 1500);
    h.start(1000).start_scheduled_task();
    h.model->advance_to(12000);
    const auto to_a = heartbeats_to(h, "broker-a:10911");
    ASSERT_FALSE(to_a.empty());
    EXPECT_EQ(to_a[0].start_ms, 2000);
    EXPECT_EQ(to_a[0].end_ms, 5001);
    EXPECT_EQ(to_a[0].cause, SendCause::kRequestTimeout);
    int reset_at_5001 = 0;
    for (const auto& send : h.recorder.sends) {
      for (const auto& attempt : send.attempts) {
        reset_at_5001 += attempt.cause == SendCause::kConnectionReset && attempt.end_ms == 5001 &&
                         attempt.start_ms > 2000;
      }
    }
    EXPECT_GE(reset_at_5001, 1);
  }
}

// The NameServer drops broker-a from the route at 40 s. The poll of 61010 applies it; the Hb run
// of 62000 then finds broker-a's address in no cached route and removes it: no heartbeat goes
// to broker-a after the one of 32000, though it is alive.
TEST(ClientHeartbeat, CleanOfflineBrokerDropsAnAddressNoCachedRouteNames) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 0.0;
    h.answers(0, h.route, 0);
    h.answers(0, without(h.route, "broker-a"), 40000);
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(200000);
    const auto to_a = heartbeats_to(h, "broker-a:10911");
    ASSERT_EQ(to_a.size(), 2u);
    EXPECT_EQ(to_a[1].start_ms, 32000);
    EXPECT_EQ(heartbeats_to(h, "broker-b:10911").size(), 7u);  // 2000, 32000, ..., 182000
  }
}

// lag_ms covers a heartbeat's look-ahead: a heartbeat evaluated at its start reads the network up
// to its end, at most its connect (connectTimeoutMillis) then the rest of mqClientApiTimeout, each
// seen 1 ms late. broker-a is paused (open channel: the whole 5 s request timeout), broker-b
// powered off (its channel closed by the first timeout, then a 3 s connect timeout each run).
TEST(ClientHeartbeat, EveryHeartbeatEndsWithinTheModelsLag) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 0.0;
    h.spec.config.mq_client_api_timeout = 5000;
    h.answers(0, h.route, 0);
    h.net.pause(h.broker.at("broker-a"), 10000);
    h.net.power_off(h.broker.at("broker-b"), 10000);
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(200000);
    const std::int64_t lag = h.model->lag_ms();
    EXPECT_EQ(lag, 3000 + 5000 + 2);
    std::int64_t longest = 0;
    for (const auto& hb : h.recorder.heartbeats)
      longest = std::max(longest, hb.end_ms - hb.start_ms);
    EXPECT_EQ(longest, 5001);
    EXPECT_LE(longest, lag);
  }
}

// #1681/#1686: both groups powered off at 40 s and the topic gone from the NameServer
// (TOPIC_NOT_EXIST from then on). The answer leaves the cached route as it was, so
// cleanOfflineBroker never removes the masters: every Hb run to the end still heartbeats both,
// each a whole timeout (the first on the open channel, then each connect).
TEST(ClientHeartbeat, TopicNotExistKeepsTheLastBrokersHeartbeatedForever) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 0.0;
    h.answers(0, h.route, 0);
    h.answers(0, std::nullopt, 40000);
    h.net.power_off(h.broker.at("broker-a"), 40000);
    h.net.power_off(h.broker.at("broker-b"), 40000);
    h.start(1000, /*with_route=*/false).start_scheduled_task();
    h.model->advance_to(600000);
    for (const std::string address : {"broker-a:10911", "broker-b:10911"}) {
      const auto hbs = heartbeats_to(h, address);
      ASSERT_EQ(hbs.size(), 20u) << address;  // 2000, 32000, ..., 572000: none dropped
      EXPECT_EQ(hbs[2].cause, SendCause::kRequestTimeout);
      for (std::size_t i = 2; i < hbs.size(); ++i) {
        EXPECT_NE(hbs[i].cause, SendCause::kOk);
        EXPECT_EQ(hbs[i].end_ms - hbs[i].start_ms, 3001);
        if (i > 2) {
          EXPECT_EQ(hbs[i].cause, SendCause::kConnectTimeout);
        }
      }
    }
    ASSERT_NE(h.model->publish_info(kTopic), nullptr);  // the stale route, still used
  }
}

}  // namespace
}  // namespace nssim::sim

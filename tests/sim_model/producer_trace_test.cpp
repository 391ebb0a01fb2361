// What ProducerModel reports for the trace beyond the aggregates: the queue each attempt went to,
// each route query with the brokers its publish info gained and lost, queries that got no answer,
// and the frontier behind which no later report can end.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "producer_harness.h"
#include "sim/client/producer_model.h"

namespace nssim::sim {
namespace {

using testing::Harness;
using testing::kProfiles;
using testing::kTopic;

RouteQuery asked(const std::string& nameserver, std::int64_t asked_ms, const char* outcome) {
  return RouteQuery{nameserver, asked_ms, outcome};
}

TEST(ProducerTrace, AttemptsNameTheQueueTheyWentTo) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.start().advance_to(3000);
    std::set<std::pair<std::string, int>> queues;
    for (const auto& s : h.recorder.sends) {
      ASSERT_EQ(s.attempts.size(), 1u);
      queues.emplace(s.attempts[0].broker_name, s.attempts[0].queue_id);
    }
    // Round robin over a's and b's four queues each: twenty sends touch all eight.
    EXPECT_EQ(queues, (std::set<std::pair<std::string, int>>{{"broker-a", 0},
                                                             {"broker-a", 1},
                                                             {"broker-a", 2},
                                                             {"broker-a", 3},
                                                             {"broker-b", 0},
                                                             {"broker-b", 1},
                                                             {"broker-b", 2},
                                                             {"broker-b", 3}}));
  }
}

TEST(ProducerTrace, RouteUpdatesSayWhoAnsweredAndWhatThePublishInfoGainedAndLost) {
  Harness h(core::Profile::kV5);
  h.start(1000, /*with_route=*/false);
  auto only_a = h.route;
  only_a.queue_datas.pop_back();
  only_a.broker_datas.pop_back();
  // Before the first send arrives (at 1000), which would otherwise ask a NameServer itself.
  h.model->on_route(kTopic, h.route, 999, asked("ns-0", 997, "ok"));
  h.model->on_route(kTopic, only_a, 31000, asked("ns-1", 30997, "ok"));
  h.model->on_route(kTopic, std::nullopt, 61000, asked("ns-1", 60998, "topic_not_exist"));
  h.model->on_route(kTopic, h.route, 91000, asked("ns-2", 90999, "ok"));
  h.model->on_route(kTopic, h.route, 121000, asked("ns-2", 120999, "ok"));
  h.model->advance_to(121000);
  const auto& updates = h.recorder.route_updates;
  ASSERT_EQ(updates.size(), 5u);
  using Names = std::vector<std::string>;
  const std::vector<std::pair<Names, Names>> expected = {
      {{"broker-a", "broker-b"}, {}}, {{}, {"broker-b"}}, {{}, {}}, {{"broker-b"}, {}}, {{}, {}}};
  for (std::size_t i = 0; i < updates.size(); ++i) {
    EXPECT_EQ(updates[i].topic, kTopic);
    EXPECT_EQ(updates[i].answered_ms, i == 0 ? 999 : 1000 + 30000 * static_cast<std::int64_t>(i));
    EXPECT_EQ(updates[i].gained, expected[i].first) << i;
    EXPECT_EQ(updates[i].lost, expected[i].second) << i;
  }
  EXPECT_EQ(updates[1].query.nameserver, "ns-1");
  EXPECT_EQ(updates[1].query.asked_ms, 30997);
  EXPECT_EQ(updates[2].query.outcome, "topic_not_exist");
}

// A poll that got no answer is traced and changes nothing: the publish info stays, and the sends
// go on using it.
TEST(ProducerTrace, AFailedQueryIsReportedAndChangesNothing) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.start(1000).advance_to(1200);
    const TopicPublishInfo* before = h.model->publish_info(kTopic);
    ASSERT_NE(before, nullptr);
    h.model->on_route_failed(kTopic, 1500, asked("ns-0", 1010, "connect_refused"));
    h.model->advance_to(2000);
    ASSERT_EQ(h.recorder.route_updates.size(), 2u);  // the start's route, then the failure
    const RouteUpdate& failed = h.recorder.route_updates[1];
    EXPECT_EQ(failed.answered_ms, 1500);
    EXPECT_EQ(failed.query.nameserver, "ns-0");
    EXPECT_EQ(failed.query.outcome, "connect_refused");
    EXPECT_TRUE(failed.gained.empty());
    EXPECT_TRUE(failed.lost.empty());
    EXPECT_EQ(h.model->publish_info(kTopic), before);
    ASSERT_FALSE(h.recorder.sends.empty());
    for (const auto& send : h.recorder.sends) EXPECT_EQ(send.cause, SendCause::kOk);
  }
}

// Sends to a powered-off broker stay in flight for the whole 3 s budget: each advance's frontier
// is exactly the start of the oldest send it left in flight, which is reported later; no send
// reported later started before it.
TEST(ProducerTrace, TheFrontierIsTheOldestSendInFlight) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.net.power_off(h.broker["broker-b"], 5050);
    h.start();
    std::vector<std::pair<std::size_t, std::int64_t>> steps;  // (sends reported, frontier)
    for (std::int64_t t = 5000; t <= 30000; t += 5000) {
      h.model->advance_to(t);
      ASSERT_EQ(h.recorder.frontiers.size(), steps.size() + 1);
      EXPECT_LE(h.recorder.frontiers.back(), t);
      steps.emplace_back(h.recorder.sends.size(), h.recorder.frontiers.back());
    }
    h.model->advance_to(40000);
    int held_back = 0;
    for (std::size_t k = 0; k < steps.size(); ++k) {
      const auto [reported, frontier] = steps[k];
      std::int64_t oldest_later = INT64_MAX;
      for (std::size_t i = reported; i < h.recorder.sends.size(); ++i) {
        oldest_later = std::min(oldest_later, h.recorder.sends[i].start_ms);
      }
      const std::int64_t t = 5000 * static_cast<std::int64_t>(k + 1);
      if (frontier < t) {
        EXPECT_EQ(oldest_later, frontier) << t;
        ++held_back;
      } else {
        EXPECT_GE(oldest_later, frontier) << t;
      }
    }
    EXPECT_GE(held_back, 5);  // every advance after the power-off left a send to broker-b open
  }
}

}  // namespace
}  // namespace nssim::sim

// ProducerModel without faults: arrivals, round trips, route answers and the publish info they
// build (MQClientInstance), and what the seed drives. Sends without a usable route are in
// producer_route_query_test.cpp.
#include "sim/client/producer_model.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "producer_harness.h"

namespace nssim::sim {
namespace {

using testing::Harness;
using testing::kProfiles;
using testing::kTopic;

TEST(ProducerModel, SteadyStateSendsSucceedInOneRoundTrip) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.start().advance_to(11050);
    ASSERT_EQ(h.recorder.sends.size(), 101u);  // 1000, 1100, ..., 11000
    int with_connect = 0;
    for (const auto& s : h.recorder.sends) {
      EXPECT_EQ(s.cause, SendCause::kOk);
      ASSERT_EQ(s.attempts.size(), 1u);
      // Connect 2 ms, then 2 ms out with the 1 KB payload and 1 ms back.
      const std::int64_t took = s.end_ms - s.start_ms;
      EXPECT_TRUE(took == 3 || took == 5) << took;
      with_connect += took == 5;
    }
    EXPECT_EQ(with_connect, 2);  // one connect per broker
    EXPECT_EQ(h.model->in_flight_sends(), 0u);
  }
}

TEST(ProducerModel, SendsAreSpreadOverBothGroupsAndTopicsRoundRobin) {
  Harness h(core::Profile::kV5);
  h.spec.topics = {kTopic, "TopicOther"};
  h.start();
  h.model->on_route("TopicOther", h.route, 1000);
  h.model->advance_to(10999);
  std::map<std::string, int> per_broker;
  std::map<std::string, int> per_topic;
  for (const auto& s : h.recorder.sends) {
    ++per_broker[std::string(s.attempts.front().broker_name)];
    ++per_topic[std::string(s.topic)];
  }
  EXPECT_EQ(per_topic[kTopic], 50);
  EXPECT_EQ(per_topic["TopicOther"], 50);
  // Each topic has its own index over a,a,a,a,b,b,b,b: at most 4 off an even split.
  EXPECT_NEAR(per_broker["broker-a"], 50, 4);
  EXPECT_NEAR(per_broker["broker-b"], 50, 4);
}

TEST(ProducerModel, PoissonArrivalsKeepTheRate) {
  Harness h(core::Profile::kV4_9);
  h.spec.arrival = Arrival::kPoisson;
  h.spec.rate_per_s = 50.0;
  h.start().advance_to(101000);
  EXPECT_GT(h.recorder.sends.size(), 4700u);
  EXPECT_LT(h.recorder.sends.size(), 5300u);
  EXPECT_TRUE(std::is_sorted(h.recorder.sends.begin(), h.recorder.sends.end(),
                             [](const auto& a, const auto& b) { return a.end_ms < b.end_ms; }));
}

// A rate so small that arrivals lie beyond any clock (1e-16/s: ~1e19 ms apart, past int64) is
// never scheduled there: fixed arrivals give the send at the start and no other, Poisson ones
// (whose first gap is drawn too) none. It used to overflow the int64 cast, schedule arrivals in
// the past and loop on them without bound.
TEST(ProducerModel, ArrivalsBeyondAnyClockAreNeverScheduled) {
  for (const Arrival arrival : {Arrival::kFixed, Arrival::kPoisson}) {
    Harness h(core::Profile::kV5);
    h.spec.arrival = arrival;
    h.spec.rate_per_s = 1e-16;
    h.start().advance_to(3'600'000);
    if (arrival == Arrival::kFixed) {
      ASSERT_EQ(h.recorder.sends.size(), 1u);
      EXPECT_EQ(h.recorder.sends[0].start_ms, 1000);
    } else {
      EXPECT_TRUE(h.recorder.sends.empty());
    }
  }
}

TEST(ProducerModel, UnchangedRouteKeepsThePublishInfoAndItsIndex) {
  Harness h(core::Profile::kV4_9);
  h.start();
  h.poll(31000, 91000, h.route);
  h.model->advance_to(60000);
  const TopicPublishInfo* first = h.model->publish_info(kTopic);
  ASSERT_NE(first, nullptr);
  h.model->advance_to(90000);
  EXPECT_EQ(h.model->publish_info(kTopic), first);
  ASSERT_EQ(h.recorder.publish.size(), 1u);
  EXPECT_EQ(std::get<2>(h.recorder.publish[0]), (std::set<std::string>{"broker-a", "broker-b"}));
}

TEST(ProducerModel, ChangedRouteBuildsANewPublishInfo) {
  Harness h(core::Profile::kV5);
  h.start();
  auto only_a = h.route;
  only_a.queue_datas.pop_back();
  only_a.broker_datas.pop_back();
  h.model->on_route(kTopic, only_a, 31000);
  h.model->advance_to(30999);
  const TopicPublishInfo* before = h.model->publish_info(kTopic);
  h.model->advance_to(61000);
  EXPECT_NE(h.model->publish_info(kTopic), before);
  ASSERT_EQ(h.recorder.publish.size(), 2u);
  EXPECT_EQ(std::get<1>(h.recorder.publish[1]), 31000);
  EXPECT_EQ(std::get<2>(h.recorder.publish[1]), (std::set<std::string>{"broker-a"}));
  for (const auto& s : h.recorder.sends) {
    if (s.start_ms >= 31000) {
      EXPECT_EQ(s.attempts.front().broker_name, "broker-a");
    }
  }
}

// Java: sendDefaultImpl's topicPublishInfo is a local: a route change while a send retries does
// not reach it (the model keeps the replaced publish info alive for it).
TEST(ProducerModel, ASendRetriesOnThePublishInfoItStartedWith) {
  Harness h(core::Profile::kV5);
  h.net.power_off(h.broker["broker-a"], 0);  // an attempt at broker-a waits out its connect
  h.start();
  auto only_a = h.route;
  only_a.queue_datas.pop_back();
  only_a.broker_datas.pop_back();
  h.model->on_route(kTopic, only_a, 31000);
  h.model->advance_to(61000);
  int retried_across = 0;
  for (const auto& s : h.recorder.sends) {
    if (s.start_ms >= 31000 || s.attempts.size() < 2 || s.attempts[1].start_ms < 31000) continue;
    ++retried_across;
    EXPECT_EQ(s.attempts[1].broker_name, "broker-b") << s.start_ms;
    EXPECT_EQ(s.cause, SendCause::kOk) << s.start_ms;
  }
  EXPECT_GT(retried_across, 0);
}

TEST(ProducerModel, QueueOfAGroupWithoutAddressFailsAndIsRetriedElsewhere) {
  for (auto profile : kProfiles) {
    Harness h(profile, {"broker-a"});
    h.route.order_topic_conf = "broker-x:2;broker-a:2";  // no BrokerData for broker-x
    h.start().advance_to(3000);
    int retried = 0;
    for (const auto& s : h.recorder.sends) {
      EXPECT_EQ(s.cause, SendCause::kOk);
      if (s.attempts.size() == 2) {
        ++retried;
        EXPECT_EQ(s.attempts[0].broker_name, "broker-x");
        EXPECT_EQ(s.attempts[0].cause, SendCause::kNoRoute);
        EXPECT_EQ(s.attempts[1].broker_name, "broker-a");
      }
    }
    EXPECT_GT(retried, 0);
  }
}

// MQClientInstance keeps one broker address table for all topics: a route only adds or
// overwrites names, and findBrokerAddressInPublish takes brokerId 0 only.
TEST(ProducerModel, BrokerAddressesAreSharedAcrossTopicsAndNeverRemoved) {
  Harness h(core::Profile::kV5);
  h.spec.topics = {kTopic, "TopicOther"};
  h.start();
  auto only_a = h.route;
  only_a.queue_datas.pop_back();
  only_a.broker_datas.pop_back();
  h.model->on_route("TopicOther", only_a, 1000);  // broker-b is absent, not removed
  h.model->advance_to(10000);
  EXPECT_TRUE(h.failed().empty());
  for (const auto& s : h.recorder.sends) EXPECT_EQ(s.attempts.size(), 1u);
  auto slave_only = only_a;
  slave_only.broker_datas.push_back(h.route.broker_datas.back());
  slave_only.broker_datas.back().broker_addrs.erase(0);  // broker-b has lost its master
  h.model->on_route("TopicOther", slave_only, 10050);
  h.model->advance_to(20000);
  int hidden = 0;
  for (const auto& s : h.recorder.sends) {
    EXPECT_EQ(s.cause, SendCause::kOk);
    if (s.start_ms > 10050 && s.attempts.front().broker_name == "broker-b") {
      ++hidden;
      EXPECT_EQ(s.topic, kTopic);  // its publish info still has broker-b's queues
      EXPECT_EQ(s.attempts.front().cause, SendCause::kNoRoute);
      EXPECT_EQ(s.attempts.back().broker_name, "broker-a");
    }
  }
  EXPECT_GT(hidden, 0);
}

TEST(ProducerModel, LagCoversTheLongestAttemptOrRouteQuery) {
  Harness h(core::Profile::kV5);
  EXPECT_EQ(h.start().lag_ms(), 6002);
  EXPECT_EQ(h.model->name(), "producer-0");
  h.spec.config.mq_client_api_timeout = 5000;  // a query's request may outlast an attempt's
  EXPECT_EQ(h.start().lag_ms(), 8002);
  h.spec.config.send_msg_timeout = 7000;
  EXPECT_EQ(h.start().lag_ms(), 10002);
}

// The seed reaches both of the model's random streams: Poisson arrival times and the random
// start of the round-robin index (ThreadLocalIndex), so over 16 seeds no two runs send at the same
// instants and the first send goes to each of the two groups at least once.
TEST(ProducerModel, SeedDrivesArrivalsAndTheStartingQueue) {
  std::set<std::vector<std::int64_t>> arrivals;
  std::set<std::string> first_brokers;
  for (std::uint64_t seed = 1; seed <= 16; ++seed) {
    Harness h(core::Profile::kV5);
    h.spec.arrival = Arrival::kPoisson;
    h.start(1000, true, seed).advance_to(20000);
    ASSERT_FALSE(h.recorder.sends.empty()) << "seed " << seed;
    std::vector<std::int64_t> starts;
    for (const auto& s : h.recorder.sends) starts.push_back(s.start_ms);
    arrivals.insert(starts);
    std::vector<SendRecord> sends = h.recorder.sends;
    std::sort(sends.begin(), sends.end(),
              [](const SendRecord& a, const SendRecord& b) { return a.start_ms < b.start_ms; });
    first_brokers.emplace(sends.front().attempts.front().broker_name);
  }
  EXPECT_EQ(arrivals.size(), 16u);
  EXPECT_EQ(first_brokers, (std::set<std::string>{"broker-a", "broker-b"}));
}

TEST(ProducerModel, AdvancingPiecewiseEqualsAdvancingAtOnce) {
  auto run = [](bool piecewise) {
    Harness h(core::Profile::kV4_9);
    h.net.stop_process(h.broker["broker-b"], DownKind::kCrash, 7000);
    h.start();
    if (piecewise) {
      for (std::int64_t t = 1000; t <= 30000; t += 137) h.model->advance_to(t);
    }
    h.model->advance_to(30000);
    std::vector<std::pair<std::int64_t, std::size_t>> out;
    for (const auto& s : h.recorder.sends) out.emplace_back(s.end_ms, s.attempts.size());
    return out;
  };
  EXPECT_EQ(run(true), run(false));
}

// The world records faults while producers run: a channel's cached round trip must not outlive a
// change recorded after it was taken.
TEST(ProducerModel, AFaultRecordedWhileSendsRunEqualsOneKnownFromTheStart) {
  for (const auto profile : kProfiles) {
    auto run = [profile](bool recorded_late) {
      Harness h(profile);
      if (!recorded_late) h.net.stop_process(h.broker["broker-b"], DownKind::kCrash, 7000);
      h.start();
      h.model->advance_to(5000);
      if (recorded_late) h.net.stop_process(h.broker["broker-b"], DownKind::kCrash, 7000);
      h.model->advance_to(30000);
      std::vector<std::tuple<std::int64_t, std::int64_t, SendCause, std::size_t>> out;
      for (const auto& s : h.recorder.sends) {
        out.emplace_back(s.start_ms, s.end_ms, s.cause, s.attempts.size());
      }
      return out;
    };
    const auto late = run(true);
    EXPECT_EQ(late, run(false));
    EXPECT_TRUE(std::any_of(late.begin(), late.end(),
                            [](const auto& s) { return std::get<3>(s) > 1; }));  // retried
  }
}

}  // namespace
}  // namespace nssim::sim

// The run cost estimate: its counts exactly for a hand-made scenario, how its memory grows (flat
// in sends, linear in producers, quadratic in brokers), and the start line's text.
#include "sim/scenario/run_cost.h"

#include <gtest/gtest.h>

#include <string>

namespace nssim::sim {
namespace {

// 2 NameServers; groups broker-a (master and slave, from 0 ms) and broker-b (master only, from
// 10 s), registering every 30 s; 3 producers at 10 sends/s from 0 ms on 2 topics, polling every
// 30 s; 60 s in all.
Scenario small_scenario() {
  Scenario s;
  s.duration_ms = 60000;
  s.nameservers.count = 2;
  BrokerGroupSpec a;
  a.name = "broker-a";
  a.slaves = 1;
  a.start = StartSpec{0, 0};
  BrokerGroupSpec b;
  b.name = "broker-b";
  b.start = StartSpec{10000, 10000};
  s.broker_groups = {a, b};
  TopicSpec topic;
  topic.name = "t1";
  topic.groups = {"broker-a", "broker-b"};
  TopicSpec other = topic;
  other.name = "t2";
  other.groups = {"broker-a"};
  s.topics = {topic, other};
  ProducerSpec producer;
  producer.count = 3;
  producer.topics = {"t1", "t2"};
  producer.rate_per_s = 10.0;
  producer.start = StartSpec{0, 0};
  s.producers.push_back(producer);
  return s;
}

TEST(RunCost, CountsSendsPollsAndRegistrations) {
  const RunCost cost = estimate_run_cost(small_scenario());
  EXPECT_DOUBLE_EQ(cost.sends, 3 * 10.0 * 60);
  // Each producer polls each topic at 0, 30 and 60 s: floor(60000 / 30000) + 1 = 3 times.
  EXPECT_DOUBLE_EQ(cost.route_polls, 3 * 2 * 3);
  // broker-a's two brokers: 3 registrations each at each NameServer; broker-b's one from 10 s: 2.
  EXPECT_DOUBLE_EQ(cost.registrations, 2 * 2 * 3 + 1 * 2 * 2);
}

TEST(RunCost, MemoryIsFlatInSendsLinearInProducersAndBrokers) {
  const Scenario base = small_scenario();
  const double memory = estimate_run_cost(base).memory_bytes;

  Scenario faster = base;
  faster.producers[0].rate_per_s = 10000.0;
  EXPECT_DOUBLE_EQ(estimate_run_cost(faster).memory_bytes, memory);

  Scenario more_producers = base;
  more_producers.producers[0].count = 1003;
  // Each producer's model and its two topics' routes and publish info.
  const double per_producer = (estimate_run_cost(more_producers).memory_bytes - memory) / 1000;
  EXPECT_DOUBLE_EQ(per_producer, 13.0 * 1024 + 2 * 4.0 * 1024);

  // Each broker's memory: 100 groups of master and slave against 10 of them.
  const auto with_groups = [&](int count) {
    Scenario s = base;
    s.broker_groups.assign(static_cast<std::size_t>(count), base.broker_groups[0]);
    for (int i = 0; i < count; ++i) s.broker_groups[i].name = "g" + std::to_string(i);
    return estimate_run_cost(s);
  };
  EXPECT_DOUBLE_EQ(with_groups(100).memory_bytes - with_groups(10).memory_bytes,
                   180.0 * 36.0 * 1024);
}

TEST(RunCost, NothingToRunCostsTheBaseAndTheTimeSeries) {
  Scenario s;
  s.duration_ms = 1000;
  const RunCost cost = estimate_run_cost(s);
  EXPECT_EQ(cost.sends, 0);
  EXPECT_EQ(cost.route_polls, 0);
  EXPECT_EQ(cost.registrations, 0);
  EXPECT_DOUBLE_EQ(cost.memory_bytes, 64.0 * 1024 * 1024 + 3.0 * 1024);
}

// Topics cost memory per group serving them and CPU per registration reporting them.
TEST(RunCost, TopicsCostPerPlacementAndPerRegistration) {
  const Scenario base = small_scenario();
  Scenario more = base;
  for (int i = 0; i < 100; ++i) {
    TopicSpec topic;
    topic.name = "extra" + std::to_string(i);
    topic.groups = {"broker-a", "broker-b"};
    more.topics.push_back(topic);
  }
  const RunCost before = estimate_run_cost(base);
  const RunCost after = estimate_run_cost(more);
  EXPECT_DOUBLE_EQ(after.memory_bytes - before.memory_bytes, 100 * 2 * 10.5 * 1024);
  // Registrations reporting them: broker-a's 12 and broker-b's 4, each with 100 topics more.
  EXPECT_NEAR(after.cpu_seconds - before.cpu_seconds, (12 + 4) * 100 * 2.5e-6, 1e-12);
}

TEST(RunCost, TextRoundsEachFigureForTheStartLine) {
  RunCost cost;
  cost.sends = 35'900'000;
  cost.route_polls = 600'000;
  cost.registrations = 999;
  cost.memory_bytes = 120.4 * 1024 * 1024;
  cost.cpu_seconds = 20.4;
  EXPECT_EQ(run_cost_text(cost),
            "35.9 M sends, 600.0 k route polls, 999 registrations, 120 MiB, 20 s");
  cost.memory_bytes = 335.3 * 1024 * 1024 * 1024;
  cost.cpu_seconds = 3385;
  cost.sends = 2.5e9;
  EXPECT_EQ(run_cost_text(cost),
            "2.5 G sends, 600.0 k route polls, 999 registrations, 335.3 GiB, 56 min");
  cost.cpu_seconds = 0.04;
  EXPECT_EQ(run_cost_text(cost).substr(run_cost_text(cost).size() - 5), "0.0 s");
}

// 5.x refreshMetadata: each broker asks one NameServer for the whole cluster info every 5 s, so
// the answers' bytes per second, spread over the NameServers, load each one's link.
TEST(RunCost, RefreshMetadataLoadsTheNameServersLinksUnder5xOnly) {
  Scenario s = small_scenario();
  s.profile = core::Profile::kV5;
  s.broker_groups.assign(3000, s.broker_groups[0]);
  for (std::size_t i = 0; i < s.broker_groups.size(); ++i) {
    s.broker_groups[i].name = "g" + std::to_string(i);
    s.broker_groups[i].slaves = 1;
    s.broker_groups[i].nameservers.clear();
  }
  s.nameservers.count = 3;
  s.nameservers.link.bandwidth_mbps = 1000.0;
  // 6,000 brokers x (200 + 110 x 3,000 + 40 x 1 bytes) / 5 s / 3 NameServers / 125 MB/s.
  const double expected = 6000.0 * (200 + 110.0 * 3000 + 40) / 5.0 / 3.0 / 125e6;
  EXPECT_NEAR(estimate_run_cost(s).refresh_link_load, expected, 1e-12);
  EXPECT_GT(expected, 1.0);
  s.nameservers.link.bandwidth_mbps = 25000.0;
  EXPECT_NEAR(estimate_run_cost(s).refresh_link_load, expected / 25, 1e-12);
  s.profile = core::Profile::kV4_9;
  EXPECT_EQ(estimate_run_cost(s).refresh_link_load, 0.0);
}

}  // namespace
}  // namespace nssim::sim

// The consumer co-simulation (sim/consumer) on a hand-built world: one NameServer, brokers
// broker-a and broker-b (4 queues each of topic T), a group of push consumers, and messages
// stored at known instants. Links are 0.5 ms per end, so a hop takes 1 ms.
#include "sim/consumer/consumer_world.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace nssim::sim {
namespace {

constexpr const char* kTopic = "T";
const core::Profile kProfiles[] = {core::Profile::kV4_9, core::Profile::kV5};

struct World {
  Scenario scenario;
  Topology topology;
  NetworkHistory network;
  RouteHistory routes{{kTopic}};
  StoredMessages stored;
  std::vector<NodeId> consumers;

  World(core::Profile profile, int consumer_count, std::int64_t duration_ms) {
    scenario.profile = profile;
    scenario.duration_ms = duration_ms;
    scenario.broker_groups = {BrokerGroupSpec{}, BrokerGroupSpec{}};
    scenario.broker_groups[0].name = "broker-a";
    scenario.broker_groups[1].name = "broker-b";
    ConsumerSpec spec;
    spec.group = "g";
    spec.count = consumer_count;
    spec.topics = {kTopic};
    scenario.consumers = {spec};
    add("ns-0", NodeRole::kNameServer, "10.0.0.1:9876");
    topology.nameservers.push_back(0);
    for (std::size_t g = 0; g < 2; ++g) {
      const std::string addr = "10.0.1." + std::to_string(g + 1) + ":10911";
      const NodeId node = add(scenario.broker_groups[g].name + "-0", NodeRole::kBroker, addr);
      topology.nodes.back().group = g;
      topology.brokers.push_back(node);
      topology.broker_addresses[addr] = node;
    }
    for (int c = 0; c < consumer_count; ++c) {
      const NodeId node = add("consumer-" + std::to_string(c), NodeRole::kConsumer,
                              "10.0.3." + std::to_string(c + 1));
      topology.consumers.push_back(node);
      consumers.push_back(node);
    }
    for (NodeId node = 0; node < static_cast<NodeId>(topology.nodes.size()); ++node) {
      network.start_process(node, node < 3 ? 0 : 1000 + 10 * node);
    }
    core::TopicRouteData route;
    for (const auto& group : scenario.broker_groups) {
      route.queue_datas.push_back(core::QueueData{group.name, 4, 4, 6, 0});
      core::BrokerData broker;
      broker.cluster = "DefaultCluster";
      broker.broker_name = group.name;
      broker.broker_addrs[0] =
          topology.nodes[topology.brokers[route.broker_datas.size()]].broker_addr;
      route.broker_datas.push_back(broker);
    }
    routes.record(0, 0, route, 0);
  }

  NodeId add(const std::string& name, NodeRole role, const std::string& addr) {
    TopologyNode node;
    node.name = name;
    node.role = role;
    node.broker_addr = addr;
    const NodeId id = network.add_node(name, 0.5);
    topology.nodes.push_back(node);
    topology.by_name[name] = id;
    return id;
  }

  // One message per queue every `every_ms` from `from_ms` to `to_ms`.
  void produce(std::int64_t from_ms, std::int64_t to_ms, std::int64_t every_ms) {
    for (std::int64_t t = from_ms; t < to_ms; t += every_ms) {
      for (const char* name : {"broker-a", "broker-b"}) {
        for (int q = 0; q < 4; ++q) stored.add(name, kTopic, q, t);
      }
    }
    stored.finish();
  }

  ConsumerRecord run() {
    return run_consumers(ConsumerInputs{scenario, topology, network, routes, stored});
  }
};

// (queue, offset) -> how many deliveries.
std::map<std::pair<std::uint32_t, std::int64_t>, int> delivery_counts(const ConsumerRecord& r) {
  std::map<std::pair<std::uint32_t, std::int64_t>, int> counts;
  for (const auto& d : r.deliveries) ++counts[{d.queue, d.offset}];
  return counts;
}

// Messages start once both consumers have joined and split the queues (a join moves queues, and
// a moved queue redelivers what its old owner had not committed: KilledConsumer... below).
TEST(ConsumerWorld, SteadyGroupDeliversEveryMessageOnceAndSplitsTheQueues) {
  for (const auto profile : kProfiles) {
    World w(profile, 2, 120000);
    w.produce(5000, 105000, 100);
    const ConsumerRecord r = w.run();
    ASSERT_EQ(r.queues.size(), 8u);
    const auto counts = delivery_counts(r);
    EXPECT_EQ(counts.size(), 8u * 1000u);
    for (const auto& [key, n] : counts) EXPECT_EQ(n, 1) << key.first << "/" << key.second;
    // Steady state: a held long poll is answered at the message's arrival, so a message is
    // delivered a hop and a response later.
    std::int64_t late = 0;
    for (const auto& d : r.deliveries) {
      if (d.stored_ms > 40000) late = std::max(late, d.at_ms - d.stored_ms);
    }
    EXPECT_GE(late, 1);
    EXPECT_LE(late, 5);
    // Each consumer holds 4 queues at the end: AllocateMessageQueueAveragely over 8 queues.
    std::map<std::uint32_t, int> held_at_end;
    for (const auto& o : r.ownerships) {
      if (o.to_ms == 120000) ++held_at_end[o.consumer];
    }
    EXPECT_EQ(held_at_end.size(), 2u);
    for (const auto& [consumer, n] : held_at_end) EXPECT_EQ(n, 4);
  }
}

// The killed consumer's FIN reaches every broker (doChannelCloseEvent, CHANGE): the survivor is
// notified and takes the queues within a second or two (spec 8.7); what the dead one consumed
// since its last commit that reached the broker is delivered again, at most one persist period
// (5 s) of it plus the in-flight.
TEST(ConsumerWorld, KilledConsumersQueuesMoveWithinSecondsWithBoundedDuplicates) {
  for (const auto profile : kProfiles) {
    World w(profile, 2, 120000);
    w.network.stop_process(w.consumers[1], DownKind::kCrash, 60000);
    w.produce(0, 110000, 100);
    const ConsumerRecord r = w.run();
    std::int64_t last_start = 0;
    std::set<std::uint32_t> moved;
    for (const auto& o : r.ownerships) {
      if (o.consumer == 0 && o.from_ms > 60000) {
        last_start = std::max(last_start, o.from_ms);
        moved.insert(o.queue);
      }
    }
    EXPECT_EQ(moved.size(), 4u);
    EXPECT_GT(last_start, 60000);
    EXPECT_LE(last_start, 62000);
    int duplicates = 0;
    for (const auto& [key, n] : delivery_counts(r)) duplicates += n - 1;
    EXPECT_GT(duplicates, 0);
    EXPECT_LE(duplicates, 4 * 60);  // 4 queues x (5 s of 10 msg/s + in-flight)
    EXPECT_EQ(delivery_counts(r).size(), 8u * 1100u);
  }
}

// A powered-off consumer sends no FIN: brokers drop it only when its channel expires (the scan,
// no NOTIFY) or idles out (NOTIFY), 90-130 s after; the survivor takes its queues at its next
// rebalance after that: a stall of (90, 150] s (spec 8.8).
TEST(ConsumerWorld, PoweredOffConsumersQueuesStallUntilTheBrokersExpireIt) {
  for (const auto profile : kProfiles) {
    World w(profile, 2, 300000);
    w.network.power_off(w.consumers[1], 60000);
    w.produce(0, 290000, 100);
    const ConsumerRecord r = w.run();
    std::int64_t first_takeover = 0;
    for (const auto& o : r.ownerships) {
      if (o.consumer == 0 && o.from_ms > 60000) {
        first_takeover = first_takeover == 0 ? o.from_ms : std::min(first_takeover, o.from_ms);
      }
    }
    EXPECT_GT(first_takeover, 60000 + 90000);
    EXPECT_LE(first_takeover, 60000 + 150000);
    EXPECT_EQ(delivery_counts(r).size(), 8u * 2900u);
  }
}

}  // namespace
}  // namespace nssim::sim

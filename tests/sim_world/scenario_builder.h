// Small scenarios built in code for the simulator's tests: 3 NameServers, two single-broker
// groups serving one topic, a few producers, and one fault on broker-a's master.
#pragma once

#include <cstdint>
#include <string>

#include "sim/scenario/scenario.h"

namespace nssim::sim::testing {

// How soon after a NameServer comes back every broker is listed on it again:
// registerNameServerPeriod P = 30 s, plus the registration's connect and crossing (spec 9).
inline constexpr std::int64_t kRelearnWithinMs = 30000 + 10;

inline Scenario small_cluster(core::Profile profile, std::uint64_t seed) {
  Scenario s;
  s.file = "<test>";
  s.name = "small_cluster";
  s.profile = profile;
  s.seed = seed;
  s.duration_ms = 600000;
  s.nameservers.count = 3;
  for (const char* name : {"broker-a", "broker-b"}) {
    BrokerGroupSpec group;
    group.name = name;
    group.config = default_broker_config(profile);
    s.broker_groups.push_back(group);
  }
  TopicSpec topic;
  topic.name = "TopicTest";
  topic.read_queue_nums = 4;
  topic.write_queue_nums = 4;
  s.topics.push_back(topic);
  ProducerSpec producers;
  producers.count = 4;
  producers.topics = {"TopicTest"};
  producers.rate_per_s = 5;
  producers.config = default_producer_config(profile);
  s.producers.push_back(producers);
  return s;
}

inline Scenario with_fault(Scenario s, FaultKind kind, std::int64_t at_ms,
                           std::optional<std::int64_t> duration_ms = std::nullopt) {
  FaultSpec fault;
  fault.kind = kind;
  fault.at_ms = at_ms;
  fault.duration_ms = duration_ms;
  if (kind == FaultKind::kPartition) {
    fault.side_a = {"broker-a-0"};
    fault.side_b = {"ns-0", "ns-1", "ns-2"};
  } else {
    fault.nodes = {"broker-a-0"};
  }
  s.faults.push_back(fault);
  return s;
}

}  // namespace nssim::sim::testing

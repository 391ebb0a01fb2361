// File: the topic-config table a simulated broker registers: the system topics upstream's
// TopicConfigManager creates at start, plus the scenario's topics served by the group. The table
// size sets the registration body's size, and 5.x rejects a first registration of exactly one
// topic, so the system topics matter.
#pragma once

#include <string>
#include <vector>

#include "nameserver_core/profile.h"
#include "nameserver_core/route_types.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

// Java: TopicConfigManager's constructor (4.9.8) / init() (5.3.3), with default BrokerConfig and
// MessageStoreConfig switches (traceTopicEnable=false, clusterTopicEnable=true,
// brokerTopicEnable=true, 5.x timerWheelEnable=true, reviveQueueNum=8).
std::vector<core::TopicConfig> broker_system_topics(core::Profile profile,
                                                    const std::string& cluster_name,
                                                    const std::string& broker_name,
                                                    const BrokerConfig& config);

// The full table of one group's brokers: system topics, then the scenario topics it serves.
core::TopicConfigSerializeWrapper broker_topic_table(core::Profile profile,
                                                     const BrokerGroupSpec& group,
                                                     const std::vector<TopicSpec>& topics);

// The size in bytes of the RegisterBrokerBody JSON upstream would send for `wrapper`, computed
// from its contents (field names, values, topic names) without building the text.
std::uint64_t register_body_size_bytes(const core::TopicConfigSerializeWrapper& wrapper);

}  // namespace nssim::sim

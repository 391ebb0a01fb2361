// File: result.json's `consumers` block: per consumer group, what its consumers received of
// what the brokers stored (deliveries, duplicates, never delivered), how long queues stalled,
// how long they had no owner or two, store-to-listener latency, failed pulls and the brokers'
// removals of members. Every figure is defined in reports/README.md ("Consumers").
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "sim/record/consumer_record.h"
#include "sim/record/stored_messages.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

// A queue stalls while it holds a stored message older than this that no consumer received yet,
// and no delivery of the queue happens (the consumers spec's figure 1, with its 1 s); a gap
// shorter than this between deliveries under a backlog is a busy consumer, not a stall.
inline constexpr std::int64_t kStallThresholdMs = 1000;

nlohmann::json consumers_json(const Scenario& scenario, const ConsumerRecord& record,
                              const StoredMessages& stored, std::int64_t end_ms);

}  // namespace nssim::sim

// File: what the push consumers of a run did (sim/consumer): each message delivery to a
// listener, each span in which a consumer held a queue, each pull that failed and each broker
// removal of a consumer's channel. The analysis measures stalls, duplicates and ownership from it
// (sim/analysis/consumer_analysis.h). Plain data, no SimGrid.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "sim/record/send_record.h"
#include "sim/record/stored_messages.h"

namespace nssim::sim {

struct ConsumerRecord {
  // A listener call began for the message at `offset` of queue `queue` (index into queues), on
  // the consumer incarnation `consumer` (index into consumers): ConsumeRequest#run passed its
  // dropped check. stored_ms is when the broker stored the message.
  struct Delivery {
    std::uint32_t queue = 0;
    std::uint32_t consumer = 0;
    std::int64_t offset = 0;
    std::int64_t stored_ms = 0;
    std::int64_t at_ms = 0;
  };
  // A consumer incarnation held a live (not dropped) ProcessQueue for `queue` over
  // [from_ms, to_ms): RebalanceImpl#updateProcessQueueTableInRebalance added it at from_ms and
  // dropped it (or the process ended) at to_ms.
  struct Ownership {
    std::uint32_t queue = 0;
    std::uint32_t consumer = 0;
    std::int64_t from_ms = 0;
    std::int64_t to_ms = 0;
  };
  // A pull of `queue` by `consumer` that ended in an exception or an error code at at_ms (the
  // consumer retries after pullTimeDelayMillsWhenException).
  struct PullFailure {
    std::uint32_t queue = 0;
    std::uint32_t consumer = 0;
    std::int64_t sent_ms = 0;
    std::int64_t at_ms = 0;
    std::string cause;  // "connect_refused", "subscription_not_exist"...
  };
  // A broker dropped a consumer incarnation's channel from its ConsumerManager at at_ms, and
  // whether that sent NOTIFY_CONSUMER_IDS_CHANGED to the group's other channels.
  struct MemberRemoval {
    std::string broker;  // node name
    std::uint32_t consumer = 0;
    std::int64_t at_ms = 0;
    std::string how;  // "channel_close", "idle_close", "expiry_scan"
    bool notified = false;
  };
  // One consumer incarnation: its node, group and clientId, when it started and ended.
  struct Incarnation {
    std::string node;
    std::string group;
    std::string client_id;
    std::int64_t started_ms = 0;
    std::int64_t ended_ms = 0;  // the run's end when it never ended
  };

  // A queue as one group consumes it: two groups subscribing one topic consume each queue
  // apart, each with its own offsets.
  struct GroupQueue {
    std::string group;
    QueueKey queue;
  };
  std::vector<GroupQueue> queues;  // by (group, queue)
  std::vector<Incarnation> consumers;
  std::vector<Delivery> deliveries;   // in time order
  std::vector<Ownership> ownerships;  // in order of their end
  std::vector<PullFailure> pull_failures;
  std::vector<MemberRemoval> removals;
  std::int64_t rebalance_runs = 0;
};

}  // namespace nssim::sim

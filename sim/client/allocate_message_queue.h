// File: the consumer's queue allocation (AllocateMessageQueueAveragely, the push consumer's
// default strategy): which queues of a topic one consumer of a group takes, from the queues it
// knows (its own last route) and the group's members as one broker listed them.
#pragma once

#include <string>
#include <vector>

#include "sim/client/publish_info.h"

namespace nssim::sim {

// Java: RebalanceImpl#rebalanceByTopic sorts both lists before allocating: message queues by
// (topic, brokerName, queueId) (MessageQueue#compareTo; one topic here) and client ids as
// strings.
bool message_queue_less(const MessageQueue& a, const MessageQueue& b);

// Java: AllocateMessageQueueAveragely#allocate, with AbstractAllocateMessageQueueStrategy#check:
// `current_cid`'s contiguous share of `mq_all` among `cid_all`, both sorted as
// rebalanceByTopic sorts them. A consumer that the list does not name gets nothing (upstream
// logs "[BUG] ConsumerId not in cidAll" and returns the empty list), as does one beyond the
// queue count. Upstream throws on empty lists before check; rebalanceByTopic skips the round
// then, which the caller does (it never calls with an empty list).
std::vector<MessageQueue> allocate_message_queue_averagely(const std::vector<MessageQueue>& mq_all,
                                                           const std::vector<std::string>& cid_all,
                                                           const std::string& current_cid);

}  // namespace nssim::sim

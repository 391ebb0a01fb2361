// File: allocate_message_queue_averagely (see allocate_message_queue.h).
#include "sim/client/allocate_message_queue.h"

#include <algorithm>
#include <cstddef>
#include <tuple>

#include "common/invariant.h"

namespace nssim::sim {

bool message_queue_less(const MessageQueue& a, const MessageQueue& b) {
  return std::tie(a.broker_name, a.queue_id) < std::tie(b.broker_name, b.queue_id);
}

std::vector<MessageQueue> allocate_message_queue_averagely(const std::vector<MessageQueue>& mq_all,
                                                           const std::vector<std::string>& cid_all,
                                                           const std::string& current_cid) {
  NSSIM_CHECK(!mq_all.empty() && !cid_all.empty(),
              "allocate_message_queue_averagely needs queues and consumers");
  // Java: cidAll.indexOf(currentCID): the first occurrence (a client id listed twice, from two
  // channels of one client, apache/rocketmq #7870, counts at its first place).
  const auto found = std::find(cid_all.begin(), cid_all.end(), current_cid);
  if (found == cid_all.end()) return {};
  const std::size_t index = static_cast<std::size_t>(found - cid_all.begin());
  const std::size_t queues = mq_all.size();
  const std::size_t consumers = cid_all.size();
  const std::size_t mod = queues % consumers;
  const bool takes_one_more = mod > 0 && index < mod;
  const std::size_t average =
      queues <= consumers ? 1 : (takes_one_more ? queues / consumers + 1 : queues / consumers);
  const std::size_t start = takes_one_more ? index * average : index * average + mod;
  if (start >= queues) return {};
  const std::size_t range = std::min(average, queues - start);
  return {mq_all.begin() + static_cast<std::ptrdiff_t>(start),
          mq_all.begin() + static_cast<std::ptrdiff_t>(start + range)};
}

}  // namespace nssim::sim

// File: a push consumer's ProcessQueue as the model keeps it: the offsets of the messages a
// queue's pulls brought that are not consumed yet, and the offset the consumer may commit.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace nssim::sim {

// Java: ProcessQueue (msgTreeMap keyed by queue offset, queueOffsetMax, dropped,
// lastPullTimestamp), the parts that decide offsets and flow control.
class ProcessQueue {
 public:
  // Java: ProcessQueue#putMessage: offsets already held are not added again; queueOffsetMax is
  // the last newly added one. Returns how many were new.
  std::size_t put_message(const std::vector<std::int64_t>& offsets);
  // Java: ProcessQueue#removeMessage after a consumed batch: the offset to commit, the smallest
  // offset still held, or queueOffsetMax + 1 once none is; nullopt (upstream's -1) when the
  // queue held nothing before the call.
  std::optional<std::int64_t> remove_message(const std::vector<std::int64_t>& offsets);

  // Java: ProcessQueue#getMsgCount and getMaxSpan (last key - first key; 0 when empty): what
  // DefaultMQPushConsumerImpl#pullMessage checks against pullThresholdForQueue and
  // consumeConcurrentlyMaxSpan.
  std::size_t msg_count() const { return held_.size(); }
  std::int64_t max_span() const { return held_.empty() ? 0 : *held_.rbegin() - *held_.begin(); }

  // Java: setDropped / isDropped: a dropped queue stops pulling and its consumed batches no
  // longer move the offset (ConsumeMessageConcurrentlyService#processConsumeResult).
  void set_dropped() { dropped_ = true; }
  bool dropped() const { return dropped_; }

  // Java: lastPullTimestamp and isPullExpired (now - lastPullTimestamp > PULL_MAX_IDLE_TIME,
  // 120 s, sysprop rocketmq.client.pull.pullMaxIdleTime): rebalance drops a queue whose pulls
  // stopped that long.
  void set_last_pull_ms(std::int64_t t_ms) { last_pull_ms_ = t_ms; }
  bool pull_expired(std::int64_t now_ms, std::int64_t pull_max_idle_ms) const {
    return now_ms - last_pull_ms_ > pull_max_idle_ms;
  }

 private:
  std::set<std::int64_t> held_;
  std::int64_t queue_offset_max_ = 0;
  bool dropped_ = false;
  std::int64_t last_pull_ms_ = 0;
};

// Java: ProcessQueue.PULL_MAX_IDLE_TIME (both lines).
inline constexpr std::int64_t kPullMaxIdleTimeMs = 120000;

}  // namespace nssim::sim

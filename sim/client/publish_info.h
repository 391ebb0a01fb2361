// File: a producer's view of one topic: TopicPublishInfo built from a route
// (MQClientInstance#topicRouteData2TopicPublishInfo), its round-robin index (ThreadLocalIndex) and
// queue selection. The client's route-change test: sim/nameserver/route_data_changed.h.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "nameserver_core/profile.h"
#include "nameserver_core/route_types.h"
#include "sim/scenario/rng.h"

namespace nssim::sim {

// Java int arithmetic, which wraps on overflow.
inline std::int32_t java_int_add(std::int32_t a, std::int32_t b) {
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
}
// Java Math.abs(int): Integer.MIN_VALUE stays negative.
inline std::int32_t java_abs(std::int32_t v) { return v == INT32_MIN ? v : (v < 0 ? -v : v); }

// Java: ThreadLocalIndex: the value one thread holds in it (its ThreadLocal<Integer> entry). Each
// sending thread has its own (SendThread, sim/client/send_thread_pool.h), drawn on its first use.
class ThreadLocalIndex {
 public:
  // 4.9: Math.abs(random.nextInt()); 5.x: random.nextInt().
  static ThreadLocalIndex random(core::Profile profile, Rng& rng);
  explicit ThreadLocalIndex(std::int32_t value) : value_(value) {}

  // Java: ThreadLocalIndex#incrementAndGet: pre-increment, then mask to non-negative.
  std::int32_t increment_and_get();
  // Java (5.x): ThreadLocalIndex#reset: Math.abs(random.nextInt(Integer.MAX_VALUE)).
  void reset(Rng& rng);
  std::int32_t value() const { return value_; }

 private:
  std::int32_t value_;
};

// Java: MessageQueue (the topic is the publish info's).
struct MessageQueue {
  std::string broker_name;
  int queue_id = 0;

  friend bool operator==(const MessageQueue& a, const MessageQueue& b) {
    return a.broker_name == b.broker_name && a.queue_id == b.queue_id;
  }
};

// Java: TopicPublishInfo. A new one (with a new sendWhichQueue, so new per-thread values)
// replaces the old on a route change; sends already running keep the one they started with. Its
// picks advance `index`, the calling thread's value of its sendWhichQueue.
class TopicPublishInfo {
 public:
  TopicPublishInfo(std::vector<MessageQueue> queues, core::TopicRouteData route, bool order_topic);

  // Java: TopicPublishInfo#ok.
  bool ok() const { return !message_queue_list_.empty(); }
  bool order_topic() const { return order_topic_; }
  const std::vector<MessageQueue>& message_queue_list() const { return message_queue_list_; }
  const core::TopicRouteData& topic_route_data() const { return topic_route_data_; }
  // The groups that own at least one queue, sorted.
  std::set<std::string> brokers() const;

  // Java: TopicPublishInfo#selectOneMessageQueue(): the plain round-robin pick. Requires ok().
  const MessageQueue& select_one_message_queue(ThreadLocalIndex& index) const;
  // Java: TopicPublishInfo#selectOneMessageQueue(lastBrokerName) [4.9 and 5.x]: up to n picks
  // avoiding lastBrokerName, then a plain pick.
  const MessageQueue& select_one_message_queue(ThreadLocalIndex& index,
                                               const std::optional<std::string>& last_broker) const;
  // The same with lastBrokerName as a pointer (null: none), which the send path keeps into the
  // queue it picked last instead of copying the name.
  const MessageQueue& select_one_message_queue(ThreadLocalIndex& index,
                                               const std::string* last_broker) const;
  // Java (5.x): selectOneMessageQueue(QueueFilter...): up to n picks, the first that passes.
  const MessageQueue* select_one_message_queue(
      ThreadLocalIndex& index, const std::function<bool(const MessageQueue&)>& filter) const;
  // Java (4.9): TopicPublishInfo#getQueueIdByBroker: writeQueueNums of the broker's writable
  // QueueData in the route, or -1.
  int get_queue_id_by_broker(const std::optional<std::string>& broker_name) const;

 private:
  std::size_t position(std::int32_t index) const;

  std::vector<MessageQueue> message_queue_list_;
  core::TopicRouteData topic_route_data_;
  bool order_topic_ = false;
};

// Java: MQClientInstance#topicRouteData2TopicPublishInfo. orderTopicConf ("name:N;name:N") wins
// when non-empty, ignoring perm and masters; otherwise QueueDatas sorted by brokerName, writable,
// whose group has a master (brokerId 0), give writeQueueNums queues each.
TopicPublishInfo topic_route_data_to_topic_publish_info(const core::TopicRouteData& route);

}  // namespace nssim::sim

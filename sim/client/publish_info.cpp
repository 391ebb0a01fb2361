// File: TopicPublishInfo and ThreadLocalIndex, after TopicPublishInfo.java, ThreadLocalIndex.java
// and MQClientInstance#topicRouteData2TopicPublishInfo of both profiles.
#include "sim/client/publish_info.h"

#include <algorithm>
#include <charconv>
#include <functional>
#include <string_view>
#include <utility>

#include "nameserver_core/ids.h"
#include "sim/nameserver/route_data_changed.h"

namespace nssim::sim {

namespace {

constexpr std::int32_t kPositiveMask = 0x7FFFFFFF;

// Java: String#split(sep), which drops trailing empty strings.
std::vector<std::string_view> split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = text.find(sep, begin);
    parts.push_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) break;
    begin = end + 1;
  }
  while (!parts.empty() && parts.back().empty()) parts.pop_back();
  return parts;
}

std::vector<core::QueueData> sorted_queue_datas(std::vector<core::QueueData> queue_datas) {
  std::stable_sort(queue_datas.begin(), queue_datas.end(), ByBrokerName{});
  return queue_datas;
}

}  // namespace

ThreadLocalIndex ThreadLocalIndex::random(core::Profile profile, Rng& rng) {
  const std::int32_t drawn = rng.next_int32();
  return ThreadLocalIndex(profile == core::Profile::kV4_9 ? java_abs(drawn) : drawn);
}

std::int32_t ThreadLocalIndex::increment_and_get() {
  value_ = java_int_add(value_, 1);
  return value_ & kPositiveMask;
}

void ThreadLocalIndex::reset(Rng& rng) {
  value_ = static_cast<std::int32_t>(rng.uniform_u64(static_cast<std::uint64_t>(kPositiveMask)));
}

TopicPublishInfo::TopicPublishInfo(std::vector<MessageQueue> queues, core::TopicRouteData route,
                                   bool order_topic)
    : message_queue_list_(std::move(queues)),
      topic_route_data_(std::move(route)),
      order_topic_(order_topic) {}

std::set<std::string> TopicPublishInfo::brokers() const {
  std::set<std::string> out;
  for (const auto& mq : message_queue_list_) out.insert(mq.broker_name);
  return out;
}

std::size_t TopicPublishInfo::position(std::int32_t index) const {
  // Java: Math.abs(index) % size, and "if (pos < 0) pos = 0" for Integer.MIN_VALUE.
  const auto n = static_cast<std::int64_t>(message_queue_list_.size());
  const std::int64_t pos = static_cast<std::int64_t>(java_abs(index)) % n;
  return pos < 0 ? 0 : static_cast<std::size_t>(pos);
}

const MessageQueue& TopicPublishInfo::select_one_message_queue(ThreadLocalIndex& index) const {
  return message_queue_list_[position(index.increment_and_get())];
}

const MessageQueue& TopicPublishInfo::select_one_message_queue(
    ThreadLocalIndex& index, const std::optional<std::string>& last_broker) const {
  return select_one_message_queue(index, last_broker ? &*last_broker : nullptr);
}

const MessageQueue& TopicPublishInfo::select_one_message_queue(
    ThreadLocalIndex& index, const std::string* last_broker) const {
  if (last_broker == nullptr) return select_one_message_queue(index);
  for (std::size_t i = 0; i < message_queue_list_.size(); ++i) {
    const MessageQueue& mq = select_one_message_queue(index);
    if (mq.broker_name != *last_broker) return mq;
  }
  return select_one_message_queue(index);
}

const MessageQueue* TopicPublishInfo::select_one_message_queue(
    ThreadLocalIndex& index, const std::function<bool(const MessageQueue&)>& filter) const {
  for (std::size_t i = 0; i < message_queue_list_.size(); ++i) {
    const MessageQueue& mq = select_one_message_queue(index);
    if (filter(mq)) return &mq;
  }
  return nullptr;
}

int TopicPublishInfo::get_queue_id_by_broker(const std::optional<std::string>& broker_name) const {
  if (!broker_name) return -1;
  for (const auto& qd : topic_route_data_.queue_datas) {
    if (core::perm::is_writeable(qd.perm) && qd.broker_name == *broker_name) {
      return qd.write_queue_nums;
    }
  }
  return -1;
}

TopicPublishInfo topic_route_data_to_topic_publish_info(const core::TopicRouteData& route) {
  core::TopicRouteData kept = route;
  kept.queue_datas = sorted_queue_datas(route.queue_datas);  // Java sorts the route in place
  std::vector<MessageQueue> queues;
  if (route.order_topic_conf && !route.order_topic_conf->empty()) {
    for (std::string_view broker : split(*route.order_topic_conf, ';')) {
      const auto item = split(broker, ':');
      int nums = 0;
      // Java: Integer.parseInt(item[1]) throws on a malformed entry and the whole route update
      // fails; the model skips the entry instead.
      if (item.size() < 2 ||
          std::from_chars(item[1].data(), item[1].data() + item[1].size(), nums).ec !=
              std::errc{}) {
        continue;
      }
      for (int i = 0; i < nums; ++i) queues.push_back(MessageQueue{std::string(item[0]), i});
    }
    return TopicPublishInfo(std::move(queues), std::move(kept), /*order_topic=*/true);
  }
  // 5.x: a route with topicQueueMappingByBroker (static topics) takes another branch upstream;
  // scenarios have no static topics, so the mapping is ignored here.
  for (const auto& qd : kept.queue_datas) {
    if (!core::perm::is_writeable(qd.perm)) continue;
    const auto bd = std::find_if(kept.broker_datas.begin(), kept.broker_datas.end(),
                                 [&](const auto& b) { return b.broker_name == qd.broker_name; });
    if (bd == kept.broker_datas.end() || !bd->broker_addrs.contains(core::kMasterId)) continue;
    for (int i = 0; i < qd.write_queue_nums; ++i) queues.push_back(MessageQueue{qd.broker_name, i});
  }
  return TopicPublishInfo(std::move(queues), std::move(kept), /*order_topic=*/false);
}

}  // namespace nssim::sim

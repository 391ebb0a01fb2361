// File: topic_route_data_changed (see route_data_changed.h), after MQClientInstance.java (4.9) and
// TopicRouteData.java (5.x).
#include "sim/nameserver/route_data_changed.h"

#include <algorithm>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace nssim::sim {

namespace {

// Java: BrokerData#equals compares brokerName and brokerAddrs only.
bool same_broker_data(const core::BrokerData& a, const core::BrokerData& b) {
  return a.broker_name == b.broker_name && a.broker_addrs == b.broker_addrs;
}

// Whether two lists are equal once each is stably sorted by brokerName, comparing with `same`.
// Routes come from the NameServer already sorted, so the copies are made only when needed: every
// producer compares every route it polls.
template <typename T, typename Same>
bool same_when_sorted(const std::vector<T>& a, const std::vector<T>& b, Same same) {
  if (a.size() != b.size()) return false;
  const auto sorted = [](const std::vector<T>& v) {
    return std::is_sorted(v.begin(), v.end(), ByBrokerName{});
  };
  if (sorted(a) && sorted(b)) return std::equal(a.begin(), a.end(), b.begin(), same);
  std::vector<T> a_sorted = a;
  std::vector<T> b_sorted = b;
  std::stable_sort(a_sorted.begin(), a_sorted.end(), ByBrokerName{});
  std::stable_sort(b_sorted.begin(), b_sorted.end(), ByBrokerName{});
  return std::equal(a_sorted.begin(), a_sorted.end(), b_sorted.begin(), same);
}

bool same_mapping(const std::optional<std::map<std::string, core::TopicQueueMappingInfo>>& a,
                  const std::optional<std::map<std::string, core::TopicQueueMappingInfo>>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return std::equal(a->begin(), a->end(), b->begin(), b->end(), [](const auto& x, const auto& y) {
    return x.first == y.first && x.second.bname == y.second.bname && x.second.json == y.second.json;
  });
}

}  // namespace

bool topic_route_data_changed(const std::optional<core::TopicRouteData>& old_route,
                              const core::TopicRouteData& new_route, core::Profile profile) {
  return topic_route_data_changed(old_route ? &*old_route : nullptr, new_route, profile);
}

bool topic_route_data_changed(const core::TopicRouteData* old_route,
                              const core::TopicRouteData& new_route, core::Profile profile) {
  if (old_route == nullptr) return true;
  const core::TopicRouteData& old = *old_route;
  if (old.order_topic_conf != new_route.order_topic_conf) return true;
  if (!same_when_sorted(old.queue_datas, new_route.queue_datas, std::equal_to<core::QueueData>{})) {
    return true;
  }
  if (!same_when_sorted(old.broker_datas, new_route.broker_datas, same_broker_data)) return true;
  if (old.filter_server_table != new_route.filter_server_table) return true;
  // Only 5.x's TopicRouteData#equals includes topicQueueMappingByBroker.
  return profile == core::Profile::kV5 &&
         !same_mapping(old.topic_queue_mapping_by_broker, new_route.topic_queue_mapping_by_broker);
}

}  // namespace nssim::sim

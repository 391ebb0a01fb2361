// File: whether a route answer differs from the one before, the comparison a client makes of each
// answer (whether to rebuild its publish info) and RouteHistory makes of each NameServer's answers
// (whether to keep a new entry). A pure comparison of two TopicRouteData, below both.
#pragma once

#include <optional>

#include "nameserver_core/profile.h"
#include "nameserver_core/route_types.h"

namespace nssim::sim {

// Java: QueueData#compareTo and BrokerData#compareTo order by brokerName only; Collections.sort
// is stable.
struct ByBrokerName {
  template <typename T>
  bool operator()(const T& a, const T& b) const {
    return a.broker_name < b.broker_name;
  }
};

// Java: MQClientInstance#topicRouteDataIsChange (4.9) / TopicRouteData#topicRouteDataChanged
// (5.x): both lists sorted by brokerName, then compared field by field. No old route is a change.
bool topic_route_data_changed(const std::optional<core::TopicRouteData>& old_route,
                              const core::TopicRouteData& new_route, core::Profile profile);
// The same, without copying the old route: nullptr is no old route.
bool topic_route_data_changed(const core::TopicRouteData* old_route,
                              const core::TopicRouteData& new_route, core::Profile profile);

}  // namespace nssim::sim

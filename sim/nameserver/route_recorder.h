// File: how one NameServer incarnation keeps its part of RouteHistory current at a small cost.
// After each request or channel event the registry may have changed; asking the request processor
// for every recorded topic each time would cost more than the registration itself, so the recorder
// asks only for the topics the change can reach: for a registration, those whose last answer names
// its broker group or that its body reports, and only if the group's entries in the tables changed
// (most periodic registrations change nothing); for a removal, those naming the removed address's
// group. Anything else (admin requests, KV and config updates, the start) asks for every topic.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "nameserver_core/name_server.h"
#include "sim/nameserver/route_history.h"

namespace nssim::sim {

class RouteRecorder {
 public:
  RouteRecorder(RouteHistory& routes, NodeId nameserver, core::Profile profile);

  // What `request`, about to be handled by `server`, may change: a REGISTER_BROKER its group's
  // entries; reads, liveness refreshes (QUERY_DATA_VERSION, BROKER_HEARTBEAT) and
  // UNREGISTER_BROKER (whose removals are touched as such) nothing; any other request every
  // topic.
  void touch_request(const core::RemotingRequest& request, const core::NameServer& server);
  // The broker removals a request, a channel close or a scan made.
  void touch_removals(const std::vector<core::BrokerRemoval>& removals);
  void touch_all() { all_ = true; }

  // Records in RouteHistory, at now_ms, the answer of GET_ROUTEINFO_BY_TOPIC for every topic
  // touched since the last call, as `server`'s processor gives it.
  void record(core::NameServer& server, std::int64_t now_ms);

 private:
  // One broker group's entries in the tables a route is built from, for the given topics.
  struct GroupEntries {
    std::optional<core::BrokerData> broker_data;
    std::vector<std::optional<core::QueueData>> queue_datas;  // per topic
  };
  static bool same_entries(const GroupEntries& a, const GroupEntries& b);
  // A registration being handled: its group, the topics it can reach, and the entries before.
  struct Registration {
    std::string group;
    std::vector<std::size_t> topics;
    GroupEntries before;
  };
  GroupEntries entries_of(const core::NameServer& server, const Registration& registration) const;
  void touch_group(const std::string& broker_name);
  void index(std::size_t topic, const core::TopicRouteData* answer);

  RouteHistory& routes_;
  NodeId nameserver_;
  std::vector<core::RemotingRequest> requests_;  // per topic of routes_, built once
  bool all_ = true;
  // route_change_count at the last record: while it holds, no touched answer can have changed.
  std::optional<std::uint64_t> recorded_route_count_;
  std::set<std::size_t> touched_;
  std::optional<Registration> registration_;
  // Broker group -> topics whose last recorded answer names it, and the reverse.
  std::map<std::string, std::set<std::size_t>> topics_of_group_;
  std::vector<std::set<std::string>> groups_of_topic_;
};

}  // namespace nssim::sim

// File: how one NameServer incarnation keeps its part of RouteHistory current at a small cost.
// After each request or channel event the registry may have changed; asking for every recorded
// topic each time would cost more than the registration itself, so the recorder looks only at what
// the change can reach: for a registration, its broker group in the topics it was in or that its
// body reports; for a removal, the removed address's group in the topics it was in. Anything else
// (admin requests, KV and config updates, the start) looks at every topic.
// While a route is its groups' entries alone (no filter servers, static mappings, orderTopicConf,
// acting-master rewrite or "not ready" answer: answers_are_groups), the recorder reads those
// entries from the tables and records only the touched groups' (RouteHistory::record_groups), so
// a registration costs the same however many groups a route lists; otherwise it asks the request
// processor for each touched topic's whole answer, as a client would.
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
  // Whether every answer of `server` at now_ms is its groups' entries alone (RouteHistory::
  // record_groups): what build_topic_route_data and the processor add around them is absent.
  bool answers_are_groups(const core::NameServer& server, std::int64_t now_ms) const;
  RouteHistory::GroupEntry entry_of(const core::RouteInfoManager& rim, std::size_t topic,
                                    const std::string& group) const;
  void record_whole(core::NameServer& server, std::size_t topic, std::int64_t now_ms);
  void touch_group(const std::string& group);
  void index(std::size_t topic, const std::string& group, bool listed);

  RouteHistory& routes_;
  NodeId nameserver_;
  core::Profile profile_;
  std::vector<core::RemotingRequest> requests_;  // per topic of routes_, built once
  bool all_ = true;
  std::optional<bool> by_groups_;  // how the last record recorded
  // route_change_count at the last record: while it holds, no touched answer can have changed.
  std::optional<std::uint64_t> recorded_route_count_;
  std::map<std::size_t, std::set<std::string>> touched_;  // topic -> groups that may have changed
  // Broker group -> topics whose last recorded answer lists it, and the reverse.
  std::map<std::string, std::set<std::size_t>> topics_of_group_;
  std::vector<std::set<std::string>> groups_of_topic_;
};

}  // namespace nssim::sim

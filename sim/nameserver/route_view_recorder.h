// File: a NameServer's route view, as the `route_view` event logs it, kept at the cost of what
// changed. The view is brokerAddrTable's groups with their ids and addresses, and a digest of
// which groups each topic of topicQueueTable can be written to. A registration storm changes the
// tables once per broker: rebuilding the view from whole tables made each change cost O(groups)
// and the storm O(groups^2). So, as RouteRecorder does for route answers (route_recorder.cpp says
// why that is enough), a registration or a removal updates only its own group's part: its
// addresses, and its queue in the topics it had or that its body reports. Any other request that
// moved route_change_count rebuilds the view from the tables.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "nameserver_core/name_server.h"

namespace nssim::sim {

class RouteViewRecorder {
 public:
  // What `request`, about to be handled by `server`, may change (as RouteRecorder::touch_request).
  void touch_request(const core::RemotingRequest& request);
  // The broker removals a request, a channel close or a scan made.
  void touch_removals(const std::vector<core::BrokerRemoval>& removals);
  // The next change rebuilds the view from the whole tables.
  void touch_all() { all_ = true; }

  // The view's change since the last call, as the `route_view` event's fields ({"changed": {group:
  // {id: address} or null}, "topics_digest": N}), or nullopt when the view is the same.
  std::optional<nlohmann::json> take_change(const core::RouteInfoManager& rim);

  // The digest of the view as last taken: a sum over topicQueueTable's topics and its writable
  // (topic, group) pairs of a 64-bit hash each, so it is updated pair by pair; equal digests,
  // equal writable routes (up to a 2^-64 chance).
  std::uint64_t digest() const { return digest_; }

 private:
  using Addrs = std::map<std::int64_t, std::string>;
  // Updates group's part from the tables: its addresses into `changed`, its queues over
  // `topics` (plus those it had) into the digest.
  void update_group(const core::RouteInfoManager& rim, const std::string& group,
                    const std::set<std::string>& topics, nlohmann::json& changed);
  void rebuild(const core::RouteInfoManager& rim, nlohmann::json& changed);
  void set_topic_present(const std::string& topic, bool present);
  void set_queue(const std::string& topic, const std::string& group, const core::QueueData* queue);

  bool all_ = true;
  bool logged_any_ = false;
  std::map<std::string, std::set<std::string>> touched_;  // group -> topics its body reports
  std::optional<std::uint64_t> viewed_route_count_;
  std::uint64_t digest_ = 0;
  // The view as last taken: groups and their addresses; per group, the topics it has a queue in
  // and whether that queue is writable; the topics present.
  std::map<std::string, Addrs> groups_;
  std::map<std::string, std::map<std::string, bool>> queues_of_group_;
  std::set<std::string> topics_;
};

}  // namespace nssim::sim

// File: what each NameServer would answer to GET_ROUTEINFO_BY_TOPIC over time, for the topics
// producers use. The NameServer actors append to it as their registries change; producer models,
// which run behind the simulated present, read it at past instants to evaluate a send's
// synchronous route query (DefaultMQProducerImpl#tryToFindTopicPublishInfo) without a SimGrid
// message. Pure.
//
// Answers are kept as changes where they can be. The default topic TBW102 is served by every
// group, so its route lists them all, and a registration storm changes it once per broker: a
// whole copy per change made memory grow as groups^2. So an answer built from the tables alone
// (RouteRecorder says when) is recorded per group, as the group's entries that changed, and
// rebuilt whole only when read or, as a checkpoint, once per as many changes as it has groups.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nameserver_core/route_types.h"
#include "sim/network/network_history.h"

namespace nssim::sim {

class RouteHistory {
 public:
  // One group's entries in a topic's route: its QueueData, and its BrokerData as the route
  // lists it (pickupTopicRouteData's clone; absent when brokerAddrTable has no such group). No
  // queue means the group is not in the topic.
  struct GroupEntry {
    std::optional<core::QueueData> queue;
    std::optional<core::BrokerData> broker;
  };

  // Only `topics` are recorded (sorted, duplicates dropped): the producers' topics and the
  // default topic TBW102.
  explicit RouteHistory(std::vector<std::string> topics);

  const std::vector<std::string>& topics() const { return topics_; }
  // The position of `topic` in topics(), if it is recorded.
  std::optional<std::size_t> topic_index(const std::string& topic) const;

  // The answer `nameserver` gives for topics()[topic] from t_ms on: a route (SUCCESS), or nullopt
  // for any other code (TOPIC_NOT_EXIST, 5.x "name server not ready"). Kept only when it differs
  // from the answer in force, compared as clients compare routes (5.x TopicRouteData#equals:
  // everything a producer reads). Times must not decrease per NameServer and topic; an answer
  // recorded at the instant of the previous one replaces it.
  void record(NodeId nameserver, std::size_t topic, std::optional<core::TopicRouteData> answer,
              std::int64_t t_ms);
  // The same for an answer that is its groups' entries alone (no orderTopicConf, filter servers,
  // static mappings or acting-master rewrite): a route listing every group with a queue, or, when
  // none has a BrokerData, no route. `whole`: `entries` are every group of the topic; otherwise
  // they are the groups that may have changed since the last record, which must have been of
  // this kind. Kept only when some group's entries changed; at the instant of the previous
  // answer, the changes join it.
  void record_groups(NodeId nameserver, std::size_t topic,
                     std::vector<std::pair<std::string, GroupEntry>> entries, bool whole,
                     std::int64_t t_ms);
  // The answer in force at t_ms: the last one recorded at or before it. nullptr when that is not
  // a route, or when nothing was recorded by then (a NameServer that never ran answers nothing;
  // NetworkHistory says whether a request reaches it at all). Valid until the next call for the
  // same NameServer and topic, or for as long as the history when the answer is a checkpoint.
  const core::TopicRouteData* answer_at(NodeId nameserver, const std::string& topic,
                                        std::int64_t t_ms) const;
  // How many answers are kept, over all NameServers and topics.
  std::size_t size() const;

 private:
  struct Version {
    std::int64_t since_ms = 0;
    std::size_t changes_end = 0;  // this version applied its timeline's changes before this
    bool is_route = false;
    // The whole route: the answer itself when recorded by `record` (empty for no route), else a
    // checkpoint of the groups (kept also when no group has a BrokerData, for later changes to
    // apply to); null between checkpoints.
    std::shared_ptr<const core::TopicRouteData> whole;
  };
  struct Timeline {
    std::vector<Version> versions;
    std::vector<std::pair<std::string, GroupEntry>> changes;  // in order, later ones win
    std::map<std::string, GroupEntry> groups;                 // as of the last version
    std::size_t groups_with_broker = 0;                       // of `groups`
    bool by_groups = false;  // the last version came from record_groups
    std::size_t changes_since_checkpoint = 0;
    // The last version built on demand between checkpoints.
    mutable std::size_t built_index = 0;
    mutable std::shared_ptr<const core::TopicRouteData> built;
  };

  Timeline& timeline(NodeId nameserver, std::size_t topic);
  // Drops the last version and the changes only it applied.
  static void pop_back(Timeline& line);
  static std::shared_ptr<const core::TopicRouteData> build(
      const std::map<std::string, GroupEntry>& groups);
  static const core::TopicRouteData* version_route(const Timeline& timeline, std::size_t index);

  std::vector<std::string> topics_;
  std::map<std::string, std::size_t> index_;
  // nameserver -> per topic (index into topics_).
  std::map<NodeId, std::vector<Timeline>> timelines_;
};

}  // namespace nssim::sim

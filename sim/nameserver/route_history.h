// File: what each NameServer would answer to GET_ROUTEINFO_BY_TOPIC over time, for the topics
// producers use. The NameServer actors append to it as their registries change; producer models,
// which run behind the simulated present, read it at past instants to evaluate a send's
// synchronous route query (DefaultMQProducerImpl#tryToFindTopicPublishInfo) without a SimGrid
// message. Pure.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nameserver_core/route_types.h"
#include "sim/network/network_history.h"

namespace nssim::sim {

class RouteHistory {
 public:
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
  // The answer in force at t_ms: the last one recorded at or before it. nullptr when that is not
  // a route, or when nothing was recorded by then (a NameServer that never ran answers nothing;
  // NetworkHistory says whether a request reaches it at all).
  const core::TopicRouteData* answer_at(NodeId nameserver, const std::string& topic,
                                        std::int64_t t_ms) const;
  // How many answers are kept, over all NameServers and topics.
  std::size_t size() const;

 private:
  struct Entry {
    std::int64_t since_ms = 0;
    std::optional<core::TopicRouteData> answer;
  };
  std::vector<std::string> topics_;
  std::map<std::string, std::size_t> index_;
  // nameserver -> per topic (index into topics_), time-ordered.
  std::map<NodeId, std::vector<std::vector<Entry>>> entries_;
};

}  // namespace nssim::sim

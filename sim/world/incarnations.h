// File: the processes of a run over time: which incarnation of each node is running, how a new
// one starts (route tables empty, KV configuration and broker topic tables as persisted), and
// how one ends. Node objects outlive their actors, so timers of a killed process never dangle.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <simgrid/s4u/Actor.hpp>
#include <utility>
#include <vector>

#include "nameserver_core/kv_config_manager.h"
#include "nameserver_core/route_types.h"
#include "sim/nameserver/route_history.h"
#include "sim/record/world_record.h"
#include "sim/world/node_actor.h"
#include "sim/world/producer_fleet.h"

namespace nssim::sim {

class Net;

// The topics whose NameServer answers RouteHistory keeps: the default topic TBW102, every
// producer's, and every consumer's subscriptions (the consumer model reads their routes after
// the run).
std::vector<std::string> route_query_topics(const Scenario& scenario);

class Incarnations {
 public:
  Incarnations(const Scenario& scenario, WorldRecord& record, Net& net);

  // Starts a new incarnation of `node` now (NetworkHistory epoch + 1). A producer's process is a
  // model in the producer fleet, and a consumer's is evaluated after the run from NetworkHistory
  // alone, neither an actor: current() stays null for them.
  void start(NodeId node);
  // Ends the running incarnation: its actor is killed and its connections close as `kind` says.
  void end(NodeId node, DownKind kind);
  // Forgets an incarnation that ended by itself (a clean broker shutdown).
  void forget(NodeId node);
  NodeActor* current(NodeId node) const;
  // Whether a process of `node` runs (an actor's, or a consumer's, which has none).
  bool running(NodeId node) const;
  simgrid::s4u::ActorPtr actor(NodeId node) const;
  // mqadmin updateTopic against `node`'s broker (AdminBrokerProcessor#updateAndCreateTopic): the
  // topic goes into its persisted table, which later incarnations load. False when no running
  // broker process is there to answer.
  bool update_topic(NodeId node, const core::TopicConfig& config);
  ProducerFleet& producers() { return producers_; }
  // What the NameServers answered for every topic a client asks about (producers' and
  // consumers' topics, and TBW102): complete once the engine has run.
  const RouteHistory& routes() const { return routes_; }
  // How long the run must go on after its end for producers' last sends to be evaluated.
  std::int64_t max_lag_ms() const { return producers_.max_lag_ms(); }

 private:
  struct Slot {
    NodeActor* node = nullptr;
    simgrid::s4u::ActorPtr actor;
  };

  const Scenario& scenario_;
  WorldRecord& record_;
  Net& net_;
  std::vector<Slot> current_;
  std::vector<bool> consumer_up_;  // per node: a consumer process runs
  // Per broker node, its topics.json: created at its first start, kept across restarts.
  std::map<NodeId, core::TopicConfigSerializeWrapper> persisted_topics_;
  std::vector<core::KvConfigManager> kv_;  // per node (NameServers)
  // What the NameServers answer for the clients' topics, which sends' route queries read.
  RouteHistory routes_;
  ProducerFleet producers_;
  std::vector<std::unique_ptr<NodeActor>> graveyard_;
};

}  // namespace nssim::sim

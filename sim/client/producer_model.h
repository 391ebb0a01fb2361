// File: a RocketMQ producer as a pure discrete-event model: publish info built from routes, queue
// selection, MQFaultStrategy / LatencyFaultTolerance, the sync send retry loop of
// DefaultMQProducerImpl#sendDefaultImpl, the route query a send makes when it has no usable
// publish info, and the client's scheduler thread (route poll, cleanOfflineBroker and heartbeats
// to the brokers' masters), all evaluated against NetworkHistory and
// RouteHistory instead of sending SimGrid messages. The world's producer fleet advances it in time.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "nameserver_core/profile.h"
#include "nameserver_core/route_types.h"
#include "sim/client/nameserver_client.h"
#include "sim/client/netty_remoting_client.h"
#include "sim/client/publish_info.h"
#include "sim/nameserver/route_history.h"
#include "sim/network/network_history.h"
#include "sim/record/event_log.h"
#include "sim/record/producer_observer.h"
#include "sim/record/trace_sink.h"
#include "sim/scenario/rng.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

// AddressBook: sim/network/network_history.h.
// kTimedWaitOverrunMs: sim/client/netty_remoting_client.h.

// The size of a GET_ROUTEINFO_BY_TOPIC request (header and topic), whoever sends it.
inline constexpr std::int64_t kRouteRequestBytes = 256;

// The default topic a send without any route info asks for next. Java: DefaultMQProducer's
// createTopicKey default, TopicValidator.AUTO_CREATE_TOPIC_KEY_TOPIC (5.x asks for it whatever
// createTopicKey says); nssim has no setting for it. Brokers register it when
// autoCreateTopicEnable.
inline constexpr const char* kAutoCreateTopicKeyTopic = "TBW102";

// What the producer's route queries (the scheduled poll's and its sends') start from and read:
// its remoting client's NameServer list and choice as it starts, and every NameServer's answers
// over time. `log` (optional) takes the poll's route_poll_failed lines.
struct RouteQuerySources {
  const RouteHistory& routes;
  NameServerClient nameservers;
  EventLog* log = nullptr;
};

// Sends are concurrent (open-loop arrivals, one sync send each) and share the producer's publish
// info, fault table, connections and lockNamesrv, as upstream's threads do. Each runs on a thread
// of the producer's own cached thread pool (sim/client/send_thread_pool.h), whose round-robin
// index values (ThreadLocalIndex) are its own.
// One DefaultMQProducer registered in the model's client instance: its set and who measures it.
struct InstanceProducer {
  const ProducerSpec& spec;
  ProducerObserver& observer;
};

class ProducerModel {
 public:
  // A client instance (MQClientInstance) in process `self` with the producers registered in it,
  // at least one; the first one's ClientConfig is the instance's (MQClientManager#
  // getOrCreateMQClientInstance creates it with the first caller's), and its observer takes what
  // the instance does (route updates, publish infos, scheduler runs, heartbeats). Each producer
  // has its own sends, arrivals and MQFaultStrategy. The specs, `network`, `addresses` and
  // `sources.routes` are shared, not copied: they must outlive the model (every producer of a
  // set reads one spec).
  ProducerModel(const std::vector<InstanceProducer>& producers, core::Profile profile, NodeId self,
                std::string name, const NetworkHistory& network, const AddressBook& addresses,
                RouteQuerySources sources, Rng rng, std::int64_t start_ms);
  // An instance with one producer, as upstream's default instanceName gives every producer.
  ProducerModel(const ProducerSpec& spec, core::Profile profile, NodeId self, std::string name,
                const NetworkHistory& network, const AddressBook& addresses,
                RouteQuerySources sources, Rng rng, ProducerObserver& observer,
                std::int64_t start_ms);
  ~ProducerModel();
  ProducerModel(const ProducerModel&) = delete;
  ProducerModel& operator=(const ProducerModel&) = delete;

  // Java: MQClientInstance#startScheduledTask, on the client's one scheduler thread at a fixed
  // rate from start_ms: the route poll (10 ms after it, then every pollNameServerInterval) and
  // cleanOfflineBroker + the heartbeats to every master of the broker address table (1000 ms,
  // heartbeatBrokerInterval). Without it the model only learns routes from its sends' own queries
  // and from on_route, and sends no heartbeat.
  void start_scheduled_task();
  // A route answer for `topic` that arrived at t_ms from outside the model
  // (MQClientInstance#updateTopicRouteInfoFromNameServer). nullopt is any non-SUCCESS answer
  // (TOPIC_NOT_EXIST...): the cached route is kept. It takes effect at t_ms in the model's
  // timeline, so t_ms must not precede the last advance_to. `query` only goes into the trace
  // (on_route_update); models nobody traces may leave it empty.
  void on_route(const std::string& topic, std::optional<core::TopicRouteData> route,
                std::int64_t t_ms, const RouteQuery& query = {});
  // A route query for `topic` that got no answer by t_ms (the invoke failed): nothing changes,
  // as upstream logs the exception and keeps its route; it is only reported (on_route_update)
  // in the model's timeline, so t_ms must not precede the last advance_to either.
  void on_route_failed(const std::string& topic, std::int64_t t_ms, const RouteQuery& query);
  // Evaluates every pending event up to and including t_ms. The caller must only advance to
  // instants whose future is known for `lag_ms()` beyond them: in NetworkHistory, and in the
  // RouteHistory of RouteQuerySources.
  void advance_to(std::int64_t t_ms);
  // How far behind the present the model must stay: the furthest one step of a send looks ahead
  // of the instant it is evaluated at, plus the timed-wait overruns. An attempt's connect
  // (connectTimeoutMillis) and then its request (at most sendMsgTimeout); a route query's connect
  // and then its request (at most mqClientApiTimeout), whose answer is read from RouteHistory at
  // the instant the NameServer processes it, before that deadline. The poll's queries are such
  // route queries, and a heartbeat looks as far: its connect, then its request within
  // mqClientApiTimeout of its start.
  std::int64_t lag_ms() const;

  const std::string& name() const;
  // Sends that have arrived but not ended by the last advance_to (never reported if the run ends).
  std::size_t in_flight_sends() const;
  // The publish info sends of `topic` start with now, if a route has ever been applied.
  const TopicPublishInfo* publish_info(const std::string& topic) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace nssim::sim

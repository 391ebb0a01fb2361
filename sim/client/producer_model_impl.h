// File: the private state of ProducerModel, shared by its sources: producer_model.cpp (events,
// arrivals, route answers), producer_send.cpp (DefaultMQProducerImpl#sendDefaultImpl),
// producer_route_query.cpp (tryToFindTopicPublishInfo: lockNamesrv and the NameServer request),
// producer_scheduled_tasks.cpp (the client's scheduler thread), producer_route_poll.cpp (its
// route poll), client_heartbeat.cpp (its cleanOfflineBroker and heartbeats) and
// producer_remoting.cpp (requests over NettyRemotingClient). The state lives as upstream's
// objects: the client instance (MQClientInstance, mq_client_instance.h, with its
// NettyRemotingClient) and the producer (DefaultMQProducerImpl, default_mq_producer_impl.h); Impl
// adds the event loop that drives them and the tasks upstream's scheduled executor runs.
#pragma once

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <queue>
#include <string>
#include <vector>

#include "sim/client/client_scheduler.h"
#include "sim/client/default_mq_producer_impl.h"
#include "sim/client/mq_client_instance.h"
#include "sim/client/producer_model.h"

namespace nssim::sim {

struct ProducerModel::Impl {
  Impl(const std::vector<InstanceProducer>& producers, core::Profile profile, NodeId self,
       std::string name, const NetworkHistory& network, const AddressBook& addresses,
       RouteQuerySources sources, Rng rng, std::int64_t start_ms);

  // The client state, split as upstream's objects: the client instance (its tables, lockNamesrv
  // and its remoting client) and the producer (DefaultMQProducerImpl: its sends).
  using PublishEntry = MQClientInstance::PublishEntry;
  using Channel = NettyRemotingClient::Channel;
  using InvokeResult = NettyRemotingClient::InvokeResult;
  using RouteCall = MQClientInstance::RouteCall;

  // ---- events (producer_model.cpp) ----
  enum class EventKind {
    kArrival,
    kRoute,
    kAttemptDone,
    kConnectDone,
    kLockTimeout,
    kQueryConnectDone,
    kQueryDone,
    kScheduledRun,
    kHeartbeatDone
  };
  struct Event {
    std::int64_t t_ms = 0;
    std::uint64_t seq = 0;  // ties at one instant run in scheduling order
    EventKind kind = EventKind::kArrival;
    // send id, channel id, route answer id, lock waiter (caller), the heartbeat's token or the
    // arriving producer's index
    std::uint64_t a = 0;
    std::uint64_t b = 0;  // the send's token (for events a later plan replaces), or a deadline
  };
  struct Later {
    bool operator()(const Event& x, const Event& y) const {
      return x.t_ms != y.t_ms ? x.t_ms > y.t_ms : x.seq > y.seq;
    }
  };
  void schedule(std::int64_t t_ms, EventKind kind, std::uint64_t a = 0, std::uint64_t b = 0);
  void run(const Event& event);
  struct Producer;
  void on_arrival(Producer& producer, std::int64_t t_ms);
  // The producer's arrival k, unless it falls beyond any clock.
  void schedule_arrival(Producer& producer, std::uint64_t k);
  // Java: MQClientInstance#updateTopicRouteInfoFromNameServer, from the answer on. Every route
  // answer goes through here, whoever asked, and is traced here. nullptr: a non-SUCCESS answer;
  // a route is copied only when it changes the tables.
  void on_route_answer(const std::string& topic, const core::TopicRouteData* route,
                       std::int64_t t_ms, const RouteQuery& query);
  // The one place route updates reach the observer (and so the trace).
  void report_route_update(const std::string& topic, const RouteQuery& query, std::int64_t t_ms,
                           std::vector<std::string> gained, std::vector<std::string> lost);
  // The earliest instant a later report can end at, once everything up to t_ms is evaluated.
  std::int64_t report_frontier(std::int64_t t_ms) const;

  // ---- sends (producer_send.cpp) ----
  using Send = DefaultMQProducerImpl::Send;
  // A send takes or lets go of the publish info it keeps for its whole run.
  void hold_info(Send& send, PublishEntry* entry);
  void release_info(Send& send);
  // A send and its producer, found once per event from the send's id (send_ref) and handed down
  // the steps that event runs: the hot path looks neither up again.
  struct SendRef {
    Producer& producer;
    Send& send;
  };
  void begin_send(SendRef ref, std::int64_t t_ms);
  // The send loop with the publish info now in the table, or "No route info of this topic".
  void start_with_publish_info(SendRef ref, std::int64_t t_ms);
  // The send's thread's values of its publish info's sendWhichQueue (drawn on the thread's first
  // pick from that publish info) and of whichItemWorst.
  ThreadIndexes thread_indexes(SendRef ref);
  // One pass of sendDefaultImpl's loop from its top: select, budget check, sendKernelImpl.
  void iterate(SendRef ref, std::int64_t t_ms);
  void start_attempt(SendRef ref, std::int64_t t_ms, std::int64_t timeout_ms);
  // An attempt ended: record it, update the fault item per exception kind, loop or return.
  void complete_attempt(SendRef ref, std::int64_t t_ms, SendCause cause);
  void finish_send(SendRef ref, std::int64_t t_ms, SendCause cause);

  // ---- requests over the remoting client (producer_remoting.cpp) ----
  // A channel's waiting and pending requests are sends' ids, or kHeartbeatCaller for the one
  // heartbeat the scheduler thread may have in flight.
  // Java: NettyRemotingClient#invokeSync up to the channel: getAndCreateChannel.
  void invoke_sync(SendRef ref, std::int64_t t_ms);
  void on_connect_done(std::uint64_t channel_id, std::int64_t t_ms);
  // `channel` is channels[channel_id], passed along so that the hot path looks it up once.
  void send_request(SendRef ref, std::uint64_t channel_id, Channel& channel, std::int64_t t_ms);
  void plan(Send& send, std::uint64_t channel_id, Channel& channel, std::int64_t end_ms,
            SendCause cause, bool close);
  void on_attempt_done(std::uint64_t id, std::uint64_t token, std::int64_t t_ms);
  // Java: NettyRemotingClient#closeChannel; fail_fast: NettyRemotingAbstract#failFast, run by the
  // pipeline's close() (a local close, an RST), not by a FIN in 4.9.
  void close_channel(std::uint64_t channel_id, std::int64_t t_ms, bool fail_fast);

  // ---- route queries (producer_route_query.cpp) ----
  // Who takes lockNamesrv: a send's id (updateTopicRouteInfoFromNameServer), the scheduled poll,
  // or the heartbeat run (cleanOfflineBroker). Send ids count up from 0 and never reach them.
  static constexpr std::uint64_t kRoutePollCaller = std::numeric_limits<std::uint64_t>::max();
  static constexpr std::uint64_t kHeartbeatCaller = kRoutePollCaller - 1;
  // Java: DefaultMQProducerImpl#tryToFindTopicPublishInfo, for a send whose publish info is
  // missing or not ok.
  void try_to_find_topic_publish_info(std::uint64_t id, std::int64_t t_ms);
  // Java: MQClientInstance#updateTopicRouteInfoFromNameServer(topic, isDefault, producer): the
  // tryLock of lockNamesrv (waiting at most LOCK_TIMEOUT_MILLIS), then the request.
  void lock_namesrv(std::uint64_t caller, std::int64_t t_ms);
  void on_lock_timeout(std::uint64_t caller, std::int64_t deadline_ms, std::int64_t t_ms);
  // Releases lockNamesrv; the waiter it goes to goes on now (on_namesrv_locked).
  void unlock_namesrv(std::int64_t t_ms);
  // `caller` holds lockNamesrv: its route update, or the heartbeat run's cleanOfflineBroker.
  void on_namesrv_locked(std::uint64_t caller, std::int64_t t_ms);
  void update_topic_route_info(std::uint64_t caller, std::int64_t t_ms);
  // The update returned false without a request (tryLock timed out).
  void on_update_skipped(std::uint64_t caller, std::int64_t t_ms);
  // The topic `caller` asks about (a send's own topic, even when it asks for TBW102).
  const std::string& route_call_topic(std::uint64_t caller);
  // Java: NettyRemotingClient#invokeSync(null, ...) up to the channel:
  // getAndCreateNameserverChannel.
  void get_and_create_nameserver_channel(std::int64_t t_ms);
  void on_query_connect_done(std::int64_t t_ms);
  void send_route_request(std::uint32_t epoch, std::int64_t t_ms);
  void plan_query(const InvokeResult& result);
  RouteQuery traced_query(std::string outcome) const;
  void on_query_done(std::int64_t t_ms);
  // ---- the scheduler thread (producer_scheduled_tasks.cpp) ----
  // Java: MQClientInstance#startScheduledTask: the tasks on the one thread, from start_ms.
  void start_scheduled_task();
  // The thread is idle from idle_ms on: the run it takes next, at its start.
  void take_next_run(std::int64_t idle_ms);
  void on_scheduled_run(std::int64_t t_ms);
  // The running task returned at t_ms: reported, and the thread is idle again.
  void end_scheduled_run(std::int64_t t_ms);

  // ---- the scheduled route poll (producer_route_poll.cpp) ----
  // Java: MQClientInstance#updateTopicRouteInfoFromNameServer(), one round: every topic in turn
  // under lockNamesrv; a remoting failure ends the round.
  void on_poll_round(std::int64_t t_ms);
  void poll_topic(std::int64_t t_ms);
  void on_poll_topic_done(std::int64_t t_ms);
  void on_poll_failed(std::int64_t t_ms, const std::string& topic, const char* cause);
  struct RoutePoll {
    std::size_t position = 0;  // the spec topic being polled
  };

  // ---- the scheduled heartbeat run (client_heartbeat.cpp) ----
  // Java: the task cleanOfflineBroker + sendHeartbeatToAllBrokerWithLock.
  void on_heartbeat_run(std::int64_t t_ms);
  // cleanOfflineBroker with lockNamesrv held, then the heartbeats.
  void clean_offline_broker(std::int64_t t_ms);
  // Java: MQClientInstance#sendHeartbeatToAllBroker: the masters to heartbeat, then each in turn.
  void send_heartbeat_to_all_broker(std::int64_t t_ms);
  void send_next_heartbeat(std::int64_t t_ms);
  // Its request on an open channel (at once, or when the connect it waited for succeeded).
  void send_heartbeat_request(std::uint64_t channel_id, Channel& channel, std::int64_t t_ms);
  void on_heartbeat_done(std::uint64_t token, std::int64_t t_ms);
  // The closed channel's failFast reaches the heartbeat pending on it.
  void fail_heartbeat_fast(std::int64_t t_ms);
  void end_heartbeat(std::int64_t t_ms, SendCause cause);
  struct HeartbeatRun {
    struct Target {
      std::uint32_t broker = 0;  // broker name id
      std::uint32_t addr = 0;    // the master's address id
    };
    std::vector<Target> targets;  // the masters of broker_addr_table as the run began
    std::size_t position = 0;     // the target being heartbeated
    std::int64_t begin_ms = 0;    // its invokeSync's beginStartTime
    std::uint64_t channel = 0;
    InvokeResult planned;     // how its request ends
    std::uint64_t token = 0;  // bumped whenever its pending end is replaced (failFast)
  };

  // ---- configuration ----
  // The instance's settings: the ClientConfig of its first producer (pollNameServerInterval,
  // heartbeatBrokerInterval, mqClientApiTimeout, the remoting client's; the loader gives every
  // producer of an instance the same ones).
  const ProducerSpec& client_spec;
  core::Profile profile;
  NodeId self;
  std::string name;
  const NetworkHistory& network;
  const RouteHistory& routes;
  EventLog* log;
  // Takes what the instance does (the first producer's observer); sends go to their own's.
  ProducerObserver& observer;
  Rng choice_rng;  // indexes and pickOneAtLeast
  std::int64_t start_ms;

  // ---- state ----
  std::priority_queue<Event, std::vector<Event>, Later> events;
  // The first producer's next arrival, kept beside the heap in the same (t_ms, seq) order: there
  // is at most one at a time and every send starts with one, so this saves half the heap's
  // pushes and pops. The other producers' arrivals go through the heap.
  std::optional<Event> next_arrival;
  // Removes and returns the earliest event at or before t_ms, if any.
  std::optional<Event> take_due(std::int64_t t_ms);
  std::uint64_t next_seq = 0;
  std::optional<std::int64_t> advanced_ms;

  MQClientInstance client;
  // Java: MQClientInstance#producerTable, in registration order: each DefaultMQProducer with its
  // own sends (DefaultMQProducerImpl) and open-loop arrivals.
  struct Producer {
    const ProducerSpec& spec;
    ProducerObserver& observer;
    DefaultMQProducerImpl impl;
    Rng arrival_rng;  // inter-arrival gaps only, so arrivals do not depend on routes or faults
    std::uint64_t arrivals = 0;
    double poisson_clock_ms = 0.0;
    std::size_t next_topic = 0;
  };
  std::vector<Producer> producers;
  // Send ids carry their producer's index in their low id_bits (DefaultMQProducerImpl).
  unsigned id_bits = 0;
  Producer& producer_of(std::uint64_t send_id) {
    return producers[send_id & ((std::uint64_t{1} << id_bits) - 1)];
  }
  Send& send_at(std::uint64_t send_id) { return producer_of(send_id).impl.send_at(send_id); }
  SendRef send_ref(std::uint64_t send_id) {
    Producer& producer = producer_of(send_id);
    return {producer, producer.impl.send_at(send_id)};
  }
  // The topics the route poll asks for: every producer's, each once, in registration order.
  std::vector<std::string> poll_topics;
  struct RouteAnswer {
    std::string topic;
    std::optional<core::TopicRouteData> route;
    RouteQuery query;
    bool answered = true;  // false: the call failed, and the answer is only reported
  };
  std::map<std::uint64_t, RouteAnswer> route_answers;
  std::uint64_t next_route_answer = 0;

  ClientScheduler scheduler;
  ScheduledRun running;  // the run holding the scheduler thread (end_ms set when it returns)
  RoutePoll poll;
  HeartbeatRun heartbeat;
};

}  // namespace nssim::sim

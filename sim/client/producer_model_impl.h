// File: the private state of ProducerModel, shared by its five sources: producer_model.cpp
// (events, arrivals, route answers), producer_send.cpp (DefaultMQProducerImpl#sendDefaultImpl),
// producer_route_query.cpp (tryToFindTopicPublishInfo: lockNamesrv and the NameServer request),
// producer_route_poll.cpp (the scheduled route poll) and producer_remoting.cpp (a send's requests
// over NettyRemotingClient). The client's own state lives apart, as upstream's: MQClientInstance
// (mq_client_instance.h) with its NettyRemotingClient (netty_remoting_client.h).
#pragma once

#include <cstdint>
#include <deque>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/invariant.h"
#include "sim/client/mq_client_instance.h"
#include "sim/client/mq_fault_strategy.h"
#include "sim/client/producer_ids.h"
#include "sim/client/producer_model.h"
#include "sim/client/send_thread_pool.h"

namespace nssim::sim {

struct ProducerModel::Impl {
  Impl(const ProducerSpec& spec, core::Profile profile, NodeId self, std::string name,
       const NetworkHistory& network, const AddressBook& addresses, RouteQuerySources sources,
       Rng rng, ProducerObserver& observer, std::int64_t start_ms);

  // The client state, split as upstream's objects: the client instance (its tables, lockNamesrv
  // and its remoting client) and the send below (DefaultMQProducerImpl's).
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
    kPollRound
  };
  struct Event {
    std::int64_t t_ms = 0;
    std::uint64_t seq = 0;  // ties at one instant run in scheduling order
    EventKind kind = EventKind::kArrival;
    std::uint64_t a = 0;  // send id, channel id, route answer id or lock waiter (caller)
    std::uint64_t b = 0;  // the send's token (for events a later plan replaces), or a deadline
  };
  struct Later {
    bool operator()(const Event& x, const Event& y) const {
      return x.t_ms != y.t_ms ? x.t_ms > y.t_ms : x.seq > y.seq;
    }
  };
  void schedule(std::int64_t t_ms, EventKind kind, std::uint64_t a = 0, std::uint64_t b = 0);
  void run(const Event& event);
  void on_arrival(std::int64_t t_ms);
  void schedule_arrival(std::uint64_t k);  // arrival k, unless it falls beyond any clock
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
  // Java: the locals of one DefaultMQProducerImpl#sendDefaultImpl call, from its arrival to its
  // report. Plain values, so that a ring slot becomes a fresh send by one assignment of a
  // SendState (new_send): every field has its start value here and none can be missed.
  struct SendState {
    std::uint64_t id = 0;
    bool live = false;
    std::uint32_t thread = 0;        // the send_threads thread it runs on, arrival to end
    std::size_t topic_position = 0;  // index into spec.topics, which record.topic views
    std::size_t topic_slot = 0;      // index into info_by_slot
    PublishEntry* info = nullptr;    // fixed for the whole send, as upstream's local (hold_info)
    int times = 0;
    int times_total = 0;
    // The last queue selected: one of info's queues, or Send::mq_picked (4.9's pickOneAtLeast
    // makes one up); null before the first. mq_broker is its broker id.
    const MessageQueue* mq = nullptr;
    std::uint32_t mq_broker = 0;
    SendCause exception = SendCause::kOk;  // the last attempt's failure
    std::uint64_t token = 0;               // bumped whenever its pending event is replaced
    // The running attempt.
    std::int64_t attempt_begin_ms = 0;
    std::int64_t attempt_timeout_ms = 0;
    std::uint32_t addr = 0;  // address id
    std::uint64_t channel = 0;
    // The planned end of the running attempt, or of the running route query's request.
    std::int64_t planned_end_ms = 0;
    SendCause planned_cause = SendCause::kOk;
    bool planned_close = false;
    // tryToFindTopicPublishInfo is on its second update, for the default topic TBW102.
    bool query_default = false;
  };
  // A send: its state, and two buffers a slot keeps from send to send, each written before it is
  // read: the report (topic and start at the arrival, end and cause in finish_send, attempts
  // cleared there) and the queue pickOneAtLeast makes up (filled by each selection that uses it).
  struct Send : SendState {
    SendRecord record;
    MessageQueue mq_picked;
  };
  // A send takes or lets go of the publish info it keeps for its whole run.
  void hold_info(Send& send, PublishEntry* entry);
  void release_info(Send& send);
  void begin_send(std::uint64_t id, std::int64_t t_ms);
  // The send loop with the publish info now in the table, or "No route info of this topic".
  void start_with_publish_info(std::uint64_t id, std::int64_t t_ms);
  // The send's thread's values of its publish info's sendWhichQueue (drawn on the thread's first
  // pick from that publish info) and of whichItemWorst.
  ThreadIndexes thread_indexes(const Send& send);
  // One pass of sendDefaultImpl's loop from its top: select, budget check, sendKernelImpl.
  void iterate(std::uint64_t id, std::int64_t t_ms);
  void start_attempt(std::uint64_t id, std::int64_t t_ms, std::int64_t timeout_ms);
  // An attempt ended: record it, update the fault item per exception kind, loop or return.
  void complete_attempt(std::uint64_t id, std::int64_t t_ms, SendCause cause);
  void finish_send(std::uint64_t id, std::int64_t t_ms, SendCause cause);

  // ---- a send's requests over the remoting client (producer_remoting.cpp) ----
  // Java: NettyRemotingClient#invokeSync up to the channel: getAndCreateChannel.
  void invoke_sync(std::uint64_t id, std::int64_t t_ms);
  void on_connect_done(std::uint64_t channel_id, std::int64_t t_ms);
  // `channel` is channels[channel_id], passed along so that the hot path looks it up once.
  void send_request(std::uint64_t id, std::uint64_t channel_id, Channel& channel,
                    std::int64_t t_ms);
  void plan(std::uint64_t id, std::uint64_t channel_id, Channel& channel, std::int64_t end_ms,
            SendCause cause, bool close);
  void on_attempt_done(std::uint64_t id, std::uint64_t token, std::int64_t t_ms);
  // Java: NettyRemotingClient#closeChannel; fail_fast: NettyRemotingAbstract#failFast, run by the
  // pipeline's close() (a local close, an RST), not by a FIN in 4.9.
  void close_channel(std::uint64_t channel_id, std::int64_t t_ms, bool fail_fast);

  // ---- route queries (producer_route_query.cpp) ----
  // Who called updateTopicRouteInfoFromNameServer: a send's id, or the scheduled poll.
  static constexpr std::uint64_t kRoutePollCaller = std::numeric_limits<std::uint64_t>::max();
  // Java: DefaultMQProducerImpl#tryToFindTopicPublishInfo, for a send whose publish info is
  // missing or not ok.
  void try_to_find_topic_publish_info(std::uint64_t id, std::int64_t t_ms);
  // Java: MQClientInstance#updateTopicRouteInfoFromNameServer(topic, isDefault, producer): the
  // tryLock of lockNamesrv (waiting at most LOCK_TIMEOUT_MILLIS), then the request.
  void lock_namesrv(std::uint64_t caller, std::int64_t t_ms);
  void on_lock_timeout(std::uint64_t caller, std::int64_t deadline_ms, std::int64_t t_ms);
  // Releases lockNamesrv; the waiter it goes to makes its update now.
  void unlock_namesrv(std::int64_t t_ms);
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
  // ---- the scheduled route poll (producer_route_poll.cpp) ----
  // Java: MQClientInstance#updateTopicRouteInfoFromNameServer(), one round: every topic in turn
  // under lockNamesrv; a remoting failure ends the round.
  void on_poll_round(std::int64_t t_ms);
  void poll_topic(std::int64_t t_ms);
  void on_poll_topic_done(std::int64_t t_ms);
  void on_poll_failed(std::int64_t t_ms, const std::string& topic, const char* cause);
  // scheduleAtFixedRate: the next round at its fixed instant, or now if this one outlasted it.
  void end_poll_round(std::int64_t t_ms);
  struct RoutePoll {
    std::int64_t next_ms = 0;  // the fixed-rate schedule's next run
    std::size_t position = 0;  // the spec topic being polled
  };

  // ---- configuration ----
  const ProducerSpec& spec;
  core::Profile profile;
  NodeId self;
  std::string name;
  const NetworkHistory& network;
  const RouteHistory& routes;
  EventLog* log;
  ProducerObserver& observer;
  Rng arrival_rng;  // inter-arrival gaps only, so arrivals do not depend on routes or faults
  Rng choice_rng;   // indexes and pickOneAtLeast
  std::int64_t start_ms;
  MqFaultStrategy fault_strategy;
  // The application threads that make the sends. Upstream leaves them to the application; the
  // model takes Executors#newCachedThreadPool, one per producer: open-loop arrivals, none queued.
  CachedThreadPool send_threads;

  // ---- state ----
  std::priority_queue<Event, std::vector<Event>, Later> events;
  // The next arrival, kept beside the heap in the same (t_ms, seq) order: there is at most one
  // at a time and every send starts with one, so this saves half the heap's pushes and pops.
  std::optional<Event> next_arrival;
  // Removes and returns the earliest event at or before t_ms, if any.
  std::optional<Event> take_due(std::int64_t t_ms);
  std::uint64_t next_seq = 0;
  std::optional<std::int64_t> advanced_ms;
  std::uint64_t arrivals = 0;
  double poisson_clock_ms = 0.0;
  std::size_t next_topic = 0;

  MQClientInstance client;
  struct RouteAnswer {
    std::string topic;
    std::optional<core::TopicRouteData> route;
    RouteQuery query;
    bool answered = true;  // false: the call failed, and the answer is only reported
  };
  std::map<std::uint64_t, RouteAnswer> route_answers;
  std::uint64_t next_route_answer = 0;

  RoutePoll poll;

  // The sends in flight, in a ring indexed by id (grown when an id's slot is still in use).
  std::vector<Send> send_ring;
  std::size_t live_sends = 0;
  std::uint64_t next_send_id = 0;
  Send* find_send(std::uint64_t id) {
    Send& s = send_ring[id & (send_ring.size() - 1)];
    return s.live && s.id == id ? &s : nullptr;
  }
  Send& send_at(std::uint64_t id) {
    Send* s = find_send(id);
    NSSIM_CHECK(s != nullptr, "unknown send");
    return *s;
  }
  Send& new_send(std::uint64_t id);

  // Per spec topic (the first position of each name): the publish info sends start with.
  std::vector<std::size_t> topic_slot_of_position;
  std::unordered_map<std::string, std::size_t> topic_slots;
  std::vector<std::shared_ptr<PublishEntry>> info_by_slot;
};

}  // namespace nssim::sim

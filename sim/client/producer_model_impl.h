// File: the private state of ProducerModel, shared by its five sources: producer_model.cpp
// (events, arrivals, routes: MQClientInstance), producer_send.cpp
// (DefaultMQProducerImpl#sendDefaultImpl), producer_route_query.cpp (tryToFindTopicPublishInfo:
// lockNamesrv and the NameServer request), producer_route_poll.cpp (the scheduled route poll) and
// producer_remoting.cpp (NettyRemotingClient: channels, connects, invokeSync).
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

#include "sim/client/mq_fault_strategy.h"
#include "sim/client/producer_ids.h"
#include "sim/client/producer_model.h"
#include "sim/client/send_thread_pool.h"

namespace nssim::sim {

// Programmer errors in the producer model: abort with a message.
[[noreturn]] void producer_model_fail(const char* what);

struct ProducerModel::Impl {
  Impl(const ProducerSpec& spec, core::Profile profile, NodeId self, std::string name,
       const NetworkHistory& network, const AddressBook& addresses, RouteQuerySources sources,
       Rng rng, ProducerObserver& observer, std::int64_t start_ms);

  // ---- ids of the send path (producer_ids.h) ----
  // A publish info and the broker id of each of its queues, in message_queue_list order, so that
  // a selected queue leads to its broker, address and channel through vectors.
  // Sends hold one by a plain pointer and a count the model keeps (one thread: no atomic
  // reference count per send); one replaced while sends still hold it waits in retired_infos.
  struct PublishEntry {
    TopicPublishInfo info;
    std::vector<std::uint32_t> queue_brokers;
    int sends = 0;             // sends holding it
    bool retired = false;      // no longer in the tables
    std::uint64_t serial = 0;  // from 1, in creation order: whose sendWhichQueue a value is
  };
  // By address id: NettyRemotingClient's channelTables entry (a SlotTable handle, 0: none) and
  // the address's node, resolved on its first connect.
  struct AddressEntry {
    std::uint64_t channel = 0;
    std::optional<NodeId> node;
  };
  // Java: MQClientInstance#findBrokerAddressInPublish: brokerId 0 only, from a broker id to the
  // master's address id (producer_send.cpp, as the ids below).
  std::optional<std::uint32_t> find_broker_address_in_publish(std::uint32_t broker) const;
  // Mirrors a route's BrokerData into master_of_broker, giving its name and master ids.
  void note_master_address(const core::BrokerData& broker);
  // The publish info with its queues' broker ids.
  std::shared_ptr<PublishEntry> publish_entry(TopicPublishInfo info);
  // The node of an address id, from the AddressBook on first use.
  NodeId node_of(std::uint32_t addr);

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
  // report. A ring slot becomes a fresh send by one assignment (new_send): every field has its
  // start value here, so none can be missed.
  struct Send {
    std::uint64_t id = 0;
    bool live = false;
    std::uint32_t thread = 0;        // the send_threads thread it runs on, arrival to end
    std::size_t topic_position = 0;  // index into spec.topics, which record.topic views
    std::size_t topic_slot = 0;      // index into info_by_slot
    SendRecord record;
    PublishEntry* info = nullptr;  // fixed for the whole send, as upstream's local (hold_info)
    int times = 0;
    int times_total = 0;
    // The last queue selected: one of info's queues, or mq_picked (4.9's pickOneAtLeast makes
    // one up); null before the first. mq_broker is its broker id.
    const MessageQueue* mq = nullptr;
    MessageQueue mq_picked;
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
  // A send takes or lets go of the publish info it keeps for its whole run.
  void hold_info(Send& send, PublishEntry* entry);
  void release_info(Send& send);
  // The tables dropped `entry`: it lives on while sends hold it.
  void retire_info(std::shared_ptr<PublishEntry> entry);
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

  // ---- remoting client (producer_remoting.cpp) ----
  struct Channel {
    std::uint32_t addr = 0;  // address id
    NodeId node = 0;
    bool connected = false;  // false: the connect is still running
    bool closed = false;     // out of channel_tables; kept while requests are pending on it
    ConnectResult connect;   // the connect's outcome, known when it starts
    std::uint32_t epoch = 0;
    std::int64_t opened_ms = 0;
    std::vector<std::uint64_t> waiting;  // sends waiting for the connect, in order
    std::vector<std::uint64_t> pending;  // sends with a request in flight on it, sorted
    // The sends' round trip while the network stays as it was (empty until a request finds it
    // steady): each request then costs a comparison instead of NetworkHistory's searches.
    SteadyRoundTrip steady;
    bool steady_now(const NetworkHistory& history) const {
      return steady.change_count == history.change_count();
    }
  };
  // Java: NettyRemotingClient#invokeSync up to the channel: getAndCreateChannel.
  void invoke_sync(std::uint64_t id, std::int64_t t_ms);
  void on_connect_done(std::uint64_t channel_id, std::int64_t t_ms);
  // How a sync request over an open channel to incarnation `epoch` of `node` ends, sent at t_ms
  // by an invokeSync that began at begin_ms with `timeout_ms`: the instant the caller learns it,
  // the cause (kOk: answered), and whether the caller closes the channel.
  struct InvokeResult {
    std::int64_t end_ms = 0;
    SendCause cause = SendCause::kOk;
    bool close = false;
  };
  // Java: NettyRemotingClient#invokeSync once it has a channel: the budget check, then
  // invokeSyncImpl and its exceptions. `steady` (optional) is the channel's cached round trip,
  // used while valid and taken again when not.
  InvokeResult invoke_on_channel(NodeId node, std::uint32_t epoch, std::int64_t begin_ms,
                                 std::int64_t timeout_ms, std::int64_t t_ms, std::int64_t bytes,
                                 SteadyRoundTrip* steady = nullptr) const;
  // `channel` is channels[channel_id], passed along so that the hot path looks it up once.
  void send_request(std::uint64_t id, std::uint64_t channel_id, Channel& channel,
                    std::int64_t t_ms);
  void plan(std::uint64_t id, std::uint64_t channel_id, Channel& channel, std::int64_t end_ms,
            SendCause cause, bool close);
  void on_attempt_done(std::uint64_t id, std::uint64_t token, std::int64_t t_ms);
  // Java: NettyRemotingClient#closeChannel; fail_fast: NettyRemotingAbstract#failFast, run by the
  // pipeline's close() (a local close, an RST), not by a FIN in 4.9.
  void close_channel(std::uint64_t channel_id, std::int64_t t_ms, bool fail_fast);
  void forget_channel_if_idle(std::uint64_t channel_id);

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
  // The incarnation the client's channel to `nameserver` is open to at t_ms, if it is usable.
  std::optional<std::uint32_t> open_nameserver_channel(NodeId nameserver, std::int64_t t_ms) const;
  // The one GET_ROUTEINFO_BY_TOPIC call in flight: lockNamesrv's holder makes it, so there is at
  // most one per client.
  struct RouteCall {
    std::uint64_t caller = 0;
    bool is_default = false;        // a send's second update, for the default topic TBW102
    std::int64_t begin_ms = 0;      // invokeSync's beginStartTime
    std::size_t tries_left = 0;     // addresses getAndCreateNameserverChannel may still try
    NodeId nameserver = 0;          // the NameServer it connects to or asks
    ConnectResult connect;          // the running connect's outcome
    std::int64_t processed_ms = 0;  // when the NameServer processes an answered request
    InvokeResult planned;           // how the request ends
  };

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
  const AddressBook& addresses;
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

  std::map<std::string, core::TopicRouteData> topic_route_table;
  std::map<std::string, std::map<std::int64_t, std::string>> broker_addr_table;
  std::map<std::string, std::shared_ptr<PublishEntry>> topic_publish_info_table;
  std::vector<std::shared_ptr<PublishEntry>> retired_infos;  // replaced, still held by sends
  std::uint64_t next_info_serial = 1;
  struct RouteAnswer {
    std::string topic;
    std::optional<core::TopicRouteData> route;
    RouteQuery query;
    bool answered = true;  // false: the call failed, and the answer is only reported
  };
  std::map<std::uint64_t, RouteAnswer> route_answers;
  std::uint64_t next_route_answer = 0;

  // lockNamesrv, the call its holder makes, and the callers waiting for it, in order, each with
  // its tryLock deadline.
  bool namesrv_locked = false;
  RouteCall route_call;
  std::deque<std::pair<std::uint64_t, std::int64_t>> namesrv_lock_waiters;
  NameServerClient nameservers;
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
    if (s == nullptr) producer_model_fail("unknown send");
    return *s;
  }
  Send& new_send(std::uint64_t id);

  // Per spec topic (the first position of each name): the publish info sends start with.
  std::vector<std::size_t> topic_slot_of_position;
  std::unordered_map<std::string, std::size_t> topic_slots;
  std::vector<std::shared_ptr<PublishEntry>> info_by_slot;

  // Broker names and addresses met in routes, and by broker id the master's address id
  // (brokerId 0), mirrored from broker_addr_table.
  NameIds broker_ids;
  NameIds address_ids;
  std::vector<std::optional<std::uint32_t>> master_of_broker;
  std::vector<AddressEntry> address_entries;
  SlotTable<Channel> channels;
  Channel& channel_at(std::uint64_t channel_id) {
    Channel* channel = channels.find(channel_id);
    if (channel == nullptr) producer_model_fail("unknown channel");
    return *channel;
  }
};

}  // namespace nssim::sim

// File: the consumer co-simulation's state and event loop (internal to sim/consumer): every
// consumer incarnation (its MQClientInstance with the scheduler, rebalance, pull and consume
// threads) and every broker's consumer side (ConsumerManager, ConsumerOffsetManager, long
// polling), advanced together in time order. The sources split it as upstream splits the work:
// consumer_calls.cpp (channels, sync calls, route queries), consumer_scheduler.cpp (the
// scheduler's tasks), consumer_rebalance.cpp, consumer_pull.cpp (pulls and consumption),
// broker_consumer_side.cpp.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "nameserver_core/route_types.h"
#include "sim/broker/consumer_offset_manager.h"
#include "sim/client/client_scheduler.h"
#include "sim/client/netty_remoting_client.h"
#include "sim/client/process_queue.h"
#include "sim/client/publish_info.h"
#include "sim/client/rebalance_service.h"
#include "sim/consumer/consumer_world.h"
#include "sim/scenario/rng.h"

namespace nssim::sim {

class ConsumerEngine {
 public:
  explicit ConsumerEngine(const ConsumerInputs& inputs);
  ConsumerRecord run();

  // The outcome of a synchronous call as its caller learns it at end_ms.
  struct CallResult {
    std::int64_t end_ms = 0;
    SendCause cause = SendCause::kOk;
    std::optional<std::int64_t> processed_ms;
  };
  using Then = std::function<void(const CallResult&)>;
  using Action = std::function<void()>;

 private:
  // One ProcessQueue with its PullRequest (one each, so at most one pull in flight per queue).
  struct Held {
    std::uint32_t queue = 0;  // index into record_.queues
    QueueKey key;
    ProcessQueue pq;
    std::int64_t next_offset = 0;
    std::int64_t owned_from_ms = 0;
  };
  // One consumer incarnation: its MQClientInstance and DefaultMQPushConsumerImpl.
  struct Instance {
    std::size_t spec = 0;
    NodeId node = 0;
    std::uint32_t epoch = 0;
    std::int64_t started_ms = 0;
    bool alive = true;
    std::string client_id;
    NettyRemotingClient remoting;
    Rng rng;
    ClientScheduler scheduler;
    RebalanceService rebalance;
    // MQClientInstance's topicRouteTable and brokerAddrTable; RebalanceImpl's
    // topicSubscribeInfoTable (readable queues of the cached route, sorted).
    std::map<std::string, core::TopicRouteData> routes;
    std::map<std::string, std::map<std::int64_t, std::string>> broker_addr_table;
    std::map<std::string, std::vector<MessageQueue>> subscribe_info;
    std::map<std::string, std::int64_t> sub_version;  // per topic, bumped by messageQueueChanged
    // RebalanceImpl#processQueueTable and RemoteBrokerOffsetStore#offsetTable.
    std::map<QueueKey, std::shared_ptr<Held>> held;
    std::map<QueueKey, std::int64_t> offset_table;
    bool heartbeat_locked = false;  // lockHeartbeat, held by the scheduler's heartbeat run
    // PullMessageService: its request queue and when its one thread is free again.
    std::queue<std::weak_ptr<Held>> pull_requests;
    bool pull_thread_busy = false;
    // ConsumeMessageConcurrentlyService's pool: when each of its consumeThreadMin threads is free.
    std::priority_queue<std::int64_t, std::vector<std::int64_t>, std::greater<>> consume_free;
    // Async pulls in flight, by id: a channel's pending list names them, so a close fails them
    // fast (NettyRemotingAbstract#failFast); whichever of their ends comes first counts.
    struct PullInFlight {
      std::weak_ptr<Held> held;
      std::int64_t sent_ms = 0;
      std::uint64_t channel = 0;
      bool done = false;
    };
    std::map<std::uint64_t, PullInFlight> pulls;
    std::uint64_t next_pull = 1;
    Instance(std::size_t spec_index, NodeId node_id, NettyRemotingClient client, Rng stream,
             RebalanceService service)
        : spec(spec_index),
          node(node_id),
          remoting(std::move(client)),
          rng(std::move(stream)),
          rebalance(std::move(service)) {}
  };
  // A broker's consumer side for its current incarnation.
  struct BrokerSide {
    NodeId node = 0;
    std::string broker_name;
    std::int64_t broker_id = 0;
    std::uint32_t epoch = 0;  // 0: not running
    std::int64_t started_ms = 0;
    ConsumerOffsetManager offsets;
    // ConsumerManager#consumerTable: group -> channel (instance, client channel) -> entry.
    struct Entry {
      std::string client_id;
      std::int64_t last_update_ms = 0;  // ClientChannelInfo#lastUpdateTimestamp
      std::int64_t last_io_ms = 0;      // the channel's last read or write (IdleStateHandler)
    };
    std::map<std::string, std::map<std::pair<std::size_t, std::uint64_t>, Entry>> groups;
    std::map<std::pair<std::string, std::string>, std::int64_t> sub_versions;  // (group, topic)
    // GET_CONSUMER_LIST_BY_GROUP's answer per group, kept until the group's channels change: a
    // thousand consumers asking in turn share one list instead of a thousand copies.
    std::map<std::string, std::shared_ptr<const std::vector<std::string>>> lists;
  };
  struct Event {
    std::int64_t t_ms = 0;
    std::uint64_t seq = 0;
    Action action;
    friend bool operator>(const Event& a, const Event& b) {
      return a.t_ms != b.t_ms ? a.t_ms > b.t_ms : a.seq > b.seq;
    }
  };

  // The event loop: `action` at t_ms, after every action scheduled earlier for that instant.
  void at(std::int64_t t_ms, Action action);
  // An action of instance `i`'s incarnation: dropped once it ended, deferred while its process
  // is paused (a frozen JVM runs no thread), and run at its instant otherwise. Actions take the
  // present from now_ms_, not from the instant they were planned for, so a deferred one goes on
  // from the resume.
  void on_instance(std::size_t i, std::int64_t t_ms, std::function<void(Instance&)> action);
  // The same for a broker incarnation.
  void on_broker(std::size_t b, std::uint32_t epoch, std::int64_t t_ms,
                 std::function<void(BrokerSide&)> action);
  std::int64_t resumed_at(NodeId node, std::int64_t t_ms) const;
  const ConsumerSpec& spec_of(const Instance& instance) const {
    return inputs_.scenario.consumers[instance.spec];
  }

  // consumer_engine.cpp: incarnations.
  void start_instance(NodeId node, std::size_t spec, std::uint32_t epoch, std::int64_t t_ms);
  void end_instance(std::size_t i, DownKind kind, std::int64_t t_ms);
  void start_broker(std::size_t b, std::uint32_t epoch, std::int64_t t_ms);
  void end_broker(std::size_t b, DownKind kind, std::int64_t t_ms);
  void drop_held(std::size_t i, const QueueKey& key, std::int64_t t_ms);
  std::uint32_t queue_index(const std::string& group, const QueueKey& key);

  // consumer_calls.cpp.
  struct ChannelUse {
    std::int64_t ready_ms = 0;  // when the connect (if one runs) ends
    SendCause cause = SendCause::kOk;
    std::uint64_t channel = 0;
    NodeId node = 0;
    std::uint32_t epoch = 0;
  };
  ChannelUse acquire_channel(std::size_t i, const std::string& address, std::int64_t t_ms);
  // 5.x: MQClientInstance's channel event listener on a new channel's ACTIVE event
  // (enableHeartbeatChannelEventListener, true): sendHeartbeatToBroker to that address under
  // lockHeartbeat.tryLock, then rebalanceImmediately if it was answered.
  void on_channel_active(std::size_t i, const std::string& address, std::int64_t t_ms);
  // invokeSync(addr, request, timeout) from t_ms: `processed` runs at the broker when it
  // processes the request, `then` on the caller's thread when the call returns.
  void sync_call(std::size_t i, const std::string& address, std::int64_t t_ms,
                 std::int64_t timeout_ms,
                 std::function<void(BrokerSide&, std::uint64_t, std::int64_t)> processed,
                 Then then);
  // invokeOneway: `processed` runs at the broker if the request reaches it; returns when the
  // calling thread is free again (4.9 waits for a running connect, 5.x never).
  std::int64_t oneway_call(Instance& instance, std::size_t i, const std::string& address,
                           std::int64_t t_ms,
                           std::function<void(BrokerSide&, std::uint64_t, std::int64_t)> processed);
  // A channel the client closed at t_ms: the broker sees its FIN, pending pulls fail fast.
  void close_client_channel(std::size_t i, std::uint64_t channel, std::int64_t t_ms);
  // updateTopicRouteInfoFromNameServer(topic) from t_ms; `then` gets whether it was answered.
  void route_query(std::size_t i, const std::string& topic, std::int64_t t_ms,
                   std::function<void(Instance&, bool, std::int64_t)> then);
  void apply_route(Instance& instance, const std::string& topic, const core::TopicRouteData& route);
  std::optional<std::size_t> broker_at(const std::string& address) const;

  // consumer_scheduler.cpp.
  void scheduler_idle(std::size_t i, std::int64_t t_ms);
  void poll_topics(std::size_t i, std::size_t topic, std::int64_t t_ms);
  void heartbeat_all(std::size_t i, std::int64_t t_ms,
                     std::function<void(Instance&, std::int64_t)> then);
  struct HeartbeatRun {
    std::vector<std::string> addresses;
    std::function<void(Instance&, std::int64_t)> then;
  };
  void heartbeat_step(std::size_t i, std::shared_ptr<const HeartbeatRun> run, std::size_t k,
                      std::int64_t t_ms);
  void persist_all(std::size_t i, std::int64_t t_ms);
  // DefaultMQPushConsumerImpl#start's own thread: each topic's route, then the heartbeat.
  void start_routes(std::size_t i, std::size_t topic, std::int64_t t_ms);

  // consumer_rebalance.cpp.
  void rebalance_wait(Instance& instance, std::size_t i);
  void rebalance_topic(std::size_t i, std::size_t topic, bool balanced, std::int64_t t_ms);
  void update_process_queues(std::size_t i, std::size_t topic,
                             const std::vector<MessageQueue>& allocated, bool balanced,
                             std::int64_t t_ms);
  void add_queues(std::size_t i, std::size_t topic, std::vector<QueueKey> to_add, std::size_t next,
                  bool changed, bool balanced, std::int64_t t_ms);

  // consumer_pull.cpp.
  void enqueue_pull(std::size_t i, const std::shared_ptr<Held>& held, std::int64_t t_ms);
  void pull_thread_next(std::size_t i, std::int64_t t_ms);
  // Java: DefaultMQPushConsumerImpl#pullMessage on the pull thread at t_ms: returns when the
  // thread is free again.
  std::int64_t pull_message(std::size_t i, const std::shared_ptr<Held>& held, std::int64_t t_ms);
  // What a pull's answer said, as the consumer reads it.
  struct PullAnswer {
    std::string error;  // empty: FOUND or NO_NEW_MSG
    std::int64_t from = 0;
    std::int64_t to = 0;  // nextBeginOffset; == from: no message
  };
  void process_pull(BrokerSide& broker, std::size_t b, std::size_t i, std::uint64_t pull,
                    std::uint64_t channel, const QueueKey& key, std::int64_t offset,
                    std::optional<std::int64_t> commit, std::int64_t sub_version,
                    std::int64_t t_ms);
  void answer_pull(BrokerSide& broker, std::size_t i, std::uint64_t pull, std::uint64_t channel,
                   PullAnswer answer, std::int64_t t_ms);
  void pull_done(std::size_t i, std::uint64_t pull, const PullAnswer& answer, std::int64_t t_ms);
  void pull_failed(std::size_t i, const std::shared_ptr<Held>& held, std::int64_t sent_ms,
                   std::int64_t t_ms, const std::string& cause);
  void consume(std::size_t i, const std::shared_ptr<Held>& held, std::int64_t from, std::int64_t to,
               std::int64_t t_ms);

  // broker_consumer_side.cpp.
  void register_heartbeat(BrokerSide& broker, std::size_t i, std::uint64_t channel,
                          std::int64_t t_ms);
  void remove_channel(BrokerSide& broker, std::size_t i, std::uint64_t channel, std::int64_t t_ms,
                      const char* how, bool notify);
  void notify_group(BrokerSide& broker, const std::string& group, std::int64_t t_ms);
  void arm_idle_check(std::size_t b, std::size_t i, std::uint64_t channel, std::int64_t t_ms);
  void scan_not_active(std::size_t b, std::uint32_t epoch, std::int64_t t_ms);
  void flush_offsets(std::size_t b, std::uint32_t epoch, std::int64_t t_ms);
  void touch(BrokerSide& broker, std::size_t i, std::uint64_t channel, std::int64_t t_ms);
  std::shared_ptr<const std::vector<std::string>> consumer_list(BrokerSide& broker,
                                                                const std::string& group) const;

  const ConsumerInputs& inputs_;
  const NetworkHistory& network_;
  ConsumerRecord record_;
  std::priority_queue<Event, std::vector<Event>, std::greater<>> events_;
  std::uint64_t next_seq_ = 0;
  std::int64_t now_ms_ = 0;
  std::vector<std::unique_ptr<Instance>> instances_;  // every incarnation, in start order
  std::map<std::pair<NodeId, std::uint32_t>, std::size_t> instance_of_;  // (node, epoch)
  std::vector<BrokerSide> brokers_;
  std::map<std::string, std::size_t> broker_by_address_;
  std::map<NodeId, std::size_t> broker_of_node_;
  std::map<std::pair<std::string, QueueKey>, std::uint32_t> queue_indices_;
};

}  // namespace nssim::sim

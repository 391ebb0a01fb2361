// File: BrokerActor (see broker_actor.h). Registration goes to every NameServer in parallel and the
// task waits for all answers or registerBrokerTimeoutMills (BrokerOuterAPI#registerBrokerAll's
// latch); the periodic tasks share one executor thread, as in BrokerController.
#include "sim/world/broker_actor.h"

#include <algorithm>

#include "nameserver_core/remoting.h"
#include "sim/scenario/broker_topics.h"
#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace {

constexpr std::int64_t kUnregisterTimeoutMs = 3000;     // BrokerOuterAPI#unregisterBroker
constexpr std::int64_t kClusterInfoTimeoutMs = 3000;    // BrokerOuterAPI#getBrokerClusterInfo
constexpr std::int64_t kSendHeartbeatTimeoutMs = 1000;  // BrokerConfig.sendHeartbeatTimeoutMillis
constexpr std::uint64_t kSmallRequestBytes = 256;       // header-only requests
constexpr std::int64_t kMessageStoreShutdownSleepMs = 1000;  // 4.9 DefaultMessageStore#shutdown

std::int64_t register_period(const BrokerConfig& config) {
  return std::max<std::int64_t>(10000,
                                std::min<std::int64_t>(config.register_name_server_period, 60000));
}

}  // namespace

BrokerActor::BrokerActor(Net& net, NodeId self, std::uint32_t epoch, core::Profile profile,
                         BrokerIdentity identity, BrokerConfig config,
                         core::TopicConfigSerializeWrapper topics, std::vector<NodeId> nameservers,
                         Rng rng, EventLog& log)
    : NodeActor(net, self, epoch),
      profile_(profile),
      identity_(std::move(identity)),
      config_(config),
      topics_(std::move(topics)),
      nameservers_(std::move(nameservers)),
      rng_(std::move(rng)),
      log_(log),
      client_(net, self, epoch, profile, /*connect_timeout_ms=*/3000,
              /*close_socket_if_timeout=*/true,
              [this](std::int64_t t, std::function<void()> fn) { at(t, std::move(fn)); }),
      selector_(nameservers_, rng_),
      executor_([this](std::int64_t t, std::function<void()> fn) { at(t, std::move(fn)); },
                [] { return now_ms(); }),
      heartbeat_executor_(
          [this](std::int64_t t, std::function<void()> fn) { at(t, std::move(fn)); },
          [] { return now_ms(); }) {}

// Java: BrokerController#start — one registration at once, then the scheduled tasks.
void BrokerActor::on_start() {
  register_broker_all(/*force_register=*/true, [this] {
    const std::int64_t now = now_ms();
    executor_.schedule_at_fixed_rate(now + 10000, register_period(config_),
                                     [this](SerialExecutor::Done done) {
                                       register_broker_all(config_.force_register, std::move(done));
                                     });
    if (profile_ == core::Profile::kV5) {
      executor_.schedule_at_fixed_rate(now + 10000, 5000, [this](SerialExecutor::Done done) {
        refresh_metadata(std::move(done));
      });
      if (config_.enable_slave_acting_master) {
        heartbeat_executor_.schedule_at_fixed_rate(now + 1000, config_.broker_heartbeat_interval,
                                                   [this](SerialExecutor::Done done) {
                                                     send_heartbeat();
                                                     done();
                                                   });
      }
    }
  });
}

void BrokerActor::on_envelope(const Envelope& envelope) { client_.on_envelope(envelope); }

std::map<std::string, std::string> BrokerActor::identity_fields() const {
  return {{"brokerAddr", identity_.broker_addr},
          {"brokerId", std::to_string(identity_.broker_id)},
          {"brokerName", identity_.broker_name},
          {"clusterName", identity_.cluster_name}};
}

// Java: BrokerOuterAPI#registerBrokerAll's request. The body is typed, so bodyCrc32 is sent as 0
// (the NameServer skips the check for 0).
std::shared_ptr<core::RemotingRequest> BrokerActor::register_request(
    const core::TopicConfigSerializeWrapper& topics) const {
  auto request = std::make_shared<core::RemotingRequest>();
  request->code = core::request_code::kRegisterBroker;
  request->version = core::default_request_version(profile_);
  request->ext_fields = identity_fields();
  request->ext_fields["haServerAddr"] = identity_.ha_server_addr;
  request->ext_fields["compressed"] = "false";
  request->ext_fields["bodyCrc32"] = "0";
  if (profile_ == core::Profile::kV5) {
    request->ext_fields["enableActingMaster"] =
        config_.enable_slave_acting_master ? "true" : "false";
    if (config_.enable_slave_acting_master) {
      request->ext_fields["heartbeatTimeoutMillis"] =
          std::to_string(config_.broker_not_active_timeout_millis);
    }
  }
  core::RegisterBrokerBody body;
  body.topic_config_serialize_wrapper = topics;
  // Java: registerBrokerAll narrows each topic's perm by brokerPermission when it is not RW:
  // 4.9 replaces it, 5.x ANDs it.
  const int broker_perm = config_.broker_permission;
  if (!core::perm::is_writeable(broker_perm) || !core::perm::is_readable(broker_perm)) {
    for (auto& [name, topic] : body.topic_config_serialize_wrapper.topic_config_table) {
      topic.perm = profile_ == core::Profile::kV4_9 ? broker_perm : (topic.perm & broker_perm);
    }
  }
  request->body = std::move(body);
  return request;
}

// Java: BrokerController#registerBrokerAll. With forceRegister=false the NameServers are asked
// for their DataVersion first (needRegister) and registration happens if any reports a change or
// fails to answer.
void BrokerActor::register_broker_all(bool force_register, SerialExecutor::Done done) {
  if (shutting_down_) return done();
  if (force_register) return do_register_broker_all(topics_, std::move(done));
  auto request = std::make_shared<core::RemotingRequest>();
  request->code = core::request_code::kQueryDataVersion;
  request->version = core::default_request_version(profile_);
  request->ext_fields = identity_fields();
  request->body = topics_.data_version;
  struct Latch {
    std::size_t remaining;
    bool changed = false;
    SerialExecutor::Done done;
  };
  auto latch = std::make_shared<Latch>(Latch{nameservers_.size(), false, std::move(done)});
  for (NodeId ns : nameservers_) {
    client_.invoke(ns, request, kSmallRequestBytes, config_.register_broker_timeout_mills, false,
                   [this, latch](InvokeFailure failure, const core::RemotingResponse* response) {
                     const bool changed = failure != InvokeFailure::kNone ||
                                          response->code != core::response_code::kSuccess ||
                                          response->ext_fields.count("changed") == 0 ||
                                          response->ext_fields.at("changed") == "true";
                     latch->changed = latch->changed || changed;
                     if (--latch->remaining > 0) return;
                     if (latch->changed)
                       return do_register_broker_all(topics_, std::move(latch->done));
                     latch->done();
                   });
  }
}

void BrokerActor::do_register_broker_all(const core::TopicConfigSerializeWrapper& topics,
                                         SerialExecutor::Done done) {
  if (shutting_down_) return done();
  auto request = register_request(topics);
  const std::uint64_t size = register_body_size_bytes(topics);
  struct Latch {
    std::size_t remaining;
    bool finished = false;
    SerialExecutor::Done done;
  };
  auto latch = std::make_shared<Latch>(Latch{nameservers_.size(), false, std::move(done)});
  auto finish = [latch] {
    if (latch->finished) return;
    latch->finished = true;
    latch->done();
  };
  for (NodeId ns : nameservers_) {
    client_.invoke(
        ns, request, size, config_.register_broker_timeout_mills, false,
        [this, ns, latch, finish](InvokeFailure failure, const core::RemotingResponse* response) {
          if (failure != InvokeFailure::kNone) {
            log_.add(
                now_ms(), identity_.node_name, EventKind::kRegisterFailed,
                {{"nameserver", net_.history().name(ns)}, {"cause", invoke_failure_name(failure)}});
          } else if (response->code != core::response_code::kSuccess) {
            log_.add(now_ms(), identity_.node_name, EventKind::kRegisterRejected,
                     {{"nameserver", net_.history().name(ns)}, {"code", response->code}});
          }
          if (--latch->remaining == 0) finish();
        });
  }
  at(now_ms() + config_.register_broker_timeout_mills, finish);  // countDownLatch.await(timeout)
}

// Java: AdminBrokerProcessor#updateAndCreateTopic, then BrokerController#
// registerIncrementBrokerData: a registration whose body holds only this topic, with the new
// DataVersion. Java serializes it with registerBrokerAll through the BrokerController monitor; it
// waits here on the task executor, so it also waits for a running refreshMetadata (5.x), which
// the monitor would not.
// Deviation: 5.x with enableSingleTopicRegister registers through registerSingleTopicAll instead;
// that setting is not offered by scenarios, so its default (false) always holds here.
void BrokerActor::update_topic(const core::TopicConfig& config, const core::DataVersion& version) {
  topics_.topic_config_table[config.topic_name] = config;
  topics_.data_version = version;
  core::TopicConfigSerializeWrapper increment;
  increment.topic_config_table[config.topic_name] = config;
  increment.data_version = version;
  log_.add(now_ms(), identity_.node_name, EventKind::kTopicUpdated,
           {{"topic", config.topic_name},
            {"readQueueNums", config.read_queue_nums},
            {"writeQueueNums", config.write_queue_nums},
            {"perm", config.perm}});
  executor_.submit([this, increment = std::move(increment)](SerialExecutor::Done done) {
    do_register_broker_all(increment, std::move(done));
  });
}

// Java 5.x: BrokerOuterAPI#refreshMetadata, GET_BROKER_CLUSTER_INFO to the chosen NameServer.
void BrokerActor::refresh_metadata(SerialExecutor::Done done) {
  if (shutting_down_) return done();
  auto request = std::make_shared<core::RemotingRequest>();
  request->code = core::request_code::kGetBrokerClusterInfo;
  request->version = core::default_request_version(profile_);
  invoke_nameserver_sync(
      request, kClusterInfoTimeoutMs,
      [done = std::move(done)](InvokeFailure, const core::RemotingResponse*) { done(); });
}

void BrokerActor::invoke_nameserver_sync(std::shared_ptr<const core::RemotingRequest> request,
                                         std::int64_t timeout_ms,
                                         RemotingClient::Callback callback) {
  const NodeId ns = selector_.choose([this](NodeId n) { return client_.channel_ok(n); });
  client_.invoke(ns, std::move(request), kSmallRequestBytes, timeout_ms, false,
                 std::move(callback));
}

// Java 5.x: BrokerController#sendHeartbeat in acting-master mode, oneway to every NameServer.
void BrokerActor::send_heartbeat() {
  if (shutting_down_) return;
  auto request = std::make_shared<core::RemotingRequest>();
  request->version = core::default_request_version(profile_);
  request->oneway = true;
  request->ext_fields = identity_fields();
  if (config_.compatible_with_old_name_srv) {
    request->code = core::request_code::kQueryDataVersion;  // sendHeartbeatViaDataVersion
    request->body = topics_.data_version;
  } else {
    request->code = core::request_code::kBrokerHeartbeat;
  }
  for (NodeId ns : nameservers_) {
    client_.invoke(ns, request, kSmallRequestBytes, kSendHeartbeatTimeoutMs, /*oneway=*/true,
                   [](InvokeFailure, const core::RemotingResponse*) {});
  }
}

// Java: BrokerOuterAPI#unregisterBrokerAll, one NameServer after the other.
void BrokerActor::unregister_from(std::size_t index, std::function<void()> then) {
  if (index == nameservers_.size()) return then();
  auto request = std::make_shared<core::RemotingRequest>();
  request->code = core::request_code::kUnregisterBroker;
  request->version = core::default_request_version(profile_);
  request->ext_fields = identity_fields();
  client_.invoke(
      nameservers_[index], request, kSmallRequestBytes, kUnregisterTimeoutMs, false,
      [this, index, then = std::move(then)](InvokeFailure, const core::RemotingResponse*) mutable {
        unregister_from(index + 1, std::move(then));
      });
}

// Java: BrokerController#shutdown. 4.9 closes the serving port first, shuts the store down and
// unregisters after;
// 5.x (shutdownBasicService) unregisters first. The NameServer connections close last
// (BrokerOuterAPI#shutdown).
void BrokerActor::begin_shutdown(std::function<void()> on_done) {
  shutting_down_ = true;
  executor_.shutdown();
  heartbeat_executor_.shutdown();
  auto stop_serving = [this] {
    net_.history().stop_process(self(), DownKind::kShutdown, now_ms());
    net_.set_client_only(self(), true);
  };
  auto finish = [this, on_done = std::move(on_done)] {
    client_.close_all();
    net_.set_client_only(self(), false);
    stop();
    on_done();
  };
  log_.add(now_ms(), identity_.node_name, EventKind::kShutdownBegin);
  if (profile_ == core::Profile::kV4_9) {
    stop_serving();
    // Between the two, 4.9 shuts its message store down, whose DefaultMessageStore#shutdown
    // sleeps 1 s before it stops its services (their joins take what the machine takes and are
    // not modelled; a real 4.9.7 broker unregistered 3.5 s after SIGTERM, docs/fidelity.md).
    // The fault player calls this from its own actor: the timer goes in through the loop, so the
    // loop's wait takes it into account.
    const std::int64_t due = now_ms() + kMessageStoreShutdownSleepMs;
    post([this, due, finish] { at(due, [this, finish] { unregister_from(0, finish); }); });
  } else {
    unregister_from(0, [stop_serving, finish] {
      stop_serving();
      finish();
    });
  }
}

}  // namespace nssim::sim

// File: a simulated RocketMQ broker process (master or slave): registers its topic table with
// every NameServer at start and on BrokerController's schedule, refreshes metadata (5.x), sends
// acting-master heartbeats when configured, and shuts down cleanly in upstream's order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "nameserver_core/profile.h"
#include "nameserver_core/route_types.h"
#include "sim/client/nameserver_selector.h"
#include "sim/record/event_log.h"
#include "sim/scenario/scenario.h"
#include "sim/world/node_actor.h"
#include "sim/world/remoting_client.h"
#include "sim/world/serial_executor.h"

namespace nssim::sim {

struct BrokerIdentity {
  std::string node_name;
  std::string cluster_name;
  std::string broker_name;
  std::int64_t broker_id = 0;
  std::string broker_addr;     // ip:10911
  std::string ha_server_addr;  // ip:10912
};

class BrokerActor : public NodeActor {
 public:
  BrokerActor(Net& net, NodeId self, std::uint32_t epoch, core::Profile profile,
              BrokerIdentity identity, BrokerConfig config,
              core::TopicConfigSerializeWrapper topics, std::vector<NodeId> nameservers, Rng rng,
              EventLog& log);

  // Java: BrokerController#shutdown, in each version's order. `on_done` runs when the process
  // has exited (the caller then marks it down for good).
  void begin_shutdown(std::function<void()> on_done);
  // mqadmin updateTopic reached this broker: the topic table takes `config` and `version` (as
  // persisted by the caller) and the NameServers learn it at once.
  void update_topic(const core::TopicConfig& config, const core::DataVersion& version);

 private:
  void on_start() override;
  void on_envelope(const Envelope& envelope) override;

  void register_broker_all(bool force_register, SerialExecutor::Done done);
  void do_register_broker_all(const core::TopicConfigSerializeWrapper& topics,
                              SerialExecutor::Done done);
  void refresh_metadata(SerialExecutor::Done done);
  void send_heartbeat();
  void unregister_from(std::size_t index, std::function<void()> then);
  std::shared_ptr<core::RemotingRequest> register_request(
      const core::TopicConfigSerializeWrapper& topics) const;
  std::map<std::string, std::string> identity_fields() const;
  void invoke_nameserver_sync(std::shared_ptr<const core::RemotingRequest> request,
                              std::int64_t timeout_ms, RemotingClient::Callback callback);

  core::Profile profile_;
  BrokerIdentity identity_;
  BrokerConfig config_;
  core::TopicConfigSerializeWrapper topics_;
  std::vector<NodeId> nameservers_;
  Rng rng_;
  EventLog& log_;
  RemotingClient client_;
  NameServerSelector selector_;
  SerialExecutor executor_;
  SerialExecutor heartbeat_executor_;
  bool shutting_down_ = false;
};

}  // namespace nssim::sim

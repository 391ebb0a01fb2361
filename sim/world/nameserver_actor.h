// File: a simulated NameServer process: the pure core::NameServer behind Netty-like channel
// handling — requests in and responses out per connection, the scan on upstream's schedule, the
// server-side idle close (serverChannelMaxIdleTimeSeconds), channel-destroy on close and idle,
// and 5.x's batch unregistration run right after the request that queued it. Whenever its registry
// may have changed it logs its route view and records its route answers in RouteHistory.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nameserver_core/name_server.h"
#include "sim/nameserver/route_recorder.h"
#include "sim/nameserver/route_view_recorder.h"
#include "sim/record/event_log.h"
#include "sim/record/nameserver_requests.h"
#include "sim/scenario/scenario.h"
#include "sim/world/node_actor.h"

namespace nssim::sim {

class NameServerActor : public NodeActor {
 public:
  // `kv` is the KV configuration the process loads at start (Java: kvConfig.json survives
  // restarts); route tables always start empty. `routes` receives this incarnation's answers.
  NameServerActor(Net& net, NodeId self, std::uint32_t epoch, core::Profile profile,
                  const NameServerSpec& spec, const core::KvConfigManager& kv, RouteHistory& routes,
                  std::string node_name, EventLog& log, NameServerRequests& requests);

  // An admin request (mqadmin) handled at once, as if from a local tool.
  void admin(const core::RemotingRequest& request);
  const core::NameServer& server() const { return *server_; }

 private:
  struct ChannelState {
    NodeId peer = 0;
    std::int64_t last_activity_ms = 0;
  };

  void on_start() override;
  void on_envelope(const Envelope& envelope) override;
  void on_request(const Envelope& envelope);
  void watch_idle(std::uint64_t conn);
  void close_channel(std::uint64_t conn, core::RemovalPath path);
  void record(const std::vector<core::BrokerRemoval>& removals);
  // The registry may have changed: record_view, and the touched route answers.
  void registry_changed();
  void record_view();

  core::Profile profile_;
  const NameServerSpec& spec_;
  std::string node_name_;
  EventLog& log_;
  NameServerRequests& requests_;  // every request this NameServer processes, counted
  std::unique_ptr<core::NameServer> server_;
  RouteRecorder routes_;
  std::map<std::uint64_t, ChannelState> channels_;
  RouteViewRecorder view_;
};

}  // namespace nssim::sim

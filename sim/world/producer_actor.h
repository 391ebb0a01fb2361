// File: a simulated producer process: the client's scheduled route poll against its sticky
// NameServer goes over the simulated network, while its sends are evaluated by ProducerModel
// against the network's and the NameServers' histories, so millions of sends cost no SimGrid
// communication. The actor records its NameServer choice and channels for the model, which runs
// behind it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/client/nameserver_client_history.h"
#include "sim/client/nameserver_selector.h"
#include "sim/client/producer_model.h"
#include "sim/record/event_log.h"
#include "sim/world/node_actor.h"
#include "sim/world/remoting_client.h"
#include "sim/world/serial_executor.h"

namespace nssim::sim {

class ProducerActor : public NodeActor {
 public:
  ProducerActor(Net& net, NodeId self, std::uint32_t epoch, core::Profile profile,
                const ProducerSpec& spec, std::string name, std::vector<NodeId> nameservers,
                const AddressBook& addresses, const RouteHistory& routes, std::uint64_t seed,
                ProducerObserver& observer, EventLog& log, std::int64_t end_ms);

  // Evaluates every send that started up to the run's end (the simulation runs past the end by
  // the model's lag, so that all of them lie in the known past), or up to `until_ms` if earlier.
  void finish(std::int64_t until_ms);
  std::int64_t lag_ms() const { return model_.lag_ms(); }

 private:
  void on_start() override;
  void on_envelope(const Envelope& envelope) override;

  // A NameServer call's end, with who answered (or failed it) last and when it was asked.
  using RouteCallback =
      std::function<void(InvokeFailure, const core::RemotingResponse*, RouteQuery)>;

  // Java: MQClientInstance#updateTopicRouteInfoFromNameServer, topic by topic; a remoting
  // failure ends the round (the exception escapes the loop).
  void poll_routes(std::size_t index, SerialExecutor::Done done);
  // Hands the end of a route query for `topic` to the model, which applies and traces it: the
  // one way route answers and failures reach the model, whichever task asked.
  void deliver_route_answer(const std::string& topic, InvokeFailure failure,
                            const core::RemotingResponse* response, RouteQuery query);
  void invoke_nameserver(std::shared_ptr<const core::RemotingRequest> request,
                         std::int64_t begin_ms, std::size_t tries_left, RouteCallback callback);
  void advance();

  core::Profile profile_;
  const ProducerSpec& spec_;
  std::string name_;
  EventLog& log_;
  Rng rng_;
  NameServerSelector selector_;
  NameServerClientHistory nameserver_history_;  // read by model_, which lags behind
  ProducerModel model_;
  RemotingClient client_;
  SerialExecutor executor_;
  std::int64_t end_ms_;  // sends are measured up to the scenario's end, not beyond
};

}  // namespace nssim::sim

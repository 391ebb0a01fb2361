// File: the push consumers of a run (DefaultMQPushConsumer, CLUSTERING, concurrently consuming)
// and the brokers' consumer side, simulated after the SimGrid world has run: when every node's
// states, every NameServer's answers and every stored message are known. The consumers read
// them the way the producer models read theirs (NetworkHistory, RouteHistory), and nothing they
// do reaches back into the producers, the brokers' registrations or the NameServers: a consumer
// instance holds no producer (upstream gives each DefaultMQPushConsumer its own MQClientInstance
// by default, ClientConfig#changeInstanceNameToPID).
#pragma once

#include "sim/nameserver/route_history.h"
#include "sim/network/network_history.h"
#include "sim/record/consumer_record.h"
#include "sim/record/stored_messages.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

struct ConsumerInputs {
  const Scenario& scenario;
  const Topology& topology;
  const NetworkHistory& network;
  const RouteHistory& routes;
  const StoredMessages& stored;
};

ConsumerRecord run_consumers(const ConsumerInputs& inputs);

}  // namespace nssim::sim

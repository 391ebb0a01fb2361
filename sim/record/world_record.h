// File: WorldRecord, everything one simulated run recorded: what run_world (sim/world) hands back
// and what analyze_run (sim/analysis) reads. Plain data, no SimGrid: the analysis and its tests
// never need the simulator.
#pragma once

#include <cstdint>
#include <memory>

#include "sim/network/network_history.h"
#include "sim/record/consumer_record.h"
#include "sim/record/event_log.h"
#include "sim/record/nameserver_requests.h"
#include "sim/record/send_stats.h"
#include "sim/record/stored_messages.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

struct WorldRecord {
  Topology topology;
  EventLog log;
  std::unique_ptr<SendStats> sends;
  // Every node's states and every path's cuts over the run, as the transport rules saw them; the
  // analysis judges route health by it (NodeId = index into topology.nodes).
  std::unique_ptr<NetworkHistory> network;
  std::int64_t end_ms = 0;  // the scenario's end; the simulation ran on to flush in-flight sends
  // What each NameServer served, by request code and second (sends counts the route queries).
  NameServerRequests nameserver_requests;
  // Every message the brokers stored, per queue; only with consumers (null without), finished
  // when the producers finish.
  std::unique_ptr<StoredMessages> stored = nullptr;
  // What the consumers did (sim/consumer, run after the world); only with consumers.
  std::unique_ptr<ConsumerRecord> consumers = nullptr;
};

}  // namespace nssim::sim

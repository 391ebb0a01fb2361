// File: run_world (see world.h): engine set-up, node incarnations, and the controller actor that
// starts nodes, applies and undoes faults, and ends the run.
#include "sim/world/world.h"

#include <xbt/log.h>

#include <algorithm>
#include <set>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <string>

#include "sim/consumer/consumer_world.h"
#include "sim/world/fault_player.h"
#include "sim/world/incarnations.h"
#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace sg4 = simgrid::s4u;

std::vector<TimeWindow> fault_windows(const Scenario& scenario) {
  std::vector<TimeWindow> windows;
  for (const auto& fault : scenario.faults) {
    const std::int64_t end = fault.duration_ms
                                 ? std::min(scenario.duration_ms, fault.at_ms + *fault.duration_ms)
                                 : scenario.duration_ms;
    windows.push_back(TimeWindow{fault.at_ms, end});
  }
  return windows;
}

namespace {

// The SimGrid hosts: one per NameServer and broker. Producers and consumers send no SimGrid
// message (their models read NetworkHistory), so they have none; they come last in node order, so
// NodeId still indexes the hosts.
std::vector<HostSpec> host_specs(const Topology& topology) {
  std::vector<HostSpec> hosts;
  for (const auto& node : topology.nodes) {
    if (node.role == NodeRole::kProducer || node.role == NodeRole::kConsumer) continue;
    hosts.push_back(HostSpec{node.name, node.link.latency_ms, node.link.bandwidth_mbps});
  }
  return hosts;
}

// One actor per NameServer and broker plus the controller, the producer driver and the carriers;
// well below the ~32,000 that default guard pages allow.
constexpr std::size_t kGuardedActorsMax = 20000;

}  // namespace

WorldRecord run_world(const Scenario& scenario, TraceSink* trace) {
  WorldRecord record;
  record.topology = build_topology(scenario);
  record.sends =
      std::make_unique<SendStats>(fault_windows(scenario), trace, &record.nameserver_requests);
  record.end_ms = scenario.duration_ms;
  if (!scenario.consumers.empty()) {
    std::set<std::string, std::less<>> subscribed;
    for (const ConsumerSpec& spec : scenario.consumers) {
      subscribed.insert(spec.topics.begin(), spec.topics.end());
    }
    record.stored = std::make_unique<StoredMessages>(std::move(subscribed));
    record.sends->keep_stored_messages(record.stored.get());
  }

  xbt_log_control_set("root.thres:critical");
  int argc = 1;
  char program[] = "nssim";
  char* argv[] = {program, nullptr};
  sg4::Engine engine(&argc, argv);
  sg4::Engine::set_config("network/model:CM02");
  sg4::Engine::set_config("network/crosstraffic:0");
  // SimGrid protects each actor's stack with a guard page: two memory mappings per actor, so
  // beyond about 30,000 actors Linux's vm.max_map_count (65,530 by default) is used up and SimGrid
  // aborts ("Failed to protect stack"). Large runs go without the guard page: the simulation is
  // the same, only a stack overflow would no longer stop the run at once. The threshold is fixed,
  // not read from the machine, so that nothing about a run depends on where it runs.
  const std::vector<HostSpec> hosts = host_specs(record.topology);
  if (hosts.size() > kGuardedActorsMax) sg4::Engine::set_config("contexts/guard-size:0");

  record.network = std::make_unique<NetworkHistory>();
  NetworkHistory& history = *record.network;
  for (const auto& node : record.topology.nodes)
    history.add_node(node.name, node.link.latency_ms, node.link.bandwidth_mbps);
  Net net(history, build_platform(hosts));
  Incarnations incarnations(scenario, record, net);
  FaultPlayer faults(scenario, record, net, incarnations);

  sg4::Actor::create("producers", net.host(0).host, [&] {
    incarnations.producers().drive();
  })->daemonize();
  sg4::Actor::create("controller", net.host(0).host, [&] {
    faults.play();
    incarnations.producers().finish(scenario.duration_ms);
    if (record.stored) record.stored->finish();
  });
  engine.run();
  // The consumers run on what the world left: every node's states, every NameServer's answers
  // and every stored message are known now (sim/consumer/consumer_world.h).
  if (record.stored) {
    record.consumers = std::make_unique<ConsumerRecord>(run_consumers(ConsumerInputs{
        scenario, record.topology, *record.network, incarnations.routes(), *record.stored}));
  }
  return record;
}

}  // namespace nssim::sim

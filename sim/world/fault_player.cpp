// File: FaultPlayer (see fault_player.h).
#include "sim/world/fault_player.h"

#include <simgrid/s4u/Actor.hpp>

#include "nameserver_core/remoting.h"
#include "sim/world/broker_actor.h"
#include "sim/world/incarnations.h"
#include "sim/world/nameserver_actor.h"
#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace sg4 = simgrid::s4u;

FaultPlayer::FaultPlayer(const Scenario& scenario, WorldRecord& record, Net& net,
                         Incarnations& incarnations)
    : scenario_(scenario), record_(record), net_(net), incarnations_(incarnations) {}

void FaultPlayer::play() {
  // (time, sequence) -> action; starts come first at equal times, then faults in file order.
  std::map<std::pair<std::int64_t, std::size_t>, std::function<void()>> timeline;
  std::size_t sequence = 0;
  for (std::size_t i = 0; i < record_.topology.nodes.size(); ++i) {
    const auto node = static_cast<NodeId>(i);
    timeline[{record_.topology.nodes[i].start_ms, sequence++}] = [this, node] {
      if (!incarnations_.running(node)) incarnations_.start(node);
    };
  }
  for (std::size_t i = 0; i < scenario_.faults.size(); ++i) {
    const FaultSpec& fault = scenario_.faults[i];
    timeline[{fault.at_ms, sequence++}] = [this, i] { begin(i); };
    if (fault.duration_ms) {
      timeline[{fault.at_ms + *fault.duration_ms, sequence++}] = [this, i] { end(i); };
    }
  }
  for (auto& [when, action] : timeline) {
    if (when.first >= scenario_.duration_ms) break;
    sg4::this_actor::sleep_until(to_seconds(when.first));
    action();
  }
  sg4::this_actor::sleep_until(to_seconds(scenario_.duration_ms + incarnations_.max_lag_ms()));
}

std::vector<NodeId> FaultPlayer::nodes_of(const std::vector<std::string>& names) const {
  std::vector<NodeId> nodes;
  for (const auto& name : names) nodes.push_back(record_.topology.by_name.at(name));
  return nodes;
}

void FaultPlayer::log(std::size_t index, EventKind phase) {
  const FaultSpec& fault = scenario_.faults[index];
  // Named by its position in the file, as every output and --set faults[j] name it.
  nlohmann::json fields = {{"fault", fault.file_index}, {"kind", fault_kind_name(fault.kind)}};
  if (!fault.nodes.empty()) fields["nodes"] = fault.nodes;
  if (!fault.side_a.empty()) fields["from"] = fault.side_a;
  if (!fault.side_b.empty()) fields["to"] = fault.side_b;
  if (!fault.broker_name.empty()) fields["broker_name"] = fault.broker_name;
  if (!fault.topic.empty()) fields["topic"] = fault.topic;
  record_.log.add(now_ms(), "controller", phase, std::move(fields));
}

void FaultPlayer::begin(std::size_t index) {
  const FaultSpec& fault = scenario_.faults[index];
  NetworkHistory& history = net_.history();
  const std::int64_t now = now_ms();
  log(index, EventKind::kFaultBegin);
  switch (fault.kind) {
    case FaultKind::kKill:
      for (NodeId node : nodes_of(fault.nodes)) {
        if (!incarnations_.running(node)) continue;
        history.stop_process(node, DownKind::kCrash, now);
        incarnations_.end(node, DownKind::kCrash);
      }
      return;
    case FaultKind::kPoweroff:
      for (NodeId node : nodes_of(fault.nodes)) {
        const bool running = incarnations_.running(node);
        history.power_off(node, now);
        if (running) incarnations_.end(node, DownKind::kPoweroff);
      }
      return;
    case FaultKind::kShutdown:
      for (NodeId node : nodes_of(fault.nodes)) {
        if (!incarnations_.running(node)) continue;
        if (auto* broker = dynamic_cast<BrokerActor*>(incarnations_.current(node))) {
          broker->begin_shutdown([this, node] { incarnations_.forget(node); });
        } else {
          history.stop_process(node, DownKind::kShutdown, now);
          incarnations_.end(node, DownKind::kShutdown);
        }
      }
      return;
    case FaultKind::kPause:
      for (NodeId node : nodes_of(fault.nodes)) {
        if (!incarnations_.running(node)) continue;
        history.pause(node, now);
        if (auto actor = incarnations_.actor(node)) actor->suspend();  // a consumer has none
      }
      return;
    case FaultKind::kPartition:
      for (NodeId a : nodes_of(fault.side_a)) {
        for (NodeId b : nodes_of(fault.side_b)) {
          history.cut(a, b, now);
          if (!fault.one_way) history.cut(b, a, now);
        }
      }
      return;
    case FaultKind::kLatency:
      // NetworkHistory only: Net adds the extra latency to every envelope sent while it holds
      // (Net::extra_latency_s says why the SimGrid link is left alone).
      for (NodeId node : nodes_of(fault.nodes)) {
        latency_before_.try_emplace(node, history.state_at(node, now).latency_ms);
        history.set_latency(node, fault.latency_ms, now);
      }
      return;
    case FaultKind::kWipeWritePerm:
    case FaultKind::kAddWritePerm:
      admin_write_perm(fault);
      return;
    case FaultKind::kUpdateTopic:
      admin_update_topic(fault);
      return;
  }
}

void FaultPlayer::end(std::size_t index) {
  const FaultSpec& fault = scenario_.faults[index];
  NetworkHistory& history = net_.history();
  const std::int64_t now = now_ms();
  log(index, EventKind::kFaultEnd);
  switch (fault.kind) {
    case FaultKind::kKill:
    case FaultKind::kShutdown:
      for (NodeId node : nodes_of(fault.nodes)) restart(node);
      return;
    case FaultKind::kPoweroff:
      for (NodeId node : nodes_of(fault.nodes)) {
        history.power_on(node, now);
        restart(node);
      }
      return;
    case FaultKind::kPause:
      for (NodeId node : nodes_of(fault.nodes)) {
        if (!incarnations_.running(node)) continue;
        history.resume(node, now);
        if (auto actor = incarnations_.actor(node)) actor->resume();
      }
      return;
    case FaultKind::kPartition:
      for (NodeId a : nodes_of(fault.side_a)) {
        for (NodeId b : nodes_of(fault.side_b)) {
          history.heal(a, b, now);
          if (!fault.one_way) history.heal(b, a, now);
        }
      }
      return;
    case FaultKind::kLatency:
      for (NodeId node : nodes_of(fault.nodes)) {
        auto before = latency_before_.find(node);
        if (before == latency_before_.end()) continue;
        history.set_latency(node, before->second, now);
        latency_before_.erase(before);
      }
      return;
    case FaultKind::kWipeWritePerm:
    case FaultKind::kAddWritePerm:
    case FaultKind::kUpdateTopic:
      return;  // admin operations are not undone
  }
}

// A process comes back only if none runs and its host is up (a node started later than the
// fault ends starts at its own start instant instead).
void FaultPlayer::restart(NodeId node) {
  const std::int64_t now = now_ms();
  if (incarnations_.running(node)) return;
  if (!net_.history().state_at(node, now).host_up) return;
  if (record_.topology.nodes[static_cast<std::size_t>(node)].start_ms > now) return;
  incarnations_.start(node);
}

// mqadmin wipeWritePerm / addWritePerm: the request goes to every NameServer that is running.
void FaultPlayer::admin_write_perm(const FaultSpec& fault) {
  core::RemotingRequest request;
  request.code = fault.kind == FaultKind::kWipeWritePerm
                     ? core::request_code::kWipeWritePermOfBroker
                     : core::request_code::kAddWritePermOfBroker;
  request.version = core::default_request_version(scenario_.profile);
  request.ext_fields = {{"brokerName", fault.broker_name}};
  for (NodeId ns : record_.topology.nameservers) {
    if (auto* node = dynamic_cast<NameServerActor*>(incarnations_.current(ns)))
      node->admin(request);
  }
}

// mqadmin updateTopic -b <master address>: the group's master takes the topic config. A master
// that is down or frozen cannot answer; mqadmin would report the failure, so the log does.
// Deviation: slaves keep their topic table; upstream's SlaveSynchronize would copy the master's
// topic configs to them within its sync period.
void FaultPlayer::admin_update_topic(const FaultSpec& fault) {
  core::TopicConfig config;
  config.topic_name = fault.topic;
  config.read_queue_nums = fault.read_queue_nums;
  config.write_queue_nums = fault.write_queue_nums;
  config.perm = fault.perm;
  for (NodeId node : record_.topology.brokers) {
    const TopologyNode& info = record_.topology.nodes[static_cast<std::size_t>(node)];
    if (info.broker_id != 0 || scenario_.broker_groups[info.group].name != fault.broker_name)
      continue;
    if (!incarnations_.update_topic(node, config)) {
      record_.log.add(now_ms(), "controller", EventKind::kAdminFailed,
                      {{"broker", info.name}, {"kind", fault_kind_name(fault.kind)}});
    }
  }
}

}  // namespace nssim::sim

// File: the controller of a run: starts every node at its start instant, applies each scripted
// fault at at_ms and undoes it after duration_ms, and ends the run once producers' last sends
// can be evaluated. Faults act through NetworkHistory (what the network does) and Incarnations
// (which processes run), never on SimGrid hosts or links, whose failure semantics differ.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <utility>
#include <vector>

#include "sim/record/world_record.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

class Incarnations;
class Net;

class FaultPlayer {
 public:
  FaultPlayer(const Scenario& scenario, WorldRecord& record, Net& net, Incarnations& incarnations);
  // Runs in the controller actor; returns at the end of the run.
  void play();

 private:
  void begin(std::size_t index);
  void end(std::size_t index);
  void restart(NodeId node);
  std::vector<NodeId> nodes_of(const std::vector<std::string>& names) const;
  void admin_write_perm(const FaultSpec& fault);
  void admin_update_topic(const FaultSpec& fault);
  void log(std::size_t index, EventKind phase);

  const Scenario& scenario_;
  WorldRecord& record_;
  Net& net_;
  Incarnations& incarnations_;
  std::map<NodeId, double> latency_before_;
};

}  // namespace nssim::sim

// File: the world's producers. None is a SimGrid actor: each producer process is a ProducerModel
// (its sends, its sends' route queries and its scheduler thread's route polls and heartbeats),
// evaluated against the
// network's and the NameServers' histories. One driver actor advances every model on a 60 s batch
// (5 s when tracing), behind the present by the models' lag, so a producer costs SimGrid nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "sim/client/producer_model.h"
#include "sim/record/world_record.h"

namespace nssim::sim {

class ProducerFleet {
 public:
  ProducerFleet(const Scenario& scenario, WorldRecord& record, const RouteHistory& routes);

  // Starts the process of producer `node` (incarnation `epoch`) at t_ms. Faults never end a
  // producer process (only partitions and latency faults reach producers), so it runs to the end.
  void start(NodeId node, std::uint32_t epoch, std::int64_t t_ms);
  // The driver actor's body: every batch period, evaluates every producer up to the known
  // past. Never returns; the actor is a daemon.
  void drive();
  // Evaluates every producer's sends that started up to `end_ms`.
  void finish(std::int64_t end_ms);
  // How long the run must go on after its end for producers' last sends to be evaluated.
  std::int64_t max_lag_ms() const;

 private:
  const Scenario& scenario_;
  WorldRecord& record_;
  const RouteHistory& routes_;
  std::vector<std::unique_ptr<ProducerModel>> models_;
};

}  // namespace nssim::sim

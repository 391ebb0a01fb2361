// File: ProducerFleet (see producer_fleet.h).
#include "sim/world/producer_fleet.h"

#include <algorithm>
#include <simgrid/s4u/Actor.hpp>
#include <string>
#include <vector>

#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace {
// How often the models are advanced. A model's results do not depend on it (each is a function
// of the histories and its own state), only the cost: every batch touches every producer's state
// once, a cache miss per line with 100,000 producers, so long batches spread that over more sends.
// A trace holds each batch's lines in memory until every producer has passed them
// (trace_writer.h), so a traced run keeps short batches: its memory grows with the batch.
constexpr std::int64_t kAdvancePeriodMs = 60000;
constexpr std::int64_t kTracedAdvancePeriodMs = 5000;
}  // namespace

ProducerFleet::ProducerFleet(const Scenario& scenario, WorldRecord& record,
                             const RouteHistory& routes)
    : scenario_(scenario), record_(record), routes_(routes) {
  models_.reserve(record.topology.producers.size());
}

void ProducerFleet::start(NodeId node, std::uint32_t epoch, std::int64_t t_ms) {
  const TopologyNode& info = record_.topology.nodes[static_cast<std::size_t>(node)];
  const ProducerSpec& spec = scenario_.producers[info.producer_spec];
  const std::uint64_t seed = scenario_.seed ^ (static_cast<std::uint64_t>(epoch) << 32);
  // Java: updateNameServerAddressList shuffles the list; namesrvIndex starts at random.
  Rng client_rng = Rng::derive(seed, "client/" + info.name);
  NameServerClient client{
      NameServerSelector(record_.topology.nameservers_of(spec.nameservers), client_rng), {}};
  // The process's instance: its own set's producer first (whose ClientConfig the instance
  // takes), then one of each set that runs in its instance, in file order.
  std::vector<InstanceProducer> producers;
  for (std::size_t p = 0; p < scenario_.producers.size(); ++p) {
    const ProducerSpec& member = scenario_.producers[p];
    if (p == info.producer_spec || member.instance_of == info.producer_spec) {
      producers.push_back(
          InstanceProducer{member, record_.sends->observer_for(info.name, member.name_prefix)});
    }
  }
  models_.push_back(
      std::make_unique<ProducerModel>(producers, scenario_.profile, node, info.name,
                                      *record_.network, record_.topology.broker_addresses,
                                      RouteQuerySources{routes_, std::move(client), &record_.log},
                                      Rng::derive(seed, "producer/" + info.name), t_ms));
  models_.back()->start_scheduled_task();
}

// NetworkHistory and RouteHistory are appended as the world runs, so now they hold everything
// before now (changes at now itself may still come). A model evaluates only events at or before
// now - lag, and each looks at most max(connectTimeoutMillis, sendMsgTimeout, mqClientApiTimeout)
// + kTimedWaitOverrunMs ahead, which is below lag: it never reads an instant the world has not
// finished.
void ProducerFleet::drive() {
  const std::int64_t period = record_.sends->traced() ? kTracedAdvancePeriodMs : kAdvancePeriodMs;
  for (std::int64_t t = period;; t += period) {
    simgrid::s4u::this_actor::sleep_until(to_seconds(t));
    for (const auto& model : models_) {
      model->advance_to(std::min(scenario_.duration_ms, t - model->lag_ms()));
    }
  }
}

void ProducerFleet::finish(std::int64_t end_ms) {
  for (const auto& model : models_) model->advance_to(end_ms);
}

std::int64_t ProducerFleet::max_lag_ms() const {
  std::int64_t lag = 0;
  for (const auto& model : models_) lag = std::max(lag, model->lag_ms());
  return lag;
}

}  // namespace nssim::sim

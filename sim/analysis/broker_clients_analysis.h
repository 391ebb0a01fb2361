// File: what each broker knew of its producers, as result.json's "broker_clients": the broker's
// client tables (sim/broker/client_tables.h) replayed per broker node and incarnation from the
// heartbeats the clients recorded (sim/record/client_schedule.h), the closes of their channels the
// broker saw, its idle timer and its housekeeping scans. The figures are defined in
// reports/README.md "Broker client tables".
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "sim/network/network_history.h"
#include "sim/record/event_log.h"
#include "sim/record/send_stats.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

// How many brokers broker_clients.per_broker lists, most removals first; the totals and the
// distribution cover every broker.
inline constexpr std::size_t kListedBrokers = 100;

// The "broker_clients" object, the tables as they stood at end_ms; nullopt when no client sent a
// heartbeat, so a run without them has no such section.
std::optional<nlohmann::json> broker_clients_json(const Topology& topology,
                                                  const std::vector<Event>& events,
                                                  const NetworkHistory& network,
                                                  const SendStats& sends, std::int64_t end_ms);

}  // namespace nssim::sim

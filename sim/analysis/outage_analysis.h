// File: the per-outage part of a run's analysis and the settings it is judged by. An outage is a
// fault that touches brokers (kill, power-off, shutdown, pause, partition, latency); it is
// measured against the fault's start and, when the fault ends, the broker's return.
#pragma once

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <vector>

#include "sim/analysis/route_health.h"
#include "sim/analysis/route_replay.h"
#include "sim/network/network_history.h"
#include "sim/record/event_log.h"
#include "sim/record/send_stats.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

// The RocketMQ settings the section 11 formulas use, by upstream name, as this run had them.
nlohmann::json settings_json(const Scenario& scenario);

nlohmann::json outages_json(const Scenario& scenario, const Topology& topology,
                            const std::vector<Event>& events, const RouteReplay& replay,
                            const SendStats& sends, const NetworkHistory& network,
                            const RouteHealth& health);

nlohmann::json send_counts_json(const SendCounts& counts);
// {"total": total, <every send cause but ok>: count}: how sends, attempts or heartbeats failed.
nlohmann::json failed_json(const std::array<std::int64_t, kSendCauseCount>& by_cause,
                           std::int64_t total);

}  // namespace nssim::sim

// File: what each client's scheduler thread did (sim/record/client_schedule.h), as result.json's
// "client_scheduler": how late its route polls started, how long due runs waited for the one
// thread, what its heartbeats cost per broker address, and, per broker removal from the
// NameServers, how long each client took to poll after it (F - R, spec section 3.3). The figures
// are defined in reports/README.md "Client scheduler".
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>

#include "sim/analysis/route_replay.h"
#include "sim/record/send_stats.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

// How many clients client_scheduler.per_client lists, worst route-poll delay first; the
// distributions cover every client.
inline constexpr std::size_t kListedClients = 100;

// The "client_scheduler" object; nullopt when no client's scheduler reported a run, so a run
// without scheduler records has no such section.
std::optional<nlohmann::json> client_scheduler_json(const Scenario& scenario,
                                                    const Topology& topology,
                                                    const RouteReplay& replay,
                                                    const SendStats& sends);

}  // namespace nssim::sim

// File: the figures of NameServer restarts (result.json `nameserver_restarts[]`): when a restarted
// NameServer, whose tables start empty, got its first broker registration again, and how long
// after that sends still failed for want of a route (apache/rocketmq#5322). Kept apart from the
// outage figures, which are about brokers.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "sim/analysis/route_replay.h"
#include "sim/record/send_stats.h"

namespace nssim::sim {

// One entry per NameServer process start after its first, in time order; nullopt when no
// NameServer restarted, so that runs without a restart keep their result.json as it was.
std::optional<nlohmann::json> nameserver_restarts_json(const RouteReplay& replay,
                                                       const SendStats& sends);

}  // namespace nssim::sim

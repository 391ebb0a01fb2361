// File: what the admin operations of a run did to the producers. An operator who wipes a
// group's write permission before taking it down, or spreads a topic to a new group, needs to
// know how long producers take to follow: they learn it only at their next route poll.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "sim/record/send_stats.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

// Java: MQClientInstance#updateTopicRouteInfoFromNameServer asks with mqClientApiTimeout (5.x)
// or a fixed 3 s (4.9); either way an answer comes within 3 s of the poll.
inline constexpr std::int64_t kRouteRequestTimeoutMs = 3000;

// The "admin" array of result.json: one entry per wipeWritePerm / addWritePerm / updateTopic
// fault, with per producer the time from the operation until its publish info followed it
// (lost the group, or gained it), and the bound RocketMQ's rules give.
nlohmann::json admin_json(const Scenario& scenario, const SendStats& sends);

}  // namespace nssim::sim

// File: ClientSchedule and the scheduled tasks' names (see client_schedule.h).
#include "sim/record/client_schedule.h"

#include <cstddef>
#include <string>

namespace nssim::sim {

const char* scheduled_task_name(ScheduledTask task) {
  switch (task) {
    case ScheduledTask::kRoutePoll:
      return "route_poll";
    case ScheduledTask::kHeartbeat:
      return "heartbeat";
    case ScheduledTask::kPersistConsumerOffset:
      return "persist_consumer_offset";
  }
  return "route_poll";
}

void ClientSchedule::add(const HeartbeatRecord& heartbeat) {
  HeartbeatCounts& counts = heartbeats[std::string(heartbeat.address)];
  if (counts.attempts == 0) {
    counts.broker_name = std::string(heartbeat.broker_name);
    counts.broker_id = heartbeat.broker_id;
  }
  ++counts.attempts;
  ++counts.by_cause[static_cast<std::size_t>(heartbeat.cause)];
  if (!heartbeat.processed_ms && !heartbeat.closed_channel) return;
  ChannelHeartbeats& channel = channels[heartbeat.channel];
  if (channel.address.empty()) channel.address = std::string(heartbeat.address);
  if (heartbeat.closed_channel) channel.closed_ms = heartbeat.end_ms;
  if (!heartbeat.processed_ms) return;
  const std::int64_t at = *heartbeat.processed_ms;
  ++channel.processed;
  if (channel.stretches.empty() ||
      at - channel.stretches.back().last_ms >= kChannelExpiredTimeoutMs) {
    channel.stretches.push_back({at, at});
  } else {
    channel.stretches.back().last_ms = at;
  }
}

}  // namespace nssim::sim

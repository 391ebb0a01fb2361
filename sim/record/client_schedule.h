// File: what a client's scheduler thread did (MQClientInstance#startScheduledTask): every run of
// its tasks with the instant it was due and the instant the one thread took it, and every
// heartbeat request a heartbeat run sent to a broker address. The client model reports them; the
// analysis measures from them how late route polls ran and what heartbeats cost.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "sim/broker/client_tables.h"
#include "sim/record/send_record.h"

namespace nssim::sim {

// The scheduler's tasks the model runs. Java: MQClientInstance#startScheduledTask's
// updateTopicRouteInfoFromNameServer (every pollNameServerInterval) and cleanOfflineBroker +
// sendHeartbeatToAllBrokerWithLock (every heartbeatBrokerInterval).
// persistAllConsumerOffset (every persistConsumerOffsetInterval) runs only in an instance with a
// consumer (sim/consumer).
enum class ScheduledTask { kRoutePoll, kHeartbeat, kPersistConsumerOffset };
inline constexpr std::size_t kScheduledTaskCount = 3;
// "route_poll", "heartbeat", "persist_consumer_offset"
const char* scheduled_task_name(ScheduledTask task);

// One run of a task: scheduleAtFixedRate makes run k due at its first delay + k periods after
// the instance started; the thread takes it at start_ms (>= due_ms: later when a run before it,
// of any task, still held the thread) and it returns at end_ms.
struct ScheduledRun {
  ScheduledTask task = ScheduledTask::kRoutePoll;
  std::int64_t due_ms = 0;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
};

// One HEART_BEAT (34) request of a heartbeat run (MQClientInstance#sendHeartbeatToAllBroker):
// sent at start_ms, ended at end_ms with `cause` (kOk: answered; otherwise why invokeSync threw),
// over the client's channel `channel` (a handle, never reused by one client); processed_ms when
// the broker processed it (ClientManageProcessor#heartBeat), closed_channel when its timeout made
// the client close that channel. The names are views, as in send_record.h.
struct HeartbeatRecord {
  std::string_view broker_name;
  std::int64_t broker_id = 0;  // 0: the master
  std::string_view address;
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;
  SendCause cause = SendCause::kOk;
  std::uint64_t channel = 0;
  std::optional<std::int64_t> processed_ms = std::nullopt;
  bool closed_channel = false;
};

// What one client channel's heartbeats did at its broker, kept small enough for hours of them:
// the processed heartbeats as stretches in which each came less than kChannelExpiredTimeoutMs
// after the one before (the broker's entry for the channel can then neither expire nor idle out
// inside a stretch, sim/broker/client_tables.h), and when a heartbeat's timeout closed it.
struct ChannelHeartbeats {
  struct Stretch {
    std::int64_t first_ms = 0;
    std::int64_t last_ms = 0;
  };
  std::string address;
  std::int64_t processed = 0;
  std::vector<Stretch> stretches;
  std::optional<std::int64_t> closed_ms = std::nullopt;
};

// The heartbeats one client sent to one broker address.
struct HeartbeatCounts {
  std::string broker_name;
  std::int64_t broker_id = 0;
  std::int64_t attempts = 0;
  std::array<std::int64_t, kSendCauseCount> by_cause{};  // kOk counts the answered ones
  std::int64_t failed() const { return attempts - by_cause[0]; }
};

// What one client's scheduler did over the run.
struct ClientSchedule {
  std::vector<ScheduledRun> runs;                       // in start order
  std::map<std::string, HeartbeatCounts> heartbeats;    // by broker address
  std::map<std::uint64_t, ChannelHeartbeats> channels;  // by channel handle, of the heartbeats
  void add(const ScheduledRun& run) { runs.push_back(run); }
  void add(const HeartbeatRecord& heartbeat);
};

}  // namespace nssim::sim

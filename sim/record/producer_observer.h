// File: ProducerObserver, what a producer model reports to whoever measures the run (SendStats,
// and the trace behind it). It belongs to the record: the client calls it, knowing nothing of who
// listens.
#pragma once

#include <cstdint>
#include <set>
#include <string>

#include "sim/record/client_schedule.h"
#include "sim/record/send_record.h"
#include "sim/record/trace_sink.h"

namespace nssim::sim {

// Callbacks to whoever measures the run. Called in simulated-time order per producer.
struct ProducerObserver {
  virtual ~ProducerObserver() = default;
  virtual void on_send(const SendRecord& record) = 0;
  // The publish info of `topic` was rebuilt at t_ms (a changed route, or any route answer while
  // the publish info was missing or not ok); `brokers` are the groups it now has writable
  // queues on (sorted), possibly the same as before.
  virtual void on_publish_info(const std::string& topic, std::int64_t t_ms,
                               const std::set<std::string>& brokers) = 0;
  // A route query was applied at update.answered_ms (after on_publish_info, if it rebuilt the
  // publish info), or, when it got no answer, seen then.
  virtual void on_route_update(const RouteUpdate& update) = 0;
  // The client's scheduler thread ran a task (reported when the run returns), and one of its
  // heartbeat runs sent a heartbeat (reported when it ends).
  virtual void on_scheduled_run(const ScheduledRun& run) = 0;
  virtual void on_heartbeat(const HeartbeatRecord& heartbeat) = 0;
  // advance_to has evaluated everything up to its instant: whatever the model reports from now
  // on ended at or after frontier_ms (the earliest start of a send still in flight, or that
  // instant).
  virtual void on_advanced(std::int64_t frontier_ms) = 0;
};

}  // namespace nssim::sim

// File: the client's one scheduler thread (MQClientInstance#startScheduledTask on
// MQClientFactoryScheduledThread, client_scheduler.h) driven by the model's event loop: it takes
// the next due run when it is idle, runs it (the route poll, producer_route_poll.cpp, or the
// heartbeat run, client_heartbeat.cpp) and reports it when it returns.
#include "common/invariant.h"
#include "sim/client/producer_model_impl.h"

namespace nssim::sim {

namespace {

// Java: MQClientInstance#startScheduledTask's initialDelay for updateTopicRouteInfoFromNameServer
// and for cleanOfflineBroker + sendHeartbeatToAllBrokerWithLock.
constexpr std::int64_t kFirstRoutePollDelayMs = 10;
constexpr std::int64_t kFirstHeartbeatDelayMs = 1000;

}  // namespace

// Upstream's submission order: fetchNameServerAddr (not modelled, client_scheduler.h), the route
// poll, the heartbeat run, then persistAllConsumerOffset and adjustThreadPool (not modelled).
void ProducerModel::Impl::start_scheduled_task() {
  scheduler.schedule_at_fixed_rate(ScheduledTask::kRoutePoll, start_ms + kFirstRoutePollDelayMs,
                                   client_spec.config.poll_name_server_interval);
  scheduler.schedule_at_fixed_rate(ScheduledTask::kHeartbeat, start_ms + kFirstHeartbeatDelayMs,
                                   client_spec.config.heartbeat_broker_interval);
  take_next_run(start_ms);
}

// Nothing reaches the scheduler while the thread is idle (its tasks are fixed), so the run it
// takes next is known now, and scheduled at its start.
void ProducerModel::Impl::take_next_run(std::int64_t idle_ms) {
  running = scheduler.take(idle_ms);
  schedule(running.start_ms, EventKind::kScheduledRun);
}

void ProducerModel::Impl::on_scheduled_run(std::int64_t t_ms) {
  switch (running.task) {
    case ScheduledTask::kRoutePoll:
      on_poll_round(t_ms);
      return;
    case ScheduledTask::kHeartbeat:
      on_heartbeat_run(t_ms);
      return;
    case ScheduledTask::kPersistConsumerOffset:
      break;  // registered only by consumer instances (sim/consumer)
  }
  NSSIM_CHECK(false, "a producer instance ran a task it never registered");
}

void ProducerModel::Impl::end_scheduled_run(std::int64_t t_ms) {
  running.end_ms = t_ms;
  observer.on_scheduled_run(running);
  take_next_run(t_ms);
}

}  // namespace nssim::sim

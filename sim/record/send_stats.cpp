// File: SendStats (see send_stats.h).
#include "sim/record/send_stats.h"

#include "nameserver_core/remoting.h"
#include "sim/record/stored_messages.h"

namespace nssim::sim {

bool publish_info_holds(const std::vector<PublishChange>& changes, std::int64_t t_ms,
                        const std::string& group) {
  const PublishChange* last = nullptr;
  for (const auto& change : changes) {
    if (change.t_ms > t_ms) break;
    last = &change;
  }
  return last != nullptr && last->brokers.count(group) != 0;
}

void SendCounts::add(const SendRecord& record, std::int64_t stored) {
  ++sends;
  attempts += static_cast<std::int64_t>(record.attempts.size());
  ++by_cause[static_cast<std::size_t>(record.cause)];
  if (record.cause == SendCause::kOk && record.attempts.size() > 1) ++retries_succeeded;
  if (stored > 1) duplicates_stored += stored - 1;
  if (record.cause != SendCause::kOk && stored > 0) ++failed_but_stored;
}

std::int64_t SendCounts::failed() const {
  return sends - by_cause[static_cast<std::size_t>(SendCause::kOk)];
}

std::int64_t BrokerAttempts::failed() const {
  return attempts - by_cause[static_cast<std::size_t>(SendCause::kOk)];
}

// Counts every report and passes it on to the trace, if there is one: with tracing off a send
// costs one null check more.
class SendStats::Observer : public ProducerObserver {
 public:
  Observer(SendStats& stats, std::string producer, SendCounts& group, TraceSink* trace,
           std::size_t trace_handle)
      : stats_(stats),
        producer_(std::move(producer)),
        group_(group),
        trace_(trace),
        trace_handle_(trace_handle) {}
  void on_send(const SendRecord& record) override {
    stats_.on_send(record, group_, brokers_by_id_);
    if (trace_ != nullptr) trace_->on_send(trace_handle_, record);
  }
  void on_publish_info(const std::string& topic, std::int64_t t_ms,
                       const std::set<std::string>& brokers) override {
    stats_.publish_changes_[producer_][topic].push_back(PublishChange{t_ms, brokers});
  }
  void on_route_update(const RouteUpdate& update) override {
    if (stats_.requests_ != nullptr && update.query.served_ms) {
      stats_.requests_->add(update.query.nameserver, core::request_code::kGetRouteinfoByTopic,
                            *update.query.served_ms);
    }
    if (trace_ != nullptr) trace_->on_route_update(trace_handle_, update);
  }
  void on_scheduled_run(const ScheduledRun& run) override { schedule().add(run); }
  void on_heartbeat(const HeartbeatRecord& heartbeat) override { schedule().add(heartbeat); }
  void on_advanced(std::int64_t frontier_ms) override {
    if (trace_ != nullptr) trace_->on_frontier(trace_handle_, frontier_ms);
  }

 private:
  SendStats& stats_;
  std::string producer_;
  SendCounts& group_;
  TraceSink* trace_;
  std::size_t trace_handle_;
  std::vector<BrokerAttempts*> brokers_by_id_;  // by this producer's broker ids; null: not yet met
  ClientSchedule& schedule() {
    if (schedule_ == nullptr) schedule_ = &stats_.schedules_[producer_];
    return *schedule_;
  }
  ClientSchedule* schedule_ = nullptr;  // this producer's entry in stats_.schedules_, once met
};

SendStats::SendStats(std::vector<TimeWindow> windows, TraceSink* trace,
                     NameServerRequests* requests)
    : windows_(std::move(windows)),
      trace_(trace),
      requests_(requests),
      window_counts_(windows_.size()),
      window_latencies_(windows_.size()) {}

SendStats::~SendStats() = default;

ProducerObserver& SendStats::observer_for(const std::string& producer, const std::string& group) {
  auto& slot = observers_[{producer, group}];
  if (!slot) {
    const std::size_t handle = trace_ != nullptr ? trace_->add_producer(producer, group) : 0;
    slot = std::make_unique<Observer>(*this, producer, by_group_[group], trace_, handle);
    producer_groups_[producer].insert(group);
  }
  return *slot;
}

BrokerAttempts& SendStats::broker_entry(std::string_view name) {
  auto indexed = broker_index_.find(name);
  if (indexed == broker_index_.end()) {
    auto& entry = *by_broker_.try_emplace(std::string(name)).first;
    indexed = broker_index_.emplace(std::string_view(entry.first), &entry.second).first;
  }
  return *indexed->second;
}

void SendStats::count_attempt(const AttemptRecord& attempt, std::vector<BrokerAttempts*>& by_id) {
  if (attempt.broker_name.empty()) return;  // no queue was chosen: no broker to count it at
  BrokerAttempts* found = nullptr;
  if (attempt.broker_id != kNoBrokerId) {
    if (by_id.size() <= attempt.broker_id) by_id.resize(attempt.broker_id + 1, nullptr);
    BrokerAttempts*& cached = by_id[attempt.broker_id];
    if (cached == nullptr) cached = &broker_entry(attempt.broker_name);
    found = cached;
  } else {
    found = &broker_entry(attempt.broker_name);
  }
  BrokerAttempts& broker = *found;
  ++broker.attempts;
  ++broker.by_cause[static_cast<std::size_t>(attempt.cause)];
  if (attempt.cause != SendCause::kOk) return;
  const auto second = static_cast<std::size_t>(attempt.start_ms / 1000);
  if (broker.ok_per_second.size() <= second) broker.ok_per_second.resize(second + 1, 0);
  ++broker.ok_per_second[second];
}

void SendStats::on_send(const SendRecord& record, SendCounts& group,
                        std::vector<BrokerAttempts*>& by_id) {
  const std::int64_t stored = stored_copies(record);
  if (stored_ != nullptr && stored > 0) {
    for (const auto& attempt : record.attempts) {
      if (attempt.stored) {
        stored_->add(attempt.broker_name, record.topic, attempt.queue_id, attempt.stored_ms);
      }
    }
  }
  totals_.add(record, stored);
  group.add(record, stored);
  for (const auto& attempt : record.attempts) count_attempt(attempt, by_id);
  const std::int64_t second = record.start_ms / 1000;
  if (last_second_ == per_second_.end() || last_second_->first != second) {
    last_second_ = per_second_.try_emplace(second).first;
  }
  last_second_->second.add(record, stored);
  if (record.cause == SendCause::kNoRoute) ++no_route_ends_[record.end_ms];
  for (std::size_t i = 0; i < windows_.size(); ++i) {
    if (record.start_ms >= windows_[i].start_ms && record.start_ms < windows_[i].end_ms) {
      window_counts_[i].add(record, stored);
      window_latencies_[i].add(record.end_ms - record.start_ms);
    }
  }
}

}  // namespace nssim::sim

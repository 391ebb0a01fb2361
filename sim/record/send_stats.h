// File: what the run keeps of tens of millions of sends: totals, a per-second series, the sends
// inside each outage window (counts by cause and a histogram of their durations), when the sends
// that found no route ended, and every producer's publish-info changes, from which route-health
// windows are measured.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sim/record/client_schedule.h"
#include "sim/record/latency_histogram.h"
#include "sim/record/nameserver_requests.h"
#include "sim/record/producer_observer.h"
#include "sim/record/send_record.h"
#include "sim/record/trace_sink.h"

namespace nssim::sim {

class StoredMessages;

struct SendCounts {
  std::int64_t sends = 0;
  std::int64_t attempts = 0;
  std::int64_t retries_succeeded = 0;  // sends that succeeded after a failed attempt
  // Copies the brokers stored beyond each send's first (a retry after an attempt that was stored
  // but not answered in time), and failed sends whose message a broker stored all the same.
  std::int64_t duplicates_stored = 0;
  std::int64_t failed_but_stored = 0;
  std::array<std::int64_t, kSendCauseCount> by_cause{};  // index: SendCause; kOk counts successes
  // `stored`: stored_copies(record), counted once by the caller for all the counts it adds to.
  void add(const SendRecord& record, std::int64_t stored);
  std::int64_t failed() const;
};

// The attempts that went to one broker group, whatever send they belonged to: a send retried on
// another broker counts one attempt at each.
struct BrokerAttempts {
  std::int64_t attempts = 0;
  std::array<std::int64_t, kSendCauseCount> by_cause{};  // kOk counts the attempts that succeeded
  std::vector<std::int64_t> ok_per_second;               // index: the second the attempt started
  std::int64_t failed() const;
};

struct TimeWindow {
  std::int64_t start_ms = 0;
  std::int64_t end_ms = 0;  // exclusive
};

struct PublishChange {
  std::int64_t t_ms = 0;
  std::set<std::string> brokers;
};

// Whether the publish info in force at t_ms (the last change at or before it) holds `group`.
bool publish_info_holds(const std::vector<PublishChange>& changes, std::int64_t t_ms,
                        const std::string& group);

class SendStats {
 public:
  // `trace` (may be null: no trace) also receives every report of every producer; `requests`
  // (may be null: not counted) every route query a NameServer answered, as GET_ROUTEINFO_BY_TOPIC.
  explicit SendStats(std::vector<TimeWindow> windows, TraceSink* trace = nullptr,
                     NameServerRequests* requests = nullptr);
  ~SendStats();
  SendStats(const SendStats&) = delete;
  SendStats& operator=(const SendStats&) = delete;

  // The observer for the producer of group `group` (a producer set of the scenario) in process
  // `producer`; valid as long as this object. The first call for a pair registers it with the
  // trace. Several groups of one process share its client instance, whose own reports (publish
  // infos, scheduler runs, heartbeats) come through the first group's observer only.
  ProducerObserver& observer_for(const std::string& producer, const std::string& group);

  // Every stored attempt of every send from now on also goes into `stored` (not owned; null, the
  // default: none is kept). Only a run with consumers keeps them.
  void keep_stored_messages(StoredMessages* stored) { stored_ = stored; }

  // Whether reports also go to a trace.
  bool traced() const { return trace_ != nullptr; }
  const SendCounts& totals() const { return totals_; }
  const std::map<std::int64_t, SendCounts>& per_second() const { return per_second_; }
  const std::vector<TimeWindow>& windows() const { return windows_; }
  const SendCounts& window_counts(std::size_t i) const { return window_counts_[i]; }
  // By broker group name (brokerName), and by producer group.
  const std::map<std::string, BrokerAttempts>& by_broker() const { return by_broker_; }
  const std::map<std::string, SendCounts>& by_group() const { return by_group_; }
  // Send durations (ms) of the sends that started inside window i.
  const LatencyHistogram& window_latencies(std::size_t i) const { return window_latencies_[i]; }
  // How many sends that failed with kNoRoute ended at each millisecond (only those with any).
  const std::map<std::int64_t, std::int64_t>& no_route_ends() const { return no_route_ends_; }
  // producer -> topic -> changes in time order.
  const std::map<std::string, std::map<std::string, std::vector<PublishChange>>>& publish_changes()
      const {
    return publish_changes_;
  }
  // producer -> what its client's scheduler thread did.
  const std::map<std::string, ClientSchedule>& schedules() const { return schedules_; }
  // producer -> the producer groups registered in its client instance, as observer_for was
  // given them.
  const std::map<std::string, std::set<std::string>>& producer_groups() const {
    return producer_groups_;
  }

 private:
  class Observer;
  // `by_id` is the reporting producer's cache of by_broker_'s entries by its broker ids.
  void on_send(const SendRecord& record, SendCounts& group, std::vector<BrokerAttempts*>& by_id);
  void count_attempt(const AttemptRecord& attempt, std::vector<BrokerAttempts*>& by_id);
  BrokerAttempts& broker_entry(std::string_view name);

  std::vector<TimeWindow> windows_;
  TraceSink* trace_;
  NameServerRequests* requests_;
  StoredMessages* stored_ = nullptr;
  SendCounts totals_;
  std::map<std::int64_t, SendCounts> per_second_;
  // The entry the last send went to: sends come in runs of one producer's evaluation window, so
  // most go to the same second as the one before.
  std::map<std::int64_t, SendCounts>::iterator last_second_ = per_second_.end();
  std::vector<SendCounts> window_counts_;
  std::vector<LatencyHistogram> window_latencies_;
  std::map<std::int64_t, std::int64_t> no_route_ends_;
  std::map<std::string, std::map<std::string, std::vector<PublishChange>>> publish_changes_;
  std::map<std::string, ClientSchedule> schedules_;
  std::map<std::string, std::set<std::string>> producer_groups_;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<Observer>> observers_;
  std::map<std::string, SendCounts> by_group_;
  std::map<std::string, BrokerAttempts> by_broker_;
  // by_broker_'s entries by name (the keys are views of its keys), for the first attempt of each
  // producer at each broker and for records without a broker id; after that each producer's
  // observer finds the entry by the record's broker id. Only searched, never iterated.
  std::unordered_map<std::string_view, BrokerAttempts*> broker_index_;
};

}  // namespace nssim::sim

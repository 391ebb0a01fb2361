// File: what `nssim run --trace` records besides the aggregates: every send with its attempts and
// every route update of every producer, handed to a TraceSink as the producer models report them.
// Pure (no SimGrid): the world calls it, trace_writer.h turns it into trace.jsonl.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/record/send_record.h"

namespace nssim::sim {

// Who a producer's route query went to and how it ended
// (MQClientInstance#updateTopicRouteInfoFromNameServer's getTopicRouteInfoFromNameServer call).
struct RouteQuery {
  std::string nameserver;  // node name of the NameServer that answered or failed the call last
  std::int64_t asked_ms = 0;
  // "ok", "topic_not_exist", or why the call got none (send_record.h send_cause_name:
  // connect_timeout, connect_refused, request_timeout, connection_reset).
  std::string outcome;
  // When the NameServer processed the request, for an answered one (ok, topic_not_exist).
  std::optional<std::int64_t> served_ms = std::nullopt;
};

// A route query as the producer model applied it at answered_ms.
struct RouteUpdate {
  std::string topic;
  RouteQuery query;
  std::int64_t answered_ms = 0;
  std::vector<std::string> gained;  // broker groups the publish info gained by it, sorted
  std::vector<std::string> lost;    // and lost, sorted
};

// Receives the trace of every producer. A producer reports in its model's simulated-time order,
// but its model runs behind the world and in batches, and a send's attempts are reported when
// the send ends; the frontier says how far back a producer's later reports can still reach.
class TraceSink {
 public:
  virtual ~TraceSink() = default;
  // A producer process that is about to report (producer group: its set's name_prefix). Returns
  // the handle it reports with.
  virtual std::size_t add_producer(const std::string& name, const std::string& group) = 0;
  virtual void on_send(std::size_t producer, const SendRecord& record) = 0;
  virtual void on_route_update(std::size_t producer, const RouteUpdate& update) = 0;
  // Everything `producer` reports from now on ended at or after frontier_ms.
  virtual void on_frontier(std::size_t producer, std::int64_t frontier_ms) = 0;
};

}  // namespace nssim::sim

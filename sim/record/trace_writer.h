// File: TraceWriter, the TraceSink behind `nssim run --trace`: it streams trace.jsonl in one
// global order, (t_ms, producer name, report order), while the world runs.
//
// Why a global order rather than the order reports arrive in: producer models run behind the
// world in batches of about 5 s each, one producer at a time, and report a send's attempts when
// the send ends, so arrival order jumps back and forth by seconds between producers. Sorted by
// time, `grep`, `jq` and `head` over an instant or a window see what happened then, and the order
// needs no knowledge of how the simulator schedules producers. The cost is bounded: a line is held
// only until every producer's frontier has passed it, which is a few batches (the batch period,
// the model's lag and the longest send), whatever the run's length.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <queue>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "sim/record/trace_lines.h"
#include "sim/record/trace_sink.h"

namespace nssim::sim {

class TraceWriter final : public TraceSink {
 public:
  // Writes to `out`, which must outlive the writer. Producer names must be unique.
  explicit TraceWriter(std::ostream& out);

  std::size_t add_producer(const std::string& name, const std::string& group) override;
  void on_send(std::size_t producer, const SendRecord& record) override;
  void on_route_update(std::size_t producer, const RouteUpdate& update) override;
  void on_frontier(std::size_t producer, std::int64_t frontier_ms) override;

  // Writes every line still held. Call once, after the last report of every producer.
  void finish();
  // Lines received but not yet written: what the order costs in memory.
  std::size_t held_lines() const { return held_.size(); }
  // The most lines held at once so far.
  std::size_t peak_held_lines() const { return peak_held_; }

 private:
  struct Held {
    std::int64_t t_ms = 0;
    std::size_t producer = 0;
    std::uint64_t seq = 0;  // report order within the producer
    std::string line;
  };
  struct Later {
    const std::vector<TraceProducer>* producers;
    bool operator()(const Held& a, const Held& b) const;
  };

  void hold(std::size_t producer, std::int64_t t_ms, std::string line);
  // Writes the held lines that end before `watermark`, in order.
  void write_before(std::int64_t watermark);

  std::ostream& out_;
  std::vector<TraceProducer> producers_;
  std::vector<std::uint64_t> next_seq_;
  std::vector<std::int64_t> frontier_;                   // by producer
  std::set<std::pair<std::int64_t, std::size_t>> open_;  // (frontier, producer), lowest first
  std::priority_queue<Held, std::vector<Held>, Later> held_;
  std::int64_t written_before_ = INT64_MIN;  // every line ending before this is written
  std::size_t peak_held_ = 0;
  bool finished_ = false;
};

}  // namespace nssim::sim

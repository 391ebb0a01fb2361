// File: TraceWriter (see trace_writer.h).
#include "sim/record/trace_writer.h"

#include "common/invariant.h"

namespace nssim::sim {

bool TraceWriter::Later::operator()(const Held& a, const Held& b) const {
  if (a.t_ms != b.t_ms) return a.t_ms > b.t_ms;
  if (a.producer != b.producer) {
    return (*producers)[a.producer].name > (*producers)[b.producer].name;
  }
  return a.seq > b.seq;
}

TraceWriter::TraceWriter(std::ostream& out) : out_(out), held_(Later{&producers_}) {}

std::size_t TraceWriter::add_producer(const std::string& name, const std::string& group) {
  const std::size_t handle = producers_.size();
  producers_.push_back(TraceProducer{name, group});
  next_seq_.push_back(0);
  // Until its model first advances, a producer may still report anything from its start on,
  // which lies after every line written so far (models lag the world): hold from here.
  frontier_.push_back(written_before_);
  open_.emplace(written_before_, handle);
  return handle;
}

void TraceWriter::on_send(std::size_t producer, const SendRecord& record) {
  const TraceProducer& who = producers_[producer];
  if (record.attempts.empty()) {
    std::string line;
    append_send_line(line, who, record);
    hold(producer, record.end_ms, std::move(line));
    return;
  }
  for (std::size_t i = 0; i < record.attempts.size(); ++i) {
    std::string line;
    append_attempt_line(line, who, record, i);
    hold(producer, record.attempts[i].end_ms, std::move(line));
  }
}

void TraceWriter::on_route_update(std::size_t producer, const RouteUpdate& update) {
  std::string line;
  append_route_line(line, producers_[producer], update);
  hold(producer, update.answered_ms, std::move(line));
}

void TraceWriter::on_frontier(std::size_t producer, std::int64_t frontier_ms) {
  std::int64_t& frontier = frontier_[producer];
  NSSIM_CHECK(frontier_ms >= frontier, "a producer's frontier went back");
  open_.erase({frontier, producer});
  frontier = frontier_ms;
  open_.emplace(frontier, producer);
  write_before(open_.begin()->first);
}

void TraceWriter::finish() {
  write_before(INT64_MAX);
  out_.flush();
  finished_ = true;
}

void TraceWriter::hold(std::size_t producer, std::int64_t t_ms, std::string line) {
  // A line behind what was already written would break the order.
  NSSIM_CHECK(!finished_ && t_ms >= written_before_, "a line behind the written ones");
  held_.push(Held{t_ms, producer, next_seq_[producer]++, std::move(line)});
  if (held_.size() > peak_held_) peak_held_ = held_.size();
}

void TraceWriter::write_before(std::int64_t watermark) {
  while (!held_.empty() && held_.top().t_ms < watermark) {
    out_ << held_.top().line;
    held_.pop();
  }
  if (watermark > written_before_) written_before_ = watermark;
}

}  // namespace nssim::sim

// File: the run's event log: structured events {t_ms, node, kind, fields} in the order they
// happened (ties keep the order they were recorded in), written as JSON Lines. Fields are a JSON
// object, whose keys nlohmann keeps sorted, so the text is byte-identical run to run.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "sim/record/event_kind.h"

namespace nssim::sim {

struct Event {
  std::int64_t t_ms = 0;
  std::string node;
  EventKind kind = EventKind::kProcessStart;
  nlohmann::json fields = nlohmann::json::object();
};

class EventLog {
 public:
  void add(std::int64_t t_ms, std::string node, EventKind kind,
           nlohmann::json fields = nlohmann::json::object());
  // Events sorted by time, stable. Sorted on first read after an add (so const: a finished run's
  // record is read, never changed, by the analysis).
  const std::vector<Event>& events() const;
  void write_jsonl(std::ostream& out) const;

 private:
  mutable std::vector<Event> events_;
  mutable bool sorted_ = true;
};

}  // namespace nssim::sim

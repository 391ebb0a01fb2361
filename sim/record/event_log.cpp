// File: EventLog (see event_log.h).
#include "sim/record/event_log.h"

#include <algorithm>

namespace nssim::sim {

void EventLog::add(std::int64_t t_ms, std::string node, EventKind kind, nlohmann::json fields) {
  if (!events_.empty() && t_ms < events_.back().t_ms) sorted_ = false;
  events_.push_back(Event{t_ms, std::move(node), kind, std::move(fields)});
}

const std::vector<Event>& EventLog::events() const {
  if (!sorted_) {
    std::stable_sort(events_.begin(), events_.end(),
                     [](const Event& a, const Event& b) { return a.t_ms < b.t_ms; });
    sorted_ = true;
  }
  return events_;
}

void EventLog::write_jsonl(std::ostream& out) const {
  for (const auto& event : events()) {
    nlohmann::json line = {
        {"t_ms", event.t_ms}, {"node", event.node}, {"kind", event_kind_name(event.kind)}};
    if (!event.fields.empty()) line["fields"] = event.fields;
    out << line.dump() << '\n';
  }
}

}  // namespace nssim::sim

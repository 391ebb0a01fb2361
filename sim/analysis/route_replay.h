// File: the NameServers' route views replayed once from a run's event log, for every analysis
// that asks what a NameServer listed, or answered, when: the disagreement intervals, the missing
// windows (route_health.h), the timeline's in_routes, an outage's recovery and the restart
// figures. One rule for a NameServer's life, as upstream has it:
// - A (re)started NameServer starts empty. NamesrvController's constructor builds a new
//   RouteInfoManager (4.9.8 and 5.3.3) and initialize() loads only the KV config from disk, so
//   its tables hold what registrations bring after its process_start, nothing from before.
// - A stopped one (kill, poweroff, shutdown) answers nobody and lists nothing from its stop: its
//   tables die with the process.
// - A paused one keeps its tables, so it lists what they hold, but answers nobody.
// Process states are process_spans (the spans the timeline draws); the tables are RouteViewTable
// rebuilt from the route_view events, emptied at every process_start.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sim/record/event_log.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim {

// [start_ms, end_ms); no end_ms: still so when the log ends.
struct ReplayInterval {
  std::int64_t start_ms = 0;
  std::optional<std::int64_t> end_ms;

  bool contains(std::int64_t t_ms) const { return start_ms <= t_ms && (!end_ms || t_ms < *end_ms); }
};

// One process of a NameServer, from its process_start.
struct NameServerIncarnation {
  std::int64_t start_ms = 0;
  std::size_t event_index = 0;  // of its process_start in the log: orders starts at one instant
  std::optional<std::int64_t> first_listing_ms;  // when its tables first held a broker
};

// One NameServer over the run.
class NameServerReplay {
 public:
  const std::vector<NameServerIncarnation>& incarnations() const { return incarnations_; }
  // The start of the incarnation at t_ms (the last process_start at or before it).
  std::optional<std::int64_t> last_start_at_or_before(std::int64_t t_ms) const;

  // The intervals in which it listed the broker address, in time order (none: never).
  const std::vector<ReplayInterval>& listed(const std::string& addr) const;
  bool lists(const std::string& addr, std::int64_t t_ms) const;
  // The instants at which its listing of `addr` began or ended, in time order.
  std::vector<std::int64_t> listing_changes(const std::string& addr) const;

  // The intervals in which it answers requests (its process up, not paused), in time order.
  const std::vector<ReplayInterval>& answering() const { return answering_; }
  bool answers(std::int64_t t_ms) const;
  // Its tables' fingerprint (RouteViewTable::fingerprint) from each instant on, one entry per
  // change, in time order; what it answers while answers() holds.
  const std::vector<std::pair<std::int64_t, std::uint64_t>>& views() const { return views_; }

 private:
  friend class RouteReplay;
  std::vector<NameServerIncarnation> incarnations_;
  std::map<std::string, std::vector<ReplayInterval>> listed_;
  std::vector<ReplayInterval> answering_;
  std::vector<std::pair<std::int64_t, std::uint64_t>> views_;
};

class RouteReplay {
 public:
  // Walks the events once for the scenario's NameServers.
  RouteReplay(const Scenario& scenario, const std::vector<Event>& events);

  // The scenario's NameServers in index order ("ns-0", "ns-1"...).
  const std::vector<std::string>& names() const { return names_; }
  const NameServerReplay& nameserver(const std::string& name) const {
    return nameservers_.at(name);
  }

 private:
  std::vector<std::string> names_;
  std::map<std::string, NameServerReplay> nameservers_;
};

}  // namespace nssim::sim

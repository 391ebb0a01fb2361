// File: nameserver_restarts_json (see restart_analysis.h).
#include "sim/analysis/restart_analysis.h"

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "sim/analysis/route_views.h"

namespace nssim::sim {

namespace {

struct Restart {
  std::string nameserver;
  std::int64_t restart_ms = 0;
  std::optional<std::int64_t> first_registration_ms;
};

nlohmann::json optional_ms(const std::optional<std::int64_t>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json();
}

// The restarts in time order, each with the first route view after it that lists a broker
// (a route_view is logged whenever the view changes, so the first one after the empty start is
// the first registration that reached the tables).
std::vector<Restart> find_restarts(const Scenario& scenario, const std::vector<Event>& events) {
  std::set<std::string> nameservers;
  for (int i = 0; i < scenario.nameservers.count; ++i) nameservers.insert(nameserver_name(i));
  std::map<std::string, int> starts;
  std::map<std::string, std::size_t> open;  // NameServer -> its restart still awaiting a broker
  std::map<std::string, RouteViewTable> tables;
  std::vector<Restart> restarts;
  for (const Event& event : events) {
    if (nameservers.count(event.node) == 0) continue;
    if (event.kind == "process_start") {
      tables[event.node].clear();
      open.erase(event.node);
      if (starts[event.node]++ == 0) continue;
      open[event.node] = restarts.size();
      restarts.push_back(Restart{event.node, event.t_ms, std::nullopt});
    } else if (event.kind == "route_view") {
      RouteViewTable& table = tables[event.node];
      table.apply(event.fields);
      if (open.count(event.node) != 0 && !table.empty()) {
        restarts[open[event.node]].first_registration_ms = event.t_ms;
        open.erase(event.node);
      }
    }
  }
  return restarts;
}

}  // namespace

std::optional<nlohmann::json> nameserver_restarts_json(const Scenario& scenario,
                                                       const std::vector<Event>& events,
                                                       const SendStats& sends) {
  const std::vector<Restart> restarts = find_restarts(scenario, events);
  if (restarts.empty()) return std::nullopt;
  const std::map<std::int64_t, std::int64_t>& ends = sends.no_route_ends();  // end ms -> sends
  nlohmann::json list = nlohmann::json::array();
  for (std::size_t i = 0; i < restarts.size(); ++i) {
    const Restart& restart = restarts[i];
    // Until the next restart at a later instant (restarts at one instant share the window).
    std::int64_t window_end = std::numeric_limits<std::int64_t>::max();
    for (std::size_t j = i + 1; j < restarts.size(); ++j) {
      if (restarts[j].restart_ms > restart.restart_ms) {
        window_end = restarts[j].restart_ms;
        break;
      }
    }
    const auto first = ends.lower_bound(restart.restart_ms);
    const auto last = ends.lower_bound(window_end);
    std::int64_t failed = 0;
    for (auto it = first; it != last; ++it) failed += it->second;
    std::optional<std::int64_t> last_end;
    if (last != first) last_end = std::prev(last)->first;
    std::optional<std::int64_t> after;
    if (last_end && restart.first_registration_ms) {
      after = *last_end - *restart.first_registration_ms;
    }
    list.push_back({{"nameserver", restart.nameserver},
                    {"restart_ms", restart.restart_ms},
                    {"first_registration_ms", optional_ms(restart.first_registration_ms)},
                    {"no_route",
                     {{"failed", failed},
                      {"last_end_ms", optional_ms(last_end)},
                      {"after_first_registration_ms", optional_ms(after)}}}});
  }
  return list;
}

}  // namespace nssim::sim

// File: nameserver_restarts_json (see restart_analysis.h).
#include "sim/analysis/restart_analysis.h"

#include <algorithm>
#include <limits>
#include <map>
#include <string>
#include <utility>

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

// The restarts (a NameServer's incarnations after its first) in time order, starts at one instant
// in the order they were logged.
std::vector<Restart> find_restarts(const RouteReplay& replay) {
  std::vector<std::pair<std::size_t, Restart>> by_event;
  for (const std::string& name : replay.names()) {
    const auto& incarnations = replay.nameserver(name).incarnations();
    for (std::size_t k = 1; k < incarnations.size(); ++k) {
      by_event.emplace_back(incarnations[k].event_index, Restart{name, incarnations[k].start_ms,
                                                                 incarnations[k].first_listing_ms});
    }
  }
  std::sort(by_event.begin(), by_event.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<Restart> restarts;
  for (auto& [index, restart] : by_event) restarts.push_back(std::move(restart));
  return restarts;
}

}  // namespace

std::optional<nlohmann::json> nameserver_restarts_json(const RouteReplay& replay,
                                                       const SendStats& sends) {
  const std::vector<Restart> restarts = find_restarts(replay);
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

// File: the three kinds of route window the reports show (reports/README.md, Route health), with
// the captions every renderer gives them, and how many windows a kind's statistics count.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "reports/report_field.h"

namespace nssim::reports {

struct RouteWindowKind {
  const char* key;  // under route_health
  const char* caption;
};

inline constexpr RouteWindowKind kRouteWindowKinds[] = {
    {"stale", "stale route (producers)"},
    {"lost", "lost route (producers)"},
    {"missing", "missing broker (NameServers)"}};

// Every window of a kind: those that ended (count) and those still open at the end (never).
inline std::int64_t route_windows_of(const nlohmann::json& stats) {
  std::int64_t total = 0;
  for (const char* key : {"count", "never"}) {
    const auto& value = field(stats, key);
    if (value.is_number_integer()) total += value.get<std::int64_t>();
  }
  return total;
}

}  // namespace nssim::reports

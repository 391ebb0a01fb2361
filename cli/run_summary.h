// File: the few lines `nssim run` prints after a run: per outage, when each NameServer dropped
// the broker, how long producers kept the stale route, and what the sends suffered; then one line
// on the run's stale, lost and missing route windows (when there are any).
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace nssim::cli {

void print_run_summary(std::ostream& out, const nlohmann::json& result);

}  // namespace nssim::cli

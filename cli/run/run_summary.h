// File: the few lines `nssim run` prints after a run: per outage, when each NameServer dropped
// the broker, how long producers kept the stale route, and what the sends suffered; then one line
// on the run's stale, lost and missing route windows (when there are any); then where its files
// are.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

namespace nssim::cli {

void print_run_summary(std::ostream& out, const nlohmann::json& result);

// The closing lines: where the trace (when written), the result and the report are. The report
// comes last, so a terminal's last line is the page to open.
void print_written_files(std::ostream& out, const std::string& dir, bool trace);

}  // namespace nssim::cli

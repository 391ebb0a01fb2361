// File: what `nssim sweep` prints when its documents are written: per point and outage the
// headline distributions beside RocketMQ's predicted windows, the sweep expectations with the
// worst seed's command for each failure, and the paths of sweep.json and sweep.html.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace nssim::cli {

// `colour`: the verdict words in colour (verdict_lines.h), for a terminal.
void print_sweep_summary(std::ostream& out, const nlohmann::json& sweep, bool colour);

}  // namespace nssim::cli

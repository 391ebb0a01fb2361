// File: duration_text, the one way every human-read output (report.md, report.html, sweep.md/html,
// compare.md/html and the terminal summaries) writes a span or an instant of simulated time.
// JSON outputs keep their raw millisecond numbers.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace nssim::reports {

// Whole milliseconds below one second ("3 ms", "0 ms", "-250 ms"), seconds with one decimal from
// one second up ("1.0 s", "12.3 s", "600.0 s"); a value that rounds to 1000 ms reads "1.0 s".
std::string duration_text(double ms);

// The same for a JSON value; `missing` for anything that is not a number (null, absent).
std::string duration_text(const nlohmann::json& ms, std::string_view missing);

}  // namespace nssim::reports

// File: report.json -> report.html, one self-contained page (inline CSS and SVG, no script, no
// network) that shows an outage as pictures first: broker lanes, NameServer route rows, stale
// producers and sends per second on one time axis, then per-outage tables and the expectations.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports {

// Renders a report document (schema nssim.report/1). Missing parts are left out with a note;
// every string from the JSON is escaped; the same report always gives the same bytes.
std::string render_html_report(const nlohmann::json& report);

}  // namespace nssim::reports

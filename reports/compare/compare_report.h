// File: the comparison of two runs of one scenario under two settings (`nssim compare`): every
// figure side by side, what changed and by how much, biggest moves first. Pure: two report.json
// documents in, a compare.json document and its Markdown and HTML renderings out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports {

// Version of the compare.json layout built below.
inline constexpr const char* kCompareSchema = "nssim.compare/1";

// Compares two report.json (or result.json) documents. Every numeric leaf under `outages[i]`
// (outages matched by index, with a note when the two lists differ), `sends`,
// `nameserver_disagreement`, and the statistics (not the item lists) of `route_health`,
// `client_scheduler` and `broker_clients` becomes a row {figure, a, b, difference, relative,
// changed}; a leaf that is null or absent on one side is null there. `relative` is (b - a) / |a|,
// null when a is 0 or null. The layout:
//   schema, scenario {name, file, seed, duration_ms} (of a),
//   sides[2] {label, profile, seed, verdict, expectations},
//   settings[] {name, a, b, changed}: profile, seed and each RocketMQ setting of `settings`,
//   notes[]: one line each on what makes the two runs not directly comparable,
//   sections[] {title, prefix, figures[]}: "whole run" first, then one per outage index,
//   changes[]: the changed rows outside arrays (aggregates such as stale_route_ms.max, not
//     per_producer[3]), biggest relative move first (0 or null to a value counts as the biggest).
// The caller may add to each side "overrides" (the NAME=VALUE settings it ran with, an array of
// strings) and "report_html" (a link to that side's report); the renderers show them if present.
nlohmann::json build_comparison(const nlohmann::json& a, const nlohmann::json& b,
                                const std::string& label_a, const std::string& label_b);

// A Markdown document of a comparison: sides, what changed, one table per section, expectations.
std::string render_comparison_markdown(const nlohmann::json& comparison);

// A self-contained HTML page (inline style, no external resources, every string escaped) with
// the same content, changed cells highlighted.
std::string render_comparison_html(const nlohmann::json& comparison);

// Whether `figure` is the server load (nameserver_load, broker_load): a setting's price, not its
// effect. Both comparisons keep its rows in their tables and out of their rankings of changes,
// where a 5 s poll's 6x would push the stale route and the failed sends off the top.
bool is_server_load_figure(const std::string& figure);

// One row as a line, "figure: A -> B (difference, relative)": what `nssim compare` prints for
// each of the biggest changes.
std::string format_change(const nlohmann::json& row);

}  // namespace nssim::reports

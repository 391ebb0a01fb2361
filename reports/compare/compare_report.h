// File: the comparison of two runs of one scenario under two settings (`nssim compare`): every
// figure side by side, what changed and by how much, biggest moves first. Pure: two report.json
// documents in, a compare.json document and its Markdown and HTML renderings out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

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
//     per_producer[3]) that moved by a practical size (practical_move), biggest relative move
//     first (0 or null to a value counts as the biggest); rows with the same A and B (copies of
//     one fact) are one entry, the shortest name, with the others in copies[],
//   headline[] {what, figure, a, b, difference, relative, practical, changed}: headline_figures
//     and the busiest NameServer's GET_ROUTEINFO_BY_TOPIC rate, each once.
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
// each of the biggest changes; durations read as duration_text, never as raw milliseconds.
std::string format_change(const nlohmann::json& row);

// Whether a move from `from` to `to` of `figure` is big enough to matter, whatever its
// significance: at least 1 s and 1 % of `from` for a duration (is_time_figure), at least 1 (one
// send, one request) and 1 % for a count, at least 1 % for a rate per second (reports/README.md).
bool practical_move(const std::string& figure, double from, double to);

// The headline figures of both comparisons, in order, as {what, figure}: the run's longest stale
// route, the failed sends, per outage the last NameServer drop and the slowest producer recovery.
// The busiest NameServer's GET_ROUTEINFO_BY_TOPIC rate (kRouteLoadFigure) follows them, taken per
// side as the largest of the per-NameServer figures.
std::vector<std::pair<std::string, std::string>> headline_figures(std::size_t outages);
inline constexpr const char* kRouteLoadFigure =
    "nameserver_load.per_nameserver.*.by_code.GET_ROUTEINFO_BY_TOPIC.mean_per_s";
inline constexpr const char* kRouteLoadWhat = "GET_ROUTEINFO_BY_TOPIC per NameServer, the busiest";

// Whether `figure` is one NameServer's GET_ROUTEINFO_BY_TOPIC rate
// (nameserver_load.per_nameserver.NAME.by_code.GET_ROUTEINFO_BY_TOPIC.mean_per_s).
bool is_route_load_of_one_nameserver(const std::string& figure);

// One headline entry (headline[] of either comparison) as every rendering writes it: "failed
// sends: p50 842 -> 760 (-9.7%): changed", or "within seed noise", "beyond seed noise, too small
// to matter"; a single run's "296 -> 262 (-11.5%): changed", "too small to matter", "the same".
std::string format_headline(const nlohmann::json& entry);

}  // namespace nssim::reports

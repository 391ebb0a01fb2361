// File: the sections of the HTML report, each rendered by its own file from the report JSON and the
// page model; html_report.cpp puts them together.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "reports/html/html_model.h"
#include "reports/html/svg_writer.h"

namespace nssim::reports::html {

// html_timeline.cpp: one lane per broker touched by a fault or missed by a NameServer, with a row
// per NameServer beneath it (in its routes, missing from them, dropped), NameServer lanes for
// NameServers a fault stopped, and a line of text on the other brokers. Empty when there is no
// lane to draw.
std::string render_timeline_svg(const PageModel& model);
std::string render_untouched_brokers(const PageModel& model);

// html_charts.cpp: producers with a stale route and with a lost route (two panels on one scale),
// and sends per second (ok; failed by cause).
std::string render_route_chart_svg(const PageModel& model);
std::string render_sends_chart_svg(const PageModel& model);
// html_charts.cpp: successful attempts per second per broker group, one line each (the groups
// with the most, up to kBrokerLines); empty when the report has no per-broker series.
std::string render_broker_chart_svg(const PageModel& model);
inline constexpr std::size_t kBrokerLines = 8;

// html_tables.cpp: per outage, the measured-beside-predicted picture and its tables.
std::string render_outage_sections(const nlohmann::json& report);

// html_route_health.cpp: stale, lost and missing windows as one table (windows, min / p50 / p99 /
// max of the ended ones, still open, total time, causes); empty when `health` is not an object.
std::string route_health_table(const nlohmann::json& health, const std::string& caption);
// html_route_health.cpp: the whole run's route health: the table, then the first windows of each
// list with producer or NameServer, broker, start, end, duration and causes.
std::string render_route_health(const nlohmann::json& report);

// html_scheduler.cpp: the clients' scheduler threads: the clients with the latest route polls,
// heartbeats per broker address, F - R per broker removal; empty when the report has no
// client_scheduler.
std::string render_client_scheduler(const nlohmann::json& report);
// A table cell with the integer member `key` of `object`, a dash when it has none; the one copy
// every table of the page uses (html_broker_clients.cpp).
std::string count_cell(const nlohmann::json& object, const char* key);

// html_load.cpp: what the run asked of its servers: per NameServer and request code the requests
// served (total, mean and peak per second), and per broker its registrations and heartbeats;
// empty when the report has no nameserver_load.
std::string render_server_load(const nlohmann::json& report);

// html_broker_clients.cpp: the brokers' producer tables: heartbeats, channels at the end and
// removals by cause per broker; empty when the report has no broker_clients.
std::string render_broker_clients(const nlohmann::json& report);

// html_consumers.cpp: the consumer groups' deliveries, duplicates, stalls, ownership gaps and
// latency, and the longest stalls; empty when the report has no consumers.
std::string render_consumers(const nlohmann::json& report);

// html_summary.cpp: the page header with the verdict, the expectations, and the whole-run figures.
std::string render_header(const nlohmann::json& report);
std::string render_expectations(const nlohmann::json& report);
std::string render_run_summary(const nlohmann::json& report);

// html_style.cpp: the page's inline style sheet (light, print-friendly, colour-blind-safe).
const char* html_style_sheet();

// html_window_chart.cpp: measured windows beside RocketMQ's predicted ones for one outage.
std::string render_window_chart_svg(const nlohmann::json& outage, std::size_t index);

// html_report.cpp: the whole page (render_html_report's body).
std::string render_page(const nlohmann::json& report);

// html_legend.cpp: what each colour and shape means (failure causes: those of this run).
std::string render_legend(const PageModel& model);

// Marker shape and CSS class of a detection path; unknown paths get a neutral look.
MarkerShape detection_shape(const std::string& path);
std::string detection_class(const std::string& path);

// CSS class of a failure cause ("cause-send_timeout_budget"); unknown causes share one class.
std::string cause_class(const std::string& cause);

}  // namespace nssim::reports::html

// File: a small picture per outage that sets each measured window (NameServer drop, producer stale
// route; time since the fault) beside the window RocketMQ's rules predict, so "inside the
// prediction or not" is seen without reading numbers.
#include <algorithm>

#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/html/svg_time_axis.h"
#include "reports/report_field.h"

namespace nssim::reports::html {

namespace {

constexpr double kWindowTop = 6;
constexpr double kWindowRowHeight = 26;
constexpr std::size_t kMaxProducerTicks =
    400;  // per-producer ticks; above this only the range is drawn

struct WindowRow {
  std::string caption;
  std::optional<TimeSpan> predicted;  // relative to the fault start
  std::string predicted_what;
};

std::optional<TimeSpan> predicted_of(const nlohmann::json& outage, const char* key) {
  const auto& bounds = field(field(outage, "predicted"), key);
  const auto min_ms = field_int(bounds, "min_ms");
  const auto max_ms = field_int(bounds, "max_ms");
  if (!min_ms || !max_ms) return std::nullopt;
  return TimeSpan{*min_ms, std::max(*min_ms, *max_ms)};
}

int64_t scale_end_ms(const nlohmann::json& outage) {
  int64_t end_ms = 1000;
  for (const char* key : {"nameserver_removal_ms", "producer_stale_route_ms"}) {
    if (const auto span = predicted_of(outage, key)) end_ms = std::max(end_ms, span->end_ms);
  }
  end_ms = std::max(end_ms, field_int(field(outage, "nameserver_drop_ms"), "max").value_or(0));
  const auto& stale = field(field(outage, "producers"), "stale_route_ms");
  end_ms = std::max(end_ms, field_int(stale, "max").value_or(0));
  return end_ms + end_ms / 10;
}

void draw_row_frame(SvgWriter& svg, const TimeAxis& axis, const WindowRow& row, double y) {
  svg.text(kPlotLeft - 8, y + 17, "lane-label", row.caption);
  svg.line(kPlotLeft, y + kWindowRowHeight / 2, kPlotRight, y + kWindowRowHeight / 2, "guide");
  if (!row.predicted) return;
  const double x = axis.x(row.predicted->start_ms);
  svg.rect({x, y + 2, std::max(1.0, axis.x(row.predicted->end_ms) - x), kWindowRowHeight - 4},
           "predicted",
           "RocketMQ's rules predict " + row.predicted_what + " " +
               duration_text(row.predicted->start_ms) + " to " +
               duration_text(row.predicted->end_ms) + " after the fault");
}

void draw_nameserver_drops(SvgWriter& svg, const TimeAxis& axis, const nlohmann::json& outage,
                           double y) {
  const auto& entries = field(outage, "nameservers");
  if (!entries.is_array()) return;
  for (const auto& entry : entries) {
    const auto delay = field_int(entry, "delay_ms");
    if (!delay) continue;
    const std::string path = field_string(entry, "path");
    svg.path(marker_path(detection_shape(path), axis.x(*delay), y + kWindowRowHeight / 2, 5),
             "detection " + detection_class(path),
             field_string(entry, "nameserver") + " dropped " + field_string(entry, "broker_addr") +
                 " by " + path + " " + duration_text(*delay) + " after the fault");
  }
}

void draw_producer_windows(SvgWriter& svg, const TimeAxis& axis, const nlohmann::json& outage,
                           double y) {
  const auto& producers = field(outage, "producers");
  const auto& per_producer = field(producers, "per_producer");
  const auto& stats = field(producers, "stale_route_ms");
  const auto min_ms = field_int(stats, "min");
  const auto max_ms = field_int(stats, "max");
  if (min_ms && max_ms) {
    svg.rect(
        {axis.x(*min_ms), y + kWindowRowHeight / 2 - 1.5, axis.x(*max_ms) - axis.x(*min_ms), 3},
        "measured-range",
        "producers kept the stale route " + duration_text(*min_ms) + " to " +
            duration_text(*max_ms) + " after the fault");
  }
  if (!per_producer.is_array() || per_producer.size() > kMaxProducerTicks) return;
  for (const auto& entry : per_producer) {
    const auto stale = field_int(entry, "stale_route_ms");
    if (!stale) continue;
    const double x = axis.x(*stale);
    svg.line(x, y + 5, x, y + kWindowRowHeight - 5, "producer-tick",
             field_string(entry, "name") + " kept the stale route " + duration_text(*stale));
  }
}

}  // namespace

std::string render_window_chart_svg(const nlohmann::json& outage, std::size_t index) {
  const std::vector<WindowRow> rows = {
      {"NameServer drop", predicted_of(outage, "nameserver_removal_ms"),
       "the NameServers drop the broker"},
      {"producer stale route", predicted_of(outage, "producer_stale_route_ms"),
       "producers lose the stale route"}};
  TimeAxis axis = make_time_axis(scale_end_ms(outage));
  axis.unit_ms = 1000;  // always seconds after the fault: these windows are minutes at most
  axis.unit = "s";
  const double bottom = kWindowTop + kWindowRowHeight * static_cast<double>(rows.size());
  SvgWriter svg("windows-" + std::to_string(index), kSvgWidth, bottom + kTimeAxisRoom,
                "Measured windows after the fault beside RocketMQ's predicted windows");
  draw_time_grid(svg, axis, kWindowTop, bottom);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    draw_row_frame(svg, axis, rows[i], kWindowTop + kWindowRowHeight * static_cast<double>(i));
  }
  draw_nameserver_drops(svg, axis, outage, kWindowTop);
  draw_producer_windows(svg, axis, outage, kWindowTop + kWindowRowHeight);
  return svg.finish();
}

}  // namespace nssim::reports::html

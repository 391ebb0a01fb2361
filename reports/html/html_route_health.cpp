// File: route health in the HTML report: the table of stale, lost and missing windows (per outage
// and for the whole run), and the whole run's section that lists the windows themselves, so a
// reader sees which producer or NameServer held which broker wrong, when and why.
#include <algorithm>

#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/report_field.h"
#include "reports/route_health_kinds.h"

namespace nssim::reports::html {

namespace {

// How many windows of each list the page shows; result.json holds more (reports/README.md).
constexpr std::size_t kListedWindows = 50;

std::string td(const std::string& text, const char* css_class = nullptr) {
  if (css_class == nullptr) return "<td>" + html_escape(text) + "</td>";
  return "<td class=\"" + std::string(css_class) + "\">" + html_escape(text) + "</td>";
}

// A window's length, or a total over many windows, as every duration reads (duration_text).
std::string span_cell(const nlohmann::json& object, const char* key) {
  const auto ms = field_int(object, key);
  return td(ms ? duration_text(*ms) : "\u2014", "num");
}

std::string count_text(const nlohmann::json& object, const char* key) {
  return std::to_string(field_int(object, key).value_or(0));
}

// "broker_down 15, broker_paused 2", in the JSON's (alphabetical) order.
std::string causes_text(const nlohmann::json& by_cause) {
  std::string text;
  if (!by_cause.is_object()) return text;
  for (const auto& [cause, count] : by_cause.items()) {
    text += (text.empty() ? "" : ", ") + cause + " " + count_text(by_cause, cause.c_str());
  }
  return text;
}

std::string window_kind_row(const RouteWindowKind& kind, const nlohmann::json& stats) {
  return "<tr><th>" + html_escape(kind.caption) + "</th>" +
         td(std::to_string(route_windows_of(stats)), "num") + span_cell(stats, "min") +
         span_cell(stats, "p50") + span_cell(stats, "p99") + span_cell(stats, "max") +
         td(count_text(stats, "never"), "num") + span_cell(stats, "total_ms") +
         td(causes_text(field(stats, "by_cause"))) + "</tr>\n";
}

std::string instant_or_open(const nlohmann::json& window) {
  const auto end_ms = field_int(window, "end_ms");
  return end_ms ? duration_text(*end_ms) : "open at the end";
}

std::string lasted(const nlohmann::json& window) {
  const auto start_ms = field_int(window, "start_ms");
  const auto end_ms = field_int(window, "end_ms");
  return start_ms && end_ms ? duration_text(*end_ms - *start_ms) : "\u2014";
}

// The cells every window row ends with: start, end, duration, cause, end cause.
std::string window_cells(const nlohmann::json& window) {
  return td(duration_text(field_int(window, "start_ms").value_or(0)), "num") +
         td(instant_or_open(window), "num") + td(lasted(window), "num") +
         td(field_string(window, "cause")) + td(field_string(window, "end_cause"));
}

// "The first 50 of 180 windows, by start" when the page shows fewer than there are.
std::string listed_note(int64_t total, std::size_t listed, const char* what) {
  if (total <= static_cast<int64_t>(listed)) return {};
  return "<p class=\"note\">The first " + std::to_string(listed) + " of " + std::to_string(total) +
         " " + what + ", by start; result.json lists up to the first 1000.</p>\n";
}

std::string route_windows_table(const nlohmann::json& health) {
  const auto& windows = field(health, "route_windows");
  const int64_t total =
      route_windows_of(field(health, "stale")) + route_windows_of(field(health, "lost"));
  if (!windows.is_array() || windows.empty()) {
    return "<p class=\"note\">No producer had a stale or lost route.</p>\n";
  }
  const std::size_t listed = std::min(kListedWindows, windows.size());
  std::string html =
      "<table class=\"route-windows\"><caption>Producers' stale and lost routes</caption>\n"
      "<tr><th>producer</th><th>broker</th><th>node</th><th>kind</th><th>start</th><th>end</th>"
      "<th>lasted</th><th>began because</th><th>ended because</th></tr>\n";
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& window = windows[i];
    html += "<tr>" + td(field_string(window, "producer")) + td(field_string(window, "broker")) +
            td(field_string(window, "broker_node")) + td(field_string(window, "kind")) +
            window_cells(window) + "</tr>\n";
  }
  return html + "</table>\n" + listed_note(total, listed, "stale and lost routes");
}

std::string missing_windows_table(const nlohmann::json& health) {
  const auto& windows = field(health, "missing_windows");
  if (!windows.is_array() || windows.empty()) {
    return "<p class=\"note\">No NameServer was missing a broker it could use.</p>\n";
  }
  const std::size_t listed = std::min(kListedWindows, windows.size());
  std::string html =
      "<table class=\"missing-windows\"><caption>Brokers missing from a NameServer's "
      "routes</caption>\n<tr><th>NameServer</th><th>broker</th><th>node</th><th>start</th>"
      "<th>end</th><th>lasted</th><th>began because</th><th>ended because</th></tr>\n";
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& window = windows[i];
    html += "<tr>" + td(field_string(window, "nameserver")) + td(field_string(window, "broker")) +
            td(field_string(window, "broker_node")) + window_cells(window) + "</tr>\n";
  }
  return html + "</table>\n" +
         listed_note(route_windows_of(field(health, "missing")), listed, "missing brokers");
}

}  // namespace

std::string route_health_table(const nlohmann::json& health, const std::string& caption) {
  if (!health.is_object()) return {};
  std::string html = "<table class=\"route-health\"><caption>" + html_escape(caption) +
                     "</caption>\n<tr><th>window</th><th>windows</th><th>min</th><th>p50</th>"
                     "<th>p99</th><th>max</th><th>still open</th><th>total time</th>"
                     "<th>began because</th></tr>\n";
  for (const auto& kind : kRouteWindowKinds) html += window_kind_row(kind, field(health, kind.key));
  return html + "</table>\n";
}

std::string render_route_health(const nlohmann::json& report) {
  const auto& health = field(report, "route_health");
  if (!health.is_object()) {
    return "<p class=\"note\">This report has no route health, so no route windows are "
           "listed.</p>\n";
  }
  return "<p class=\"note\">A stale route holds a broker the producer cannot use; a lost route "
         "lacks one it could use and held before; a missing broker is one a NameServer could "
         "use but did not list. min, p50, p99 and max are over the windows that ended; total "
         "time adds the open ones up to the run's end.</p>\n"
         "<div class=\"tables\">\n" +
         route_health_table(health, "Route windows over the whole run") + "</div>\n" +
         route_windows_table(health) + missing_windows_table(health);
}

}  // namespace nssim::reports::html

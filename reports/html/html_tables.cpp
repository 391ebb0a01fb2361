// File: the per-outage section of the HTML report: the measured-beside-predicted picture, then
// detection per NameServer and path (and, for a NameServer that kept the broker, whether that was
// right), the windows (min / p50 / p99 / max over NameServers or producers, beside RocketMQ's
// prediction), the route windows the outage opened, failed sends by cause and recovery.
#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/html/svg_writer.h"
#include "reports/prediction_text.h"
#include "reports/report_field.h"

namespace nssim::reports::html {

namespace {

std::string cell(const std::string& text, const char* css_class = nullptr) {
  if (css_class == nullptr) return "<td>" + html_escape(text) + "</td>";
  return "<td class=\"" + std::string(css_class) + "\">" + html_escape(text) + "</td>";
}

std::string ms_cell(const nlohmann::json& object, const char* key) {
  const auto ms = field_int(object, key);
  return ms ? cell(duration_text(*ms), "num") : cell("\u2014", "num");
}

std::string predicted_text(const nlohmann::json& outage, const char* key) {
  const std::string none = not_predicted_text(field(outage, "predicted"));
  if (!none.empty()) return none;
  const auto& bounds = field(field(outage, "predicted"), key);
  const auto min_ms = field_int(bounds, "min_ms");
  const auto max_ms = field_int(bounds, "max_ms");
  if (!min_ms || !max_ms) return "\u2014";
  return duration_text(*min_ms) + " to " + duration_text(*max_ms);
}

std::string outage_heading(const nlohmann::json& outage, std::size_t index) {
  std::string brokers;
  const auto& list = field(outage, "brokers");
  if (list.is_array()) {
    for (const auto& broker : list) {
      if (!broker.is_string()) continue;
      brokers += (brokers.empty() ? "" : ", ") + broker.get<std::string>();
    }
  }
  const auto start_ms = field_int(outage, "start_ms").value_or(0);
  const auto end_ms = field_int(outage, "end_ms");
  return "outages[" + std::to_string(index) + "]: faults[" +
         std::to_string(field_int(outage, "fault").value_or(0)) + "] " +
         field_string(outage, "kind") + " of " + brokers + ", " + duration_text(start_ms) +
         (end_ms ? " to " + duration_text(*end_ms) : " to the end");
}

// How a NameServer that kept the broker did by RocketMQ's rules, from its outcome: only `missed`
// (unreachable for longer than the latest removal, and still kept) is wrong. A report without
// outcomes reads "never", as before they existed.
std::string kept_cell(const nlohmann::json& entry) {
  const std::string outcome = field_string(entry, "outcome");
  const std::string unreachable = duration_text(field_int(entry, "unreachable_ms").value_or(0));
  if (outcome == "kept_reachable") return cell("kept: reachable", "good");
  if (outcome == "nameserver_down") return cell("kept: the NameServer was down for part of it");
  if (outcome == "kept_within_rules") {
    return cell("kept: back within the rules (unreachable for " + unreachable + ")", "good");
  }
  if (outcome == "missed") return cell("missed: unreachable for " + unreachable + ", kept", "bad");
  return cell("never", "bad");
}

// How a NameServer's drop delay sits against the predicted window, in words (not only colour).
std::string against_prediction(const nlohmann::json& outage, const nlohmann::json& entry) {
  const auto& bounds = field(field(outage, "predicted"), "nameserver_removal_ms");
  const auto min_ms = field_int(bounds, "min_ms");
  const auto max_ms = field_int(bounds, "max_ms");
  const auto delay_ms = field_int(entry, "delay_ms");
  if (!delay_ms) return kept_cell(entry);
  if (!min_ms || !max_ms) return cell("\u2014");
  if (*delay_ms < *min_ms) return cell("earlier", "bad");
  if (*delay_ms > *max_ms) return cell("later", "bad");
  return cell("within", "good");
}

std::string detection_table(const nlohmann::json& outage) {
  std::string html =
      "<table class=\"detection\"><caption>Detection per NameServer</caption>\n"
      "<tr><th>NameServer</th><th>broker</th><th>path</th><th>dropped at</th>"
      "<th>after the fault</th><th>by RocketMQ's rules (removal predicted " +
      html_escape(predicted_text(outage, "nameserver_removal_ms")) + ")</th></tr>\n";
  const auto& entries = field(outage, "nameservers");
  if (!entries.is_array()) return html + "</table>\n";
  for (const auto& entry : entries) {
    const std::string path = field_string(entry, "path");
    const std::string path_cell =
        path.empty() ? cell("\u2014")
                     : "<td>" + svg_marker_swatch(detection_shape(path), detection_class(path)) +
                           html_escape(path) + "</td>";
    html += "<tr>" + cell(field_string(entry, "nameserver")) +
            cell(field_string(entry, "broker_addr")) + path_cell + ms_cell(entry, "dropped_at_ms") +
            ms_cell(entry, "delay_ms") + against_prediction(outage, entry) + "</tr>\n";
  }
  return html + "</table>\n";
}

std::string stats_row(const std::string& caption, const nlohmann::json& stats,
                      const std::string& predicted) {
  return "<tr><th>" + html_escape(caption) + "</th>" + ms_cell(stats, "min") +
         ms_cell(stats, "p50") + ms_cell(stats, "p99") + ms_cell(stats, "max") +
         count_cell(stats, "count") + count_cell(stats, "never") + cell(predicted) + "</tr>\n";
}

std::string windows_table(const nlohmann::json& outage) {
  const auto& producers = field(outage, "producers");
  const auto& recovery = field(outage, "recovery");
  return "<table class=\"windows\"><caption>Windows, measured from the fault start (recovery: "
         "from its end)</caption>\n<tr><th></th><th>min</th><th>p50</th><th>p99</th><th>max</th>"
         "<th>with a value</th><th>never</th><th>predicted</th></tr>\n" +
         stats_row("NameServer drop", field(outage, "nameserver_drop_ms"),
                   predicted_text(outage, "nameserver_removal_ms")) +
         stats_row("producer stale route", field(producers, "stale_route_ms"),
                   predicted_text(outage, "producer_stale_route_ms")) +
         stats_row("recovery: NameServers", field(recovery, "nameserver_ms"), "\u2014") +
         stats_row("recovery: producers", field(recovery, "producer_ms"), "\u2014") + "</table>\n";
}

std::string sends_table(const nlohmann::json& outage) {
  const auto& sends = field(outage, "sends");
  const auto& failed = field(sends, "failed");
  const auto& latency = field(sends, "latency_ms");
  std::string html =
      "<table class=\"sends\"><caption>Sends started during the outage</caption>\n"
      "<tr><th>sends</th>" +
      count_cell(sends, "total") + "</tr>\n<tr><th>ok</th>" + count_cell(sends, "ok") +
      "</tr>\n<tr><th>failed</th>" + count_cell(failed, "total") + "</tr>\n";
  if (failed.is_object()) {
    for (const auto& [cause, count] : failed.items()) {
      if (cause == "total" || !count.is_number() || count.get<double>() <= 0) continue;
      html += "<tr><th class=\"sub\">" + svg_swatch(cause_class(cause)) + html_escape(cause) +
              "</th>" + count_cell(failed, cause.c_str()) + "</tr>\n";
    }
  }
  html += "<tr><th>retries that succeeded</th>" + count_cell(sends, "retries_succeeded") +
          "</tr>\n<tr><th>copies stored twice</th>" + count_cell(sends, "duplicates_stored") +
          "</tr>\n<tr><th>failed, but stored</th>" + count_cell(sends, "failed_but_stored") +
          "</tr>\n<tr><th>latency p50 / p99 / max</th>" +
          cell(duration_text(field_int(latency, "p50").value_or(0)) + " / " +
                   duration_text(field_int(latency, "p99").value_or(0)) + " / " +
                   duration_text(field_int(latency, "max").value_or(0)),
               "num") +
          "</tr>\n";
  return html + "</table>\n";
}

std::string recovery_table(const nlohmann::json& outage) {
  const auto& entries = field(field(outage, "recovery"), "nameservers");
  if (!entries.is_array() || entries.empty()) return {};
  std::string html =
      "<table class=\"recovery\"><caption>Recovery: back in routes</caption>\n"
      "<tr><th>NameServer</th><th>broker</th><th>back at</th></tr>\n";
  for (const auto& entry : entries) {
    html += "<tr>" + cell(field_string(entry, "nameserver")) +
            cell(field_string(entry, "broker_addr")) + ms_cell(entry, "back_at_ms") + "</tr>\n";
  }
  return html + "</table>\n";
}

std::string producers_note(const nlohmann::json& outage) {
  const auto& producers = field(outage, "producers");
  std::string note = "<p class=\"note\">Producers affected: " +
                     std::to_string(field_int(producers, "affected").value_or(0));
  const auto& reasons = field(producers, "never_reasons");
  if (reasons.is_object() && !reasons.empty()) {
    note += "; never lost the stale route:";
    for (const auto& [reason, count] : reasons.items()) {
      note += " " + html_escape(reason) + " " +
              std::to_string(field_int(reasons, reason.c_str()).value_or(0));
    }
  }
  return note + ".</p>\n";
}

}  // namespace

std::string render_outage_sections(const nlohmann::json& report) {
  const auto& outages = field(report, "outages");
  if (!outages.is_array() || outages.empty()) {
    return "<p class=\"note\">No fault touched a broker, so there is no outage to measure.</p>\n";
  }
  std::string html;
  for (std::size_t i = 0; i < outages.size(); ++i) {
    const auto& outage = outages[i];
    html += "<section class=\"outage\" id=\"outage-" + std::to_string(i) + "\">\n<h3>" +
            html_escape(outage_heading(outage, i)) + "</h3>\n" +
            render_window_chart_svg(outage, i) +
            "<p class=\"figure-caption\">Time since the fault started: a marker where each "
            "NameServer dropped the broker, a tick where each producer lost the stale route; the "
            "pink bands are the windows RocketMQ's rules predict.</p>\n" +
            producers_note(outage) + "<div class=\"tables\">\n" + detection_table(outage) +
            windows_table(outage) +
            route_health_table(field(outage, "route_health"),
                               "Route health: the windows this outage opened") +
            sends_table(outage) + recovery_table(outage) + "</div>\n</section>\n";
  }
  return html;
}

}  // namespace nssim::reports::html

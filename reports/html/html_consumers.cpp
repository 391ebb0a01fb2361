// File: the consumers in the HTML report (reports/README.md "Consumers"): per consumer group what
// it received of what the brokers stored, duplicates, stalls, ownership gaps and latency, and the
// longest stalls with their queue and window.
#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/report_field.h"

namespace nssim::reports::html {

namespace consumer_tables {  // named: a unity batch shares file scope

std::string duration_cell(const nlohmann::json& object, const char* key) {
  const auto ms = field_int(object, key);
  return "<td class=\"num\">" + (ms ? duration_text(*ms) : std::string("\u2014")) + "</td>";
}

}  // namespace consumer_tables

std::string render_consumers(const nlohmann::json& report) {
  using namespace consumer_tables;
  const auto& consumers = field(report, "consumers");
  if (!consumers.is_object()) return "";
  std::string html =
      "<p class=\"note\">A queue stalls while it holds a message stored more than 1 s ago that "
      "no consumer has received and none of its messages is delivered; a duplicate is a "
      "delivery of an offset the group had already received (at-least-once: a queue that moves "
      "to another consumer restarts from the offset its broker last stored).</p>\n"
      "<table class=\"consumers\"><caption>Consumer groups</caption>\n"
      "<tr><th>group</th><th>stored</th><th>delivered</th><th>never delivered</th>"
      "<th>duplicates</th><th>stalls</th><th>longest stall</th><th>stalled in all</th>"
      "<th>no owner</th><th>two owners</th><th>latency p50</th><th>latency p99</th></tr>\n";
  std::string longest;
  for (const auto& group : field(consumers, "groups")) {
    const auto& stall = field(group, "stall_ms");
    const auto& latency = field(group, "latency_ms");
    html += "<tr><td>" + html_escape(field_string(group, "group")) + "</td>" +
            count_cell(group, "stored") + count_cell(group, "delivered") +
            count_cell(group, "never_delivered") + count_cell(group, "duplicates") +
            count_cell(stall, "count") + duration_cell(stall, "max") +
            duration_cell(stall, "total") + duration_cell(field(group, "no_owner_ms"), "total") +
            duration_cell(field(group, "two_owners_ms"), "total") + duration_cell(latency, "p50") +
            duration_cell(latency, "p99") + "</tr>\n";
    for (const auto& s : field(group, "longest_stalls")) {
      longest += "<tr><td>" + html_escape(field_string(group, "group")) + "</td><td>" +
                 html_escape(field_string(s, "queue")) + "</td>" + count_cell(s, "from_ms") +
                 count_cell(s, "to_ms") + duration_cell(s, "ms") + "</tr>\n";
    }
  }
  html += "</table>\n";
  if (!longest.empty()) {
    html +=
        "<table class=\"consumers\"><caption>Longest stalls</caption>\n"
        "<tr><th>group</th><th>queue</th><th>from ms</th><th>to ms</th><th>stalled</th></tr>\n" +
        longest + "</table>\n";
  }
  return html;
}

}  // namespace nssim::reports::html

// File: the brokers' client tables in the HTML report (reports/README.md "Broker client tables"):
// per broker the heartbeats it processed, the producer channels it held at the end and why
// entries left its table, and how long after its last heartbeat a channel's scan expiry came.
#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/report_field.h"

namespace nssim::reports::html {

std::string count_cell(const nlohmann::json& object, const char* key) {
  const auto value = field_int(object, key);
  return "<td class=\"num\">" + (value ? std::to_string(*value) : "\u2014") + "</td>";
}

namespace broker_client_tables {  // named: a unity batch shares file scope

std::string span_text(const nlohmann::json& object, const char* key) {
  const auto ms = field_int(object, key);
  return ms ? duration_text(*ms) : "\u2014";
}

}  // namespace broker_client_tables

std::string render_broker_clients(const nlohmann::json& report) {
  using namespace broker_client_tables;
  const auto& brokers = field(report, "broker_clients");
  if (!brokers.is_object()) return "";
  const auto& delay = field(brokers, "scan_expiry_delay_ms");
  std::string html =
      "<p class=\"note\">Each broker keeps the channels its producers heartbeat over; an entry "
      "leaves when the housekeeping scan finds no heartbeat for more than 120 s (scan expiry), "
      "when the client's close reaches the broker (channel close), after 120 s without traffic "
      "(idle) or when the broker process ends (restart). " +
      (field_int(delay, "count").value_or(0) == 0
           ? std::string("No scan expiry.")
           : "Scan expiries came " + span_text(delay, "p50") + " (p50), at most " +
                 span_text(delay, "max") + " after the channel's last heartbeat.") +
      "</p>\n"
      "<table class=\"broker-clients\"><caption>Producer tables by broker</caption>\n"
      "<tr><th>broker</th><th>heartbeats</th><th>channels at end</th><th>scan expiry</th>"
      "<th>channel close</th><th>idle</th><th>restart</th></tr>\n";
  for (const auto& broker : field(brokers, "per_broker")) {
    const auto& removals = field(broker, "removals");
    html += "<tr><td>" + html_escape(field_string(broker, "node")) + "</td>" +
            count_cell(broker, "heartbeats_processed") +
            count_cell(broker, "producer_channels_at_end") + count_cell(removals, "scan_expiry") +
            count_cell(removals, "channel_close") + count_cell(removals, "idle") +
            count_cell(removals, "restart") + "</tr>\n";
  }
  return html + "</table>\n";
}

}  // namespace nssim::reports::html

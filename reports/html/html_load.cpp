// File: what the run asked of its servers in the HTML report (reports/README.md "Server load"):
// per NameServer and request code the requests served with their mean and peak per second, and
// per broker its registrations and the heartbeats it processed.
#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/report_field.h"

namespace nssim::reports::html {

namespace server_load {  // named: a unity batch shares file scope

std::string rate_cell(const nlohmann::json& object, const char* key) {
  return "<td class=\"num\">" + html_escape(rate_text(field(object, key))) + "</td>";
}

std::string load_cells(const nlohmann::json& load) {
  const auto peak = field_int(load, "peak_per_s");
  return count_cell(load, "total") + rate_cell(load, "mean_per_s") + "<td class=\"num\">" +
         (peak ? std::to_string(*peak) + "/s" : "\u2014") + "</td>";
}

}  // namespace server_load

std::string render_server_load(const nlohmann::json& report) {
  using namespace server_load;
  const auto& nameservers = field(report, "nameserver_load");
  if (!nameservers.is_object()) return "";
  std::string html =
      "<p class=\"note\">Requests each NameServer served over the run: the mean per second, and "
      "the peak, the fullest " +
      std::to_string(field_int(nameservers, "bucket_ms").value_or(0)) +
      " ms bucket. A route poll asks once per topic per pollNameServerInterval, a broker "
      "registers with every NameServer once per registerNameServerPeriod.</p>\n"
      "<table class=\"server-load\"><caption>Requests by NameServer and request code</caption>\n"
      "<tr><th>NameServer</th><th>request code</th><th>requests</th><th>mean</th><th>peak</th>"
      "</tr>\n";
  for (const auto& [node, load] : field(nameservers, "per_nameserver").items()) {
    html += "<tr><td>" + html_escape(node) + "</td><td>all</td>" + load_cells(load) + "</tr>\n";
    for (const auto& [code, counts] : field(load, "by_code").items()) {
      html += "<tr><td>" + html_escape(node) + "</td><td>" + html_escape(code) + "</td>" +
              load_cells(counts) + "</tr>\n";
    }
  }
  html += "</table>\n";
  const auto& brokers = field(report, "broker_load");
  if (!brokers.is_object()) return html;
  html +=
      "<table class=\"broker-load\"><caption>Per broker: REGISTER_BROKER requests the NameServers "
      "served from it, client heartbeats it processed</caption>\n"
      "<tr><th>broker</th><th>registrations</th><th>per second</th><th>heartbeats</th>"
      "<th>per second</th></tr>\n";
  for (const auto& broker : field(brokers, "per_broker")) {
    html += "<tr><td>" + html_escape(field_string(broker, "node")) + "</td>" +
            count_cell(broker, "registrations") + rate_cell(broker, "registrations_per_s") +
            count_cell(broker, "heartbeats_processed") + rate_cell(broker, "heartbeats_per_s") +
            "</tr>\n";
  }
  return html + "</table>\n";
}

}  // namespace nssim::reports::html

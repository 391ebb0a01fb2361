// File: the clients' scheduler threads in the HTML report (reports/README.md "Client scheduler"):
// the clients whose route polls started latest, heartbeats per broker address, and per broker
// removal how long the clients took to poll after it.
#include <algorithm>

#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/report_field.h"

namespace nssim::reports::html {

namespace scheduler_tables {  // named: a unity batch shares file scope

// How many clients the page lists; result.json lists more (kListedClients), worst first.
constexpr std::size_t kListedClients = 20;

std::string text_cell(const std::string& text) { return "<td>" + html_escape(text) + "</td>"; }

std::string span_cell(const nlohmann::json& object, const char* key) {
  const auto ms = field_int(object, key);
  return "<td class=\"num\">" + (ms ? duration_text(*ms) : "\u2014") + "</td>";
}

std::string latest_clients(const nlohmann::json& scheduler) {
  const auto& clients = field(scheduler, "per_client");
  if (!clients.is_array() || clients.empty()) return "";
  std::string html =
      "<table class=\"scheduler-clients\"><caption>Clients with the latest route "
      "polls</caption>\n<tr><th>client</th><th>route polls</th><th>delay max</th>"
      "<th>delay p99</th><th>behind</th><th>heartbeats</th><th>failed</th></tr>\n";
  const std::size_t listed = std::min(kListedClients, clients.size());
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& c = clients[i];
    html += "<tr>" + text_cell(field_string(c, "name")) + count_cell(c, "route_polls") +
            span_cell(c, "route_poll_delay_max_ms") + span_cell(c, "route_poll_delay_p99_ms") +
            span_cell(c, "behind_ms") + count_cell(c, "heartbeat_attempts") +
            count_cell(c, "heartbeat_failures") + "</tr>\n";
  }
  return html + "</table>\n";
}

// "request_timeout 3, connect_timeout 1": the non-zero causes of a failed-by-cause object.
std::string failure_causes(const nlohmann::json& failed) {
  std::string text;
  if (!failed.is_object()) return text;
  for (const auto& [cause, count] : failed.items()) {
    if (cause == "total" || !count.is_number() || count.get<double>() == 0) continue;
    text += (text.empty() ? "" : ", ") + cause + " " + count.dump();
  }
  return text;
}

std::string heartbeats(const nlohmann::json& scheduler) {
  const auto& brokers = field(scheduler, "heartbeats_by_broker");
  if (!brokers.is_array() || brokers.empty()) return "";
  std::string html =
      "<table class=\"scheduler-heartbeats\"><caption>Heartbeats by broker address</caption>\n"
      "<tr><th>address</th><th>broker</th><th>id</th><th>heartbeats</th><th>ok</th>"
      "<th>failed</th><th>failed by cause</th></tr>\n";
  for (const auto& b : brokers) {
    const auto& failed = field(b, "failed");
    html += "<tr>" + text_cell(field_string(b, "broker_addr")) +
            text_cell(field_string(b, "broker_name")) + count_cell(b, "broker_id") +
            count_cell(b, "attempts") + count_cell(b, "ok") + count_cell(failed, "total") +
            text_cell(failure_causes(failed)) + "</tr>\n";
  }
  return html + "</table>\n";
}

std::string removals(const nlohmann::json& scheduler) {
  const auto& list = field(scheduler, "removals");
  if (!list.is_array() || list.empty()) return "";
  std::string html =
      "<table class=\"scheduler-removals\"><caption>First route poll after a broker removal "
      "(F - R)</caption>\n<tr><th>broker</th><th>master</th><th>R</th><th>clients</th>"
      "<th>F - R p50</th><th>p99</th><th>max</th><th>never polled</th></tr>\n";
  for (const auto& removal : list) {
    const auto& f_minus_r = field(removal, "f_minus_r_ms");
    const auto removed = field_int(removal, "removed_at_ms");
    html += "<tr>" + text_cell(field_string(removal, "broker_name")) +
            text_cell(field_string(removal, "broker_addr")) + "<td class=\"num\">" +
            (removed ? duration_text(*removed) : "\u2014") + "</td>" +
            count_cell(removal, "clients") + span_cell(f_minus_r, "p50") +
            span_cell(f_minus_r, "p99") + span_cell(f_minus_r, "max") +
            count_cell(f_minus_r, "never") + "</tr>\n";
  }
  return html + "</table>\n";
}

}  // namespace scheduler_tables

std::string render_client_scheduler(const nlohmann::json& report) {
  using namespace scheduler_tables;
  const auto& scheduler = field(report, "client_scheduler");
  if (!scheduler.is_object()) return "";
  return "<p class=\"note\">Each client runs its route polls and heartbeats on one scheduler "
         "thread; a run due while another holds the thread starts late. Delay: a route poll's "
         "start minus its due time. Behind: the time during which some due run waited. R: the "
         "last NameServer a client can ask stopped listing the broker group's master; F: the "
         "start of the client's first route poll at or after R.</p>\n" +
         latest_clients(scheduler) + heartbeats(scheduler) + removals(scheduler);
}

}  // namespace nssim::reports::html

// File: render_html_report (see html_report.h): the page skeleton that puts the sections together,
// pictures first (what happened, on one time axis), then the outage tables and the expectations.
#include "reports/html/html_report.h"

#include "reports/html/html_escape.h"
#include "reports/html/html_model.h"
#include "reports/html/html_sections.h"
#include "reports/report_field.h"

namespace nssim::reports {

namespace html {
namespace {

std::string figure(const std::string& heading, const std::string& svg, const std::string& caption) {
  return "<figure>\n<h3>" + html_escape(heading) + "</h3>\n" + svg +
         "<figcaption class=\"figure-caption\">" + html_escape(caption) +
         "</figcaption>\n"
         "</figure>\n";
}

std::string pictures(const PageModel& model) {
  std::string html = "<section id=\"pictures\">\n<h2>What happened</h2>\n" + render_legend(model);
  const std::string timeline = render_timeline_svg(model);
  if (!timeline.empty()) {
    html += figure("Brokers and NameServer routes", timeline,
                   "Per broker a fault touched or a NameServer missed: its process state, and "
                   "beneath it, per NameServer, when the broker was in that NameServer's routes "
                   "and, striped amber, when the NameServer could use the broker but was missing "
                   "it from its routes. Markers show when and how each NameServer dropped it; "
                   "the pink band is the window in which RocketMQ's rules predict the drop.");
  } else if (model.has_timelines) {
    html += "<p class=\"note\">No fault touched a broker or stopped a NameServer.</p>\n";
  } else {
    html += "<p class=\"note\">This report has no timelines, so no broker lanes are drawn.</p>\n";
  }
  html += render_untouched_brokers(model);
  if (!model.has_timeseries || model.seconds.empty()) {
    return html +
           "<p class=\"note\">This report has no time series, so no charts are drawn."
           "</p>\n</section>\n";
  }
  html += figure("Producers with a stale or lost route", render_route_chart_svg(model),
                 "Per second, the producers that had a stale route at some time in it (their "
                 "publish info held a broker group whose master they could not use: down, paused, "
                 "powered off or cut from them) and, below on the same scale, those that had a "
                 "lost route (they could use the master, but their publish info lacked the group "
                 "they had held before). A producer counts once per second, however many groups. "
                 "The pink band is where RocketMQ's rules predict the last stale route of an "
                 "outage ends.");
  html += figure("Sends per second", render_sends_chart_svg(model),
                 "Sends by the second they started: ok above, failed below (stacked by cause, "
                 "own scale).");
  if (const std::string brokers = render_broker_chart_svg(model); !brokers.empty()) {
    html += figure("Load per broker group", brokers,
                   "Send attempts that succeeded, per second, at each broker group (the " +
                       std::to_string(kBrokerLines) +
                       " busiest when there are more): where the producers' queue selection "
                       "and fault strategy sent the load.");
  }
  return html + "</section>\n";
}

}  // namespace

std::string render_page(const nlohmann::json& report) {
  const PageModel model = read_page_model(report);
  const std::string name = field_string(field(report, "scenario"), "name");
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>nssim: " +
      html_escape(name) + "</title>\n<style>\n" + html_style_sheet() +
      "</style>\n</head>\n<body>\n<main>\n";
  html += render_header(report) + pictures(model);
  html += "<section id=\"outages\">\n<h2>Outages</h2>\n" + render_outage_sections(report) +
          "</section>\n";
  html += "<section id=\"route-health\">\n<h2>Route health</h2>\n" + render_route_health(report) +
          "</section>\n";
  if (const std::string scheduler = render_client_scheduler(report); !scheduler.empty()) {
    html += "<section id=\"client-scheduler\">\n<h2>Client scheduler</h2>\n" + scheduler +
            "</section>\n";
  }
  if (const std::string brokers = render_broker_clients(report); !brokers.empty()) {
    html += "<section id=\"broker-clients\">\n<h2>Broker client tables</h2>\n" + brokers +
            "</section>\n";
  }
  if (const std::string consumers = render_consumers(report); !consumers.empty()) {
    html += "<section id=\"consumers\">\n<h2>Consumers</h2>\n" + consumers + "</section>\n";
  }
  if (const std::string load = render_server_load(report); !load.empty()) {
    html += "<section id=\"server-load\">\n<h2>Server load</h2>\n" + load + "</section>\n";
  }
  html += "<section id=\"expectations\">\n<h2>Expectations</h2>\n" + render_expectations(report) +
          "</section>\n";
  html += "<section id=\"run\">\n<h2>Run</h2>\n" + render_run_summary(report) + "</section>\n";
  html += "<footer>Written by nssim from a " + html_escape(field_string(report, "schema")) +
          " document (result " + html_escape(field_string(report, "result_schema")) +
          ").</footer>\n</main>\n</body>\n</html>\n";
  return html;
}

}  // namespace html

std::string render_html_report(const nlohmann::json& report) { return html::render_page(report); }

}  // namespace nssim::reports

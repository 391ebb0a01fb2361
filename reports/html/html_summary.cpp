// File: the parts of the HTML report that are text first: the header with the scenario and the
// verdict, the expectations with pass or FAIL, and the whole-run figures and settings.
#include <cmath>

#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/report_field.h"

namespace nssim::reports::html {

namespace {

std::string number_text(const nlohmann::json& value) {
  if (value.is_number_integer()) return std::to_string(value.get<int64_t>());
  if (!value.is_number()) return "\u2014";
  const double number = value.get<double>();
  if (std::isfinite(number) && std::fabs(number) < 1e15 && number == std::floor(number)) {
    return std::to_string(static_cast<int64_t>(number));
  }
  return format_fixed(number, 3);
}

std::string verdict_line(const nlohmann::json& report) {
  const std::string verdict = field_string(report, "verdict");
  const auto& expectations = field(report, "expectations");
  std::size_t total = 0;
  std::size_t failed = 0;
  if (expectations.is_array()) {
    for (const auto& entry : expectations) {
      ++total;
      const auto& passed = field(entry, "passed");
      if (!passed.is_boolean() || !passed.get<bool>()) ++failed;
    }
  }
  const std::string of_total =
      " of " + std::to_string(total) + (total == 1 ? " expectation" : " expectations");
  if (verdict == "pass") {
    return std::string("<p class=\"verdict pass\"><strong>PASS</strong> ") +
           (total == 1 ? "the one expectation holds" : "all" + of_total.substr(3) + " hold") +
           "</p>\n";
  }
  if (verdict == "fail") {
    return "<p class=\"verdict fail\"><strong>FAIL</strong> " + std::to_string(failed) + of_total +
           " failed</p>\n";
  }
  return "<p class=\"verdict none\"><strong>no expectations</strong> the scenario states "
         "none</p>\n";
}

std::string row(const std::string& name, const std::string& value) {
  return "<tr><th>" + html_escape(name) + "</th><td class=\"num\">" + html_escape(value) +
         "</td></tr>\n";
}

std::string sends_rows(const nlohmann::json& sends) {
  const auto& failed = field(sends, "failed");
  std::string html = row("sends", number_text(field(sends, "total"))) +
                     row("ok", number_text(field(sends, "ok"))) +
                     row("failed", number_text(field(failed, "total")));
  if (failed.is_object()) {
    for (const auto& [cause, count] : failed.items()) {
      if (cause == "total" || !count.is_number() || count.get<double>() <= 0) continue;
      html += "<tr><th class=\"sub\">" + svg_swatch(cause_class(cause)) + html_escape(cause) +
              "</th><td class=\"num\">" + number_text(count) + "</td></tr>\n";
    }
  }
  return html + row("attempts", number_text(field(sends, "attempts"))) +
         row("retries that succeeded", number_text(field(sends, "retries_succeeded"))) +
         row("copies stored twice", number_text(field(sends, "duplicates_stored"))) +
         row("failed, but stored", number_text(field(sends, "failed_but_stored")));
}

std::string disagreement_rows(const nlohmann::json& disagreement) {
  const auto total_ms = field_int(disagreement, "total_ms");
  const std::string count = number_text(field(disagreement, "count"));
  return row("NameServer views differed", count + (count == "1" ? " time, " : " times, ") +
                                              (total_ms ? duration_text(*total_ms) : "\u2014") +
                                              " in all");
}

}  // namespace

std::string render_header(const nlohmann::json& report) {
  const auto& scenario = field(report, "scenario");
  const auto duration = field_int(scenario, "duration_ms");
  std::string meta = field_string(scenario, "file") + " \u00B7 profile " +
                     field_string(scenario, "profile") + " \u00B7 seed " +
                     number_text(field(scenario, "seed")) + " \u00B7 " +
                     (duration ? duration_text(*duration) : "\u2014") + " simulated";
  const std::string command = field_string(scenario, "command");
  const std::string repeat = command.empty()
                                 ? ""
                                 : "<p class=\"meta\">Repeat it: <code class=\"repeat\">" +
                                       html_escape(command) + "</code></p>\n";
  return "<header>\n<h1>" + html_escape(field_string(scenario, "name")) +
         "</h1>\n<p class=\"meta\">" + html_escape(meta) + "</p>\n" + repeat +
         verdict_line(report) + "<p class=\"description\">" +
         html_escape(field_string(scenario, "description")) + "</p>\n</header>\n";
}

std::string render_expectations(const nlohmann::json& report) {
  const auto& expectations = field(report, "expectations");
  if (!expectations.is_array() || expectations.empty()) {
    return "<p class=\"note\">The scenario states no expectations.</p>\n";
  }
  std::string html =
      "<table class=\"expectations\">\n<tr><th>result</th><th>expectation</th><th>measured</th>"
      "<th>expected</th><th>what held or moved</th></tr>\n";
  for (const auto& entry : expectations) {
    const auto& passed = field(entry, "passed");
    const bool ok = passed.is_boolean() && passed.get<bool>();
    html += std::string("<tr>") +
            (ok ? "<td class=\"good\">pass</td>" : "<td class=\"bad\">FAIL</td>") + "<td><code>" +
            html_escape(field_string(entry, "source")) + "</code></td><td class=\"num\">" +
            number_text(field(entry, "measured")) + "</td><td class=\"num\">" +
            number_text(field(entry, "expected")) + "</td><td>" +
            html_escape(field_string(entry, "message")) + "</td></tr>\n";
  }
  return html + "</table>\n";
}

std::string render_run_summary(const nlohmann::json& report) {
  std::string html = "<div class=\"tables\">\n<table class=\"run\"><caption>Whole run</caption>\n" +
                     sends_rows(field(report, "sends")) +
                     disagreement_rows(field(report, "nameserver_disagreement")) +
                     "</table>\n<table class=\"settings\"><caption>Settings the predictions "
                     "use</caption>\n";
  const auto& settings = field(report, "settings");
  if (settings.is_object()) {
    for (const auto& [name, value] : settings.items()) {
      const std::string text = value.is_string()   ? value.get<std::string>()
                               : value.is_number() ? number_text(value)
                                                   : value.dump();
      html += row(name, text);
    }
  }
  return html + "</table>\n</div>\n";
}

}  // namespace nssim::reports::html

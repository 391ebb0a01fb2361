// File: render_sweep_html (see sweep_html.h): the page skeleton and its text parts: the header
// with the sweep verdict, the points and how to replay one, the sweep expectations, the worst
// seeds, and every figure's statistics. The pictures are in sweep_html_charts.cpp and
// sweep_html_grid.cpp.
#include "reports/sweep/sweep_html.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "reports/html/html_escape.h"
#include "reports/html/html_model.h"
#include "reports/html/html_sections.h"
#include "reports/report_field.h"
#include "reports/sweep/sweep_figures.h"

namespace nssim::reports {

namespace sweep_html {

using html::format_fixed;
using html::html_escape;
using nlohmann::json;

std::optional<double> number_of(const json& value) {
  if (!value.is_number()) return std::nullopt;
  const double number = value.get<double>();
  if (!std::isfinite(number)) return std::nullopt;
  return number;
}

std::string plain_number(const json& value) {
  if (value.is_number_integer()) return std::to_string(value.get<int64_t>());
  const auto number = number_of(value);
  if (!number) return "\u2014";
  if (std::fabs(*number) < 1e15 && *number == std::floor(*number)) {
    return std::to_string(static_cast<int64_t>(*number));
  }
  return format_fixed(*number, 3);
}

std::string figure_value_text(const std::string& key, const json& value) {
  const auto number = number_of(value);
  if (number && is_time_figure(key)) return duration_text(*number);
  return plain_number(value);
}

std::string point_short_name(const json& point) {
  std::string name;
  const auto& values = field(point, "grid_values");
  if (values.is_array()) {
    for (const auto& value : values) {
      name += (name.empty() ? "" : ", ") +
              (value.is_string() ? value.get<std::string>() : value.dump());
    }
  }
  return name.empty() ? field_string(point, "label") : name;
}

const json& points_of(const json& sweep) {
  static const json kEmpty = json::array();
  const auto& points = field(sweep, "points");
  return points.is_array() ? points : kEmpty;
}

std::size_t outage_count(const json& sweep) {
  std::size_t count = 0;
  for (const auto& point : points_of(sweep)) {
    const auto& outages = field(point, "outages");
    if (outages.is_array()) count = std::max(count, outages.size());
  }
  return count;
}

std::string outage_title(const json& outage, std::size_t index) {
  std::string brokers;
  const auto& list = field(outage, "brokers");
  if (list.is_array()) {
    for (const auto& broker : list) {
      if (broker.is_string()) brokers += (brokers.empty() ? "" : ", ") + broker.get<std::string>();
    }
  }
  const auto end_ms = field_int(outage, "end_ms");
  return "outages[" + std::to_string(index) + "]: " + field_string(outage, "kind") + " of " +
         (brokers.empty() ? "no broker" : brokers) + " at " +
         duration_text(field_int(outage, "start_ms").value_or(0)) + " (faults[" +
         std::to_string(field_int(outage, "fault").value_or(0)) + "], " +
         (end_ms ? "until " + duration_text(*end_ms) : "to the end") + ")";
}

namespace {

constexpr const char* kDash = "\u2014";

bool has_grid(const json& sweep) { return points_of(sweep).size() > 1; }

std::string code(const std::string& text) { return "<code>" + html_escape(text) + "</code>"; }

std::string num_cell(const std::string& text) {
  return "<td class=\"num\">" + html_escape(text) + "</td>";
}

std::string point_cell(const json& sweep, const json& point) {
  if (!has_grid(sweep)) return "";
  return "<td title=\"" + html_escape(field_string(point, "label")) + "\">" +
         html_escape(point_short_name(point)) + "</td>";
}

std::string point_header(const json& sweep) { return has_grid(sweep) ? "<th>point</th>" : ""; }

std::string verdict_badge(const json& sweep) {
  std::size_t total = 0;
  std::size_t failed = 0;
  for (const auto& point : points_of(sweep)) {
    const auto& expectations = field(point, "expectations");
    if (!expectations.is_array()) continue;
    for (const auto& entry : expectations) {
      ++total;
      if (field(entry, "passed") != true) ++failed;
    }
  }
  const std::string verdict = field_string(sweep, "verdict");
  const std::string of_total =
      std::to_string(total) + " sweep expectation" + (total == 1 ? "" : "s");
  if (verdict == "pass") {
    return "<p class=\"verdict pass\"><strong>PASS</strong> " +
           (total == 1 ? std::string("the one sweep expectation holds")
                       : "all " + of_total + " hold") +
           "</p>\n";
  }
  if (verdict == "fail") {
    return "<p class=\"verdict fail\"><strong>FAIL</strong> " + std::to_string(failed) + " of " +
           of_total + " failed</p>\n";
  }
  return "<p class=\"verdict none\"><strong>no expectations</strong> the scenario states no sweep "
         "expectation</p>\n";
}

std::string run_verdict_line(const json& sweep) {
  std::array<int64_t, 3> counts{};
  const std::array<const char*, 3> keys = {"pass", "fail", "no_expectations"};
  for (const auto& point : points_of(sweep)) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      counts[i] += field_int(field(point, "run_verdicts"), keys[i]).value_or(0);
    }
  }
  return "<p class=\"meta\">The scenario's own expectations, run by run: " +
         std::to_string(counts[0]) + " pass \u00B7 " + std::to_string(counts[1]) + " FAIL \u00B7 " +
         std::to_string(counts[2]) + " without expectations</p>\n";
}

std::string settings_lines(const json& sweep) {
  std::string set;
  const auto& overrides = field(sweep, "set");
  if (overrides.is_array()) {
    for (const auto& entry : overrides) {
      if (entry.is_string()) set += (set.empty() ? "" : " ") + code(entry.get<std::string>());
    }
  }
  std::string html = "<p class=\"meta\">Common overrides: " +
                     (set.empty() ? std::string("none (the scenario as written)") : set) + "</p>\n";
  const auto& grid = field(sweep, "grid");
  if (!grid.is_array() || grid.empty()) return html;
  html +=
      "<p class=\"meta\">Grid (every combination is a point, named by its values in this "
      "order):</p>\n<ul class=\"grid-list\">\n";
  for (const auto& entry : grid) {
    std::string values;
    for (const auto& value : field(entry, "values")) {
      values += (values.empty() ? "" : " \u00B7 ") +
                (value.is_string() ? value.get<std::string>() : value.dump());
    }
    html += "<li>" + code(field_string(entry, "path")) + " = " + html_escape(values) + "</li>\n";
  }
  return html + "</ul>\n";
}

std::string render_header(const json& sweep) {
  const auto& scenario = field(sweep, "scenario");
  const auto& seeds = field(sweep, "seeds");
  const auto duration = field_int(scenario, "duration_ms");
  const std::string meta =
      field_string(scenario, "file") + " \u00B7 profile " + field_string(scenario, "profile") +
      " \u00B7 seeds " + plain_number(field(seeds, "first")) + "\u2013" +
      plain_number(field(seeds, "last")) + " (" + plain_number(field(seeds, "count")) +
      ") \u00B7 " + plain_number(field(sweep, "runs")) + " runs \u00B7 " +
      (duration ? duration_text(*duration) : kDash) + " simulated per run";
  return "<header>\n<h1>" + html_escape(field_string(scenario, "name")) +
         " <span class=\"sweep-tag\">sweep</span></h1>\n<p class=\"meta\">" + html_escape(meta) +
         "</p>\n" + verdict_badge(sweep) + run_verdict_line(sweep) + "<p class=\"description\">" +
         html_escape(field_string(scenario, "description")) + "</p>\n" + settings_lines(sweep) +
         "</header>\n";
}

std::string render_points(const json& sweep) {
  std::string html =
      "<table class=\"points\">\n<tr><th>point</th><th>label</th><th>profile</th><th>runs</th>"
      "<th>pass</th><th>FAIL</th><th>no expectations</th><th>one run (append --seed N)</th></tr>\n";
  for (const auto& point : points_of(sweep)) {
    const auto& verdicts = field(point, "run_verdicts");
    const auto fails = field_int(verdicts, "fail").value_or(0);
    html += "<tr>" + num_cell(plain_number(field(point, "index"))) + "<td>" +
            html_escape(field_string(point, "label")) + "</td><td>" +
            html_escape(field_string(point, "profile")) + "</td>" +
            num_cell(plain_number(field(point, "runs"))) +
            num_cell(plain_number(field(verdicts, "pass"))) + "<td class=\"num" +
            (fails > 0 ? " bad" : "") + "\">" + std::to_string(fails) + "</td>" +
            num_cell(plain_number(field(verdicts, "no_expectations"))) + "<td>" +
            code(field_string(point, "command")) + "</td></tr>\n";
  }
  return html + "</table>\n";
}

std::string render_expectations(const json& sweep) {
  std::string rows;
  for (const auto& point : points_of(sweep)) {
    const auto& expectations = field(point, "expectations");
    if (!expectations.is_array()) continue;
    for (const auto& entry : expectations) {
      const bool ok = field(entry, "passed") == true;
      const auto& seed = field(entry, "worst_seed");
      rows += std::string("<tr>") +
              (ok ? "<td class=\"good\">pass</td>" : "<td class=\"bad\">FAIL</td>") +
              point_cell(sweep, point) + "<td>" + code(field_string(entry, "source")) + "</td>" +
              num_cell(plain_number(field(entry, "measured"))) +
              num_cell(plain_number(field(entry, "expected"))) +
              num_cell(seed.is_null() ? kDash : plain_number(seed)) + "<td>" +
              // Without a worst seed the message says why (no value, no such figure).
              (seed.is_null() ? html_escape(field_string(entry, "message"))
                              : code(field_string(entry, "worst_command"))) +
              "</td></tr>\n";
    }
  }
  if (rows.empty()) return "<p class=\"note\">The scenario states no sweep expectations.</p>\n";
  return "<table class=\"expectations\">\n<tr><th>result</th>" + point_header(sweep) +
         "<th>expectation</th><th>measured</th><th>expected</th><th>worst seed</th>"
         "<th>replay it</th></tr>\n" +
         rows + "</table>\n";
}

// The headline figures, in the order the outage sections draw them, then the whole run's.
std::vector<std::string> headline_keys(std::size_t outages) {
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < outages; ++i) {
    const std::string prefix = outage_prefix(i);
    keys.push_back(prefix + "nameserver_drop_ms.max");
    keys.push_back(prefix + "producers.stale_route_ms.max");
    keys.push_back(prefix + "route_health.lost.max");
    keys.push_back(prefix + "sends.failed.total");
  }
  keys.emplace_back("sends.failed.total");
  for (const char* kind : {"stale", "lost", "missing"}) {
    keys.push_back(std::string("route_health.") + kind + ".max");
  }
  return keys;
}

std::string worst_seed_row(const json& sweep, const json& point, const std::string& key) {
  const auto& stats = field(field(point, "figures"), key);
  std::string html = "<tr><td>" + code(key) + "</td>" + point_cell(sweep, point);
  if (!stats.is_object()) return html + "<td colspan=\"3\">not in this sweep</td></tr>\n";
  if (field(stats, "max_seed").is_null()) {
    return html + "<td colspan=\"3\">no seed has a value (" + plain_number(field(stats, "never")) +
           " never)</td></tr>\n";
  }
  return html + num_cell(figure_value_text(key, field(stats, "max"))) +
         num_cell(plain_number(field(stats, "max_seed"))) + "<td>" +
         code(field_string(stats, "max_command")) + "</td></tr>\n";
}

std::string render_worst_seeds(const json& sweep) {
  std::string html = "<table class=\"worst\">\n<tr><th>figure</th>" + point_header(sweep) +
                     "<th>max</th><th>seed</th><th>replay it</th></tr>\n";
  for (const auto& key : headline_keys(outage_count(sweep))) {
    for (const auto& point : points_of(sweep)) html += worst_seed_row(sweep, point, key);
  }
  // The scheduler's figures only where the runs' clients reported a scheduler.
  for (const auto& headline : kSchedulerHeadlines) {
    const auto& points = points_of(sweep);
    const bool any = std::any_of(points.begin(), points.end(), [&](const json& point) {
      return field(field(point, "figures"), headline.figure).is_object();
    });
    if (!any) continue;
    for (const auto& point : points) html += worst_seed_row(sweep, point, headline.figure);
  }
  return html + "</table>\n";
}

std::string figure_table(const json& point) {
  static const std::array<const char*, 8> kStats = {"n",   "never", "min", "p50",
                                                    "p90", "p99",   "max", "mean"};
  std::string html = "<table class=\"figures\">\n<tr><th>figure</th>";
  for (const char* stat : kStats) html += std::string("<th>") + stat + "</th>";
  html += "</tr>\n";
  const auto& figures = field(point, "figures");
  if (!figures.is_object()) return html + "</table>\n";
  for (const auto& [key, stats] : figures.items()) {
    html += "<tr><td>" + code(key) + "</td>";
    for (const char* stat : kStats) html += num_cell(plain_number(field(stats, stat)));
    html += "</tr>\n";
  }
  return html + "</table>\n";
}

std::string render_all_figures(const json& sweep) {
  const auto& points = points_of(sweep);
  if (points.empty()) return "<p class=\"note\">This sweep has no points.</p>\n";
  std::string html =
      "<p class=\"note\">Each figure's statistics over the seeds that have a value (n); never "
      "counts the others. Milliseconds where the name ends in _ms; within_predicted.* is 1 for a "
      "seed inside the predicted window, so its mean is the share of such seeds.</p>\n";
  for (const auto& point : points) {
    if (points.size() == 1) return html + figure_table(point);
    html += "<details>\n<summary>" + html_escape(field_string(point, "label")) + "</summary>\n" +
            figure_table(point) + "</details>\n";
  }
  return html;
}

std::string section(const char* id, const char* heading, const std::string& body) {
  return std::string("<section id=\"") + id + "\">\n<h2>" + heading + "</h2>\n" + body +
         "</section>\n";
}

}  // namespace

}  // namespace sweep_html

std::string render_sweep_html(const nlohmann::json& sweep) {
  using namespace sweep_html;
  const std::string name = field_string(field(sweep, "scenario"), "name");
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>nssim sweep: " +
      html::html_escape(name) + "</title>\n<style>\n" + html::html_style_sheet() +
      sweep_style_sheet() + "</style>\n</head>\n<body>\n<main>\n" + render_header(sweep);
  page += section("points", "Points", render_points(sweep));
  page += section("expectations", "Sweep expectations", render_expectations(sweep));
  const std::size_t outages = outage_count(sweep);
  for (std::size_t i = 0; i < outages; ++i) {
    page += "<section class=\"outage\" id=\"outage-" + std::to_string(i) + "\">\n" +
            render_outage_histograms(sweep, i) + render_grid_charts(sweep, i) + "</section>\n";
  }
  if (outages == 0) page += "<p class=\"note\">The scenario has no outage to draw.</p>\n";
  page += section("worst-seeds", "Worst seeds", render_worst_seeds(sweep));
  page += section("figures", "Every figure", render_all_figures(sweep));
  page += "<footer>Written by nssim " + html::html_escape(field_string(sweep, "nssim_version")) +
          " from a " + html::html_escape(field_string(sweep, "schema")) +
          " document.</footer>\n</main>\n</body>\n</html>\n";
  return page;
}

}  // namespace nssim::reports

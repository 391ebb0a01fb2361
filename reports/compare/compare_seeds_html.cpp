// File: render_seed_comparison_html (see compare_seeds.h): one self-contained page with the
// method, what changed beyond seed noise, the two sides' CDFs of each headline window on one
// plot, and every figure. Inline SVG and style only, every string escaped.
#include <algorithm>

#include "reports/compare/compare_report.h"
#include "reports/compare/compare_report_format.h"
#include "reports/compare/compare_seeds.h"
#include "reports/html/html_escape.h"
#include "reports/html/svg_writer.h"
#include "reports/report_field.h"
#include "reports/sweep/sweep_figures.h"

namespace nssim::reports {

namespace {

using compare_format::value_text;
using html::html_escape;
using html::svg_number;
using nlohmann::json;

constexpr double kWidth = 640, kHeight = 240, kLeft = 56, kRight = 620, kTop = 12, kBottom = 200;

constexpr const char* kStyle =
    R"(body{font-family:system-ui,sans-serif;margin:2em;max-width:72em;color:#1b1b1b}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.changed td{background:#fff2a8}
code{font-size:90%}
.cdfs{display:flex;flex-wrap:wrap;gap:12px}
.cdfs figure{margin:0;width:640px}
svg{display:block;width:100%;height:auto}
.axis{stroke:#555;stroke-width:1}
.grid{stroke:#e5e5e5;stroke-width:1}
.side-a{fill:none;stroke:#0072B2;stroke-width:2}
.side-b{fill:none;stroke:#D55E00;stroke-width:2;stroke-dasharray:6 3}
.tick{font-size:11px;fill:#333}
.key-a{color:#0072B2;font-weight:bold}
.key-b{color:#D55E00;font-weight:bold})";

std::string text_of(const json& value) { return html_escape(value_text(value)); }

std::string tick_text(double value, bool time) {
  return time ? html::format_fixed(value / 1000.0, 1) + " s" : html::format_fixed(value, 0);
}

// A step line: the share of seeds at or below each value.
std::string cdf_path(const json& values, double lo, double hi) {
  const auto x = [&](double v) {
    return kLeft + (hi > lo ? (v - lo) / (hi - lo) : 0.5) * (kRight - kLeft);
  };
  const auto y = [](double share) { return kBottom - share * (kBottom - kTop); };
  std::string d = "M" + svg_number(kLeft) + " " + svg_number(y(0));
  const double n = static_cast<double>(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const double px = x(values[i].get<double>());
    d += " L" + svg_number(px) + " " + svg_number(y(static_cast<double>(i) / n)) + " L" +
         svg_number(px) + " " + svg_number(y(static_cast<double>(i + 1) / n));
  }
  return d + " L" + svg_number(kRight) + " " + svg_number(y(1));
}

std::string cdf_svg(const json& cdf, std::size_t index) {
  const json& a = field(cdf, "a");
  const json& b = field(cdf, "b");
  if (a.empty() && b.empty()) return "<p>No seed has a value on either side.</p>\n";
  double lo = 0, hi = 0;
  bool first = true;
  for (const json* side : {&a, &b}) {
    if (side->empty()) continue;
    lo = first ? side->front().get<double>() : std::min(lo, side->front().get<double>());
    hi = first ? side->back().get<double>() : std::max(hi, side->back().get<double>());
    first = false;
  }
  const bool time = is_time_figure(field(cdf, "figure").get<std::string>());
  const std::string figure = field(cdf, "figure").get<std::string>();
  html::SvgWriter svg("cdf-" + std::to_string(index), kWidth, kHeight, "CDF of " + figure);
  for (int q = 0; q <= 4; ++q) {
    const double y = kBottom - q / 4.0 * (kBottom - kTop);
    svg.line(kLeft, y, kRight, y, "grid");
    svg.text(kLeft - 6, y + 4, "tick", std::to_string(q * 25) + " %");
  }
  for (int t = 0; t <= 4; ++t) {
    const double value = lo + (hi - lo) * t / 4.0;
    svg.text(kLeft + t / 4.0 * (kRight - kLeft) - 16, kBottom + 16, "tick", tick_text(value, time));
  }
  svg.line(kLeft, kBottom, kRight, kBottom, "axis");
  svg.line(kLeft, kTop, kLeft, kBottom, "axis");
  if (!a.empty())
    svg.path(cdf_path(a, lo, hi), "side-a", "A: " + std::to_string(a.size()) + " seeds");
  if (!b.empty())
    svg.path(cdf_path(b, lo, hi), "side-b", "B: " + std::to_string(b.size()) + " seeds");
  return svg.finish();
}

std::string value_of(const json& row, const json& side, const char* stat) {
  return html_escape(
      compare_format::figure_text(field(row, "figure").get<std::string>(), field(side, stat)));
}

std::string figure_row(const json& row) {
  const json& a = field(row, "a");
  const json& b = field(row, "b");
  const json& interval = field(row, "interval");
  const std::string figure = field(row, "figure").get<std::string>();
  const auto ci = [&figure](const json& i) {
    return i.is_array() ? html_escape(compare_format::figure_text(figure, i[0])) + " .. " +
                              html_escape(compare_format::figure_text(figure, i[1]))
                        : std::string("n/a");
  };
  const bool changed = field(row, "changed") == true;
  const std::string verdict = changed                             ? "yes"
                              : field(row, "significant") == true ? "no (too small to matter)"
                                                                  : "no";
  std::string name = "<code>" + html_escape(field(row, "figure").get<std::string>()) + "</code>";
  for (const auto& copy : field(row, "copies")) {
    name += " = <code>" + html_escape(copy.get<std::string>()) + "</code>";
  }
  return std::string(changed ? "<tr class=\"changed\">" : "<tr>") + "<td>" + name +
         "</td><td class=\"num\">" + value_of(row, a, "p50") + " / " + value_of(row, a, "p99") +
         "</td><td class=\"num\">" + value_of(row, b, "p50") + " / " + value_of(row, b, "p99") +
         "</td><td class=\"num\">" + ci(field(interval, "p50")) + "</td><td class=\"num\">" +
         ci(field(interval, "p99")) + "</td><td class=\"num\">" + text_of(field(a, "never")) +
         " / " + text_of(field(b, "never")) + "</td><td>" + verdict + "</td></tr>\n";
}

std::string figure_table(const json& rows) {
  std::string html =
      "<table>\n<tr><th>figure</th><th>A p50 / p99</th><th>B p50 / p99</th><th>p50 B&#8722;A "
      "interval</th><th>p99 B&#8722;A interval</th><th>never A / B</th><th>changed</th></tr>\n";
  for (const auto& row : rows) html += figure_row(row);
  return html + "</table>\n";
}

std::string sides(const json& comparison) {
  std::string html = "<ul>\n";
  const json& list = field(comparison, "sides");
  for (std::size_t i = 0; i < list.size() && i < 2; ++i) {
    html +=
        std::string("<li><span class=\"") + (i == 0 ? "key-a\">A (solid)" : "key-b\">B (dashed)") +
        "</span>: " + html_escape(field(list[i], "label").get<std::string>()) + ", <code>" +
        html_escape(field(list[i], "command").get<std::string>()) + " --seed N</code>, <a href=\"" +
        (i == 0 ? "a" : "b") + "/sweep.html\">its sweep</a></li>\n";
  }
  return html + "</ul>\n";
}

}  // namespace

std::string render_seed_comparison_html(const json& comparison) {
  const json& seeds = field(comparison, "seeds");
  const std::string name = field(field(comparison, "scenario"), "name").get<std::string>();
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>nssim "
      "compare: " +
      html_escape(name) + "</title>\n<style>\n" + kStyle + "\n</style>\n</head>\n<body>\n<h1>" +
      html_escape(name) + ": A against B over seeds " + text_of(field(seeds, "first")) + ".." +
      text_of(field(seeds, "last")) + "</h1>\n" + sides(comparison);
  // The answer first, then the charts, then the tables (issue 25: the first screen answers).
  html += "<h2>The answer</h2>\n<ul class=\"headline\">\n";
  for (const auto& entry : field(comparison, "headline")) {
    html += std::string("<li") + (field(entry, "changed") == true ? " class=\"changed\"" : "") +
            ">" + html_escape(format_headline(entry)) + "</li>\n";
  }
  html += "</ul>\n<p><strong>Method.</strong> " +
          html_escape(field(field(comparison, "method"), "text").get<std::string>()) + "</p>\n";
  for (const auto& note : field(comparison, "notes")) {
    html += "<p><strong>Note:</strong> " + html_escape(note.get<std::string>()) + "</p>\n";
  }
  html += "<h2>Distributions</h2>\n<div class=\"cdfs\">\n";
  std::size_t index = 0;
  for (const auto& cdf : field(comparison, "cdfs")) {
    html += "<figure><figcaption><code>" + html_escape(field(cdf, "figure").get<std::string>()) +
            "</code>: each seed's " + html_escape(field(cdf, "caption").get<std::string>()) +
            ", share of seeds at or below each value</figcaption>\n" + cdf_svg(cdf, index++) +
            "</figure>\n";
  }
  const json& changes = field(comparison, "changes");
  html += "</div>\n<h2>What changed</h2>\n";
  html += changes.empty() ? "<p>No change beyond seed noise and big enough to matter.</p>\n"
                          : figure_table(changes);
  html += "<h2>Every figure</h2>\n" + figure_table(field(comparison, "figures"));
  return html + "</body>\n</html>\n";
}

}  // namespace nssim::reports

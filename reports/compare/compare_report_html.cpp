// File: render_comparison_html (see compare_report.h). One self-contained page: the style is
// inline and nothing is loaded from elsewhere, so the file can be attached to a CI run as is.
#include <cctype>
#include <sstream>

#include "reports/compare/compare_report.h"
#include "reports/compare/compare_report_format.h"
#include "reports/html/html_escape.h"

namespace nssim::reports {

// Named, so that a unity build may put this file beside its sibling renderer.
namespace comparison_html {
namespace {

using compare_format::figure_difference_text;
using compare_format::figure_text;
using compare_format::kChangesListed;
using compare_format::relative_text;
using compare_format::value_text;
using html::html_escape;
using nlohmann::json;

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:2em;max-width:70em;color:#222}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.2em .6em;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums}
td.changed{background:#fff2a8;font-weight:bold}
code{font-size:90%}
.fail{color:#b00020;font-weight:bold}
.pass{color:#1b5e20}
.note{color:#8a4b00})";

std::string text_of(const json& value) { return html_escape(value_text(value)); }

std::string td(const std::string& escaped_text, bool number, bool changed) {
  std::string classes = number ? "num" : "";
  if (changed) classes += classes.empty() ? "changed" : " changed";
  return (classes.empty() ? "<td>" : "<td class=\"" + classes + "\">") + escaped_text + "</td>";
}

std::string overrides_text(const json& side) {
  std::string text;
  for (const auto& override_text : side["overrides"]) {
    text += (text.empty() ? "<code>" : ", <code>") + html_escape(override_text.get<std::string>()) +
            "</code>";
  }
  return text.empty() ? "as written" : text;
}

void write_sides(std::ostream& out, const json& comparison) {
  const json& a = comparison["sides"][0];
  const json& b = comparison["sides"][1];
  out << "<table class=\"sides\">\n<tr><th></th><th>A</th><th>B</th></tr>\n";
  out << "<tr><th>label</th>" << td(text_of(a["label"]), false, false)
      << td(text_of(b["label"]), false, false) << "</tr>\n";
  if (a.contains("overrides") || b.contains("overrides")) {
    out << "<tr><th>settings</th>" << td(overrides_text(a), false, false)
        << td(overrides_text(b), false, false) << "</tr>\n";
  }
  if (a.contains("report_html") && b.contains("report_html")) {
    out << "<tr><th>report</th>";
    for (const json* side : {&a, &b}) {
      const std::string link = html_escape((*side)["report_html"].get<std::string>());
      out << "<td><a href=\"" << link << "\">" << link << "</a></td>";
    }
    out << "</tr>\n";
  }
  out << "<tr><th>verdict</th>" << td(text_of(a["verdict"]), false, false)
      << td(text_of(b["verdict"]), false, a["verdict"] != b["verdict"]) << "</tr>\n";
  for (const auto& setting : comparison["settings"]) {
    out << "<tr><th>" << html_escape(setting["name"].get<std::string>()) << "</th>"
        << td(text_of(setting["a"]), false, false)
        << td(text_of(setting["b"]), false, setting["changed"].get<bool>()) << "</tr>\n";
  }
  out << "</table>\n";
}

// The answer first: each headline figure once (format_headline).
void write_headline(std::ostream& out, const json& headline) {
  out << "<h2>The answer</h2>\n<ul class=\"headline\">\n";
  if (headline.is_array()) {
    for (const auto& entry : headline) {
      out << "<li" << (entry["changed"] == true ? " class=\"changed\"" : "") << ">"
          << html_escape(format_headline(entry)) << "</li>\n";
    }
  }
  out << "</ul>\n";
}

void write_changes(std::ostream& out, const json& changes) {
  out << "<h2>What changed</h2>\n";
  if (changes.empty()) out << "<p>No figure differs.</p>\n";
  if (!changes.empty()) out << "<ol>\n";
  for (std::size_t i = 0; i < changes.size() && i < kChangesListed; ++i) {
    const std::string line = format_change(changes[i]);
    const std::size_t colon = line.find(": ");
    out << "<li><code>" << html_escape(line.substr(0, colon)) << "</code>"
        << html_escape(line.substr(colon)) << "</li>\n";
  }
  if (!changes.empty()) out << "</ol>\n";
  if (changes.size() > kChangesListed) {
    out << "<p>" << changes.size() - kChangesListed
        << " more changed figures are in the tables.</p>\n";
  }
}

void write_section(std::ostream& out, const json& section) {
  std::string title = section["title"].get<std::string>();
  title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
  out << "<h2>" << html_escape(title) << "</h2>\n<table>\n"
      << "<tr><th>figure</th><th>A</th><th>B</th><th>difference</th><th>relative</th></tr>\n";
  const std::size_t prefix = section["prefix"].get<std::string>().size();
  for (const auto& row : section["figures"]) {
    const bool changed = row["changed"].get<bool>();
    const std::string figure = row["figure"].get<std::string>();
    out << "<tr><td><code>" << html_escape(figure.substr(prefix)) << "</code></td>"
        << td(html_escape(figure_text(figure, row["a"])), true, false)
        << td(html_escape(figure_text(figure, row["b"])), true, changed)
        << td(changed ? html_escape(figure_difference_text(figure, row["difference"])) : "", true,
              changed)
        << td(changed ? html_escape(relative_text(row["relative"])) : "", true, changed)
        << "</tr>\n";
  }
  out << "</table>\n";
}

void write_expectations(std::ostream& out, const json& comparison) {
  out << "<h2>Expectations</h2>\n<p>Shown, not enforced: <code>nssim compare</code> judges "
         "nothing.</p>\n";
  const char* names[] = {"A", "B"};
  for (std::size_t i = 0; i < 2; ++i) {
    const json& side = comparison["sides"][i];
    out << "<h3>" << names[i] << ": " << text_of(side["label"]) << " (" << text_of(side["verdict"])
        << ")</h3>\n";
    if (side["expectations"].empty()) out << "<p>None.</p>\n";
    if (!side["expectations"].empty()) out << "<ul>\n";
    for (const auto& expectation : side["expectations"]) {
      const bool passed = expectation.value("passed", false);
      out << "<li><span class=\"" << (passed ? "pass\">pass" : "fail\">FAIL") << "</span> <code>"
          << html_escape(expectation.value("source", std::string()))
          << "</code>: " << html_escape(expectation.value("message", std::string())) << "</li>\n";
    }
    if (!side["expectations"].empty()) out << "</ul>\n";
  }
}

}  // namespace
}  // namespace comparison_html

std::string render_comparison_html(const nlohmann::json& comparison) {
  using namespace comparison_html;
  std::ostringstream out;
  const json& scenario = comparison["scenario"];
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      << "<title>nssim compare: " << text_of(scenario["name"]) << "</title>\n<style>\n"
      << kStyle << "\n</style>\n</head>\n<body>\n";
  out << "<h1>nssim compare: " << text_of(scenario["name"]) << "</h1>\n";
  out << "<p>Scenario <code>" << text_of(scenario["file"]) << "</code>, seed "
      << text_of(scenario["seed"]) << ", "
      << html_escape(duration_text(scenario["duration_ms"], "?"))
      << ", run under two settings. A difference is B - A; relative is that difference over "
         "|A|. Changed cells are highlighted.</p>\n";
  write_headline(out, comparison["headline"]);
  write_sides(out, comparison);
  for (const auto& note : comparison["notes"]) {
    out << "<p class=\"note\">Note: " << html_escape(note.get<std::string>()) << "</p>\n";
  }
  write_changes(out, comparison["changes"]);
  for (const auto& section : comparison["sections"]) write_section(out, section);
  write_expectations(out, comparison);
  out << "</body>\n</html>\n";
  return out.str();
}

}  // namespace nssim::reports

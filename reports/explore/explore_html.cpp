// File: explore.html (see explore_html.h).
#include "reports/explore/explore_html.h"

#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"

namespace nssim::reports {

namespace {

using Json = nlohmann::ordered_json;
using html::html_escape;

// A value as a cell shows it: texts escaped, numbers as JSON writes them, null as a dash.
std::string cell(const Json& value) {
  if (value.is_string()) return html_escape(value.get<std::string>());
  if (value.is_null()) return "&mdash;";
  return html_escape(value.dump());
}

const Json& member(const Json& object, const char* name) {
  static const Json none;
  if (!object.is_object()) return none;
  const auto found = object.find(name);
  return found == object.end() ? none : *found;
}

std::string command_cell(const Json& command) {
  return command.is_string() ? "<code>" + html_escape(command.get<std::string>()) + "</code>"
                             : "&mdash;";
}

std::string render_properties(const Json& explore) {
  std::string html =
      "<table>\n<thead><tr><th>property</th><th>broken runs</th><th>first broken run</th>"
      "<th>nearest run</th><th>line</th><th>measured</th><th>bound</th><th>margin</th>"
      "<th>repeat</th></tr></thead>\n<tbody>\n";
  for (const Json& property : member(explore, "properties")) {
    const Json& near = member(property, "nearest");
    html += "<tr><td>" + cell(member(property, "name")) + "</td><td>" +
            cell(member(property, "broken_runs")) + "</td><td>" +
            cell(member(property, "first_broken_run")) + "</td><td>" + cell(member(near, "run")) +
            "</td><td><code>" + cell(member(near, "line")) + "</code></td><td>" +
            cell(member(near, "measured")) + "</td><td>" + cell(member(near, "bound")) +
            "</td><td>" +
            (member(near, "margin").is_number()
                 ? html::format_fixed(member(near, "margin").get<double>(), 3)
                 : std::string("&mdash;")) +
            "</td><td>" + command_cell(member(near, "command")) + "</td></tr>\n";
  }
  return html + "</tbody>\n</table>\n";
}

std::string render_counterexamples(const Json& explore) {
  const Json& found = member(explore, "counterexamples");
  if (!found.is_array() || found.empty()) return "<p class=\"note\">No property broke.</p>\n";
  std::string html =
      "<table>\n<thead><tr><th>property</th><th>run</th><th>faults drawn</th><th>after "
      "shrinking</th><th>shrink runs</th><th>repeat</th></tr></thead>\n<tbody>\n";
  for (const Json& c : found) {
    const Json& shrink = member(c, "shrink");
    html += "<tr><td>" + cell(member(c, "property")) + "</td><td>" + cell(member(c, "run")) +
            "</td><td>" + std::to_string(member(c, "original_faults").size()) + "</td><td>" +
            std::to_string(member(c, "faults").size()) + "</td><td>" +
            cell(member(shrink, "runs")) + "</td><td>" + command_cell(member(c, "command")) +
            "</td></tr>\n";
  }
  return html + "</tbody>\n</table>\n";
}

// One table per coverage group: a row per name, a column for all runs and one per fault kind.
std::string render_coverage(const Json& coverage) {
  const Json& all = member(coverage, "all");
  const Json& by_kind = member(coverage, "by_kind");
  std::string html;
  const Json& unreached = member(coverage, "removal_paths_unreached");
  if (unreached.is_array() && !unreached.empty()) {
    std::string names;
    for (const Json& path : unreached) names += (names.empty() ? "" : ", ") + cell(path);
    html += "<p class=\"note\">Removal paths no run reached: " + names + ".</p>\n";
  }
  for (const char* group : {"removal_paths", "send_failures", "route_health_causes"}) {
    html += "<h3>" + html_escape(group) + "</h3>\n";
    const Json& names = member(all, group);
    if (!names.is_object() || names.empty()) {
      html += "<p class=\"note\">No run reached one.</p>\n";
      continue;
    }
    html += "<table>\n<thead><tr><th>name</th><th>runs (of " + cell(member(coverage, "runs")) +
            ")</th>";
    for (const auto& [kind, tally] : by_kind.items()) {
      html += "<th>" + html_escape(kind) + " (of " + cell(member(tally, "runs")) + ")</th>";
    }
    html += "</tr></thead>\n<tbody>\n";
    for (const auto& [name, count] : names.items()) {
      html += "<tr><td>" + html_escape(name) + "</td><td>" + cell(count) + "</td>";
      for (const auto& [kind, tally] : by_kind.items()) {
        const Json& kind_count = member(member(tally, group), name.c_str());
        html += "<td>" + (kind_count.is_null() ? std::string("0") : cell(kind_count)) + "</td>";
      }
      html += "</tr>\n";
    }
    html += "</tbody>\n</table>\n";
  }
  return html;
}

}  // namespace

std::string render_explore_html(const Json& explore) {
  const Json& scenario = member(explore, "scenario");
  const std::string name = member(scenario, "name").is_string()
                               ? member(scenario, "name").get<std::string>()
                               : std::string("explore");
  std::string page =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<title>nssim explore: " +
      html_escape(name) + "</title>\n<style>\n" + html::html_style_sheet() +
      "</style>\n</head>\n<body>\n<main>\n<h1>nssim explore: " + html_escape(name) + "</h1>\n" +
      "<p>" + cell(member(explore, "runs")) + " runs of <code>" + cell(member(scenario, "file")) +
      "</code>, profile " + cell(member(scenario, "profile")) + ", seed " +
      cell(member(scenario, "seed")) +
      (member(explore, "for").is_string() ? ", for " + cell(member(explore, "for"))
                                          : std::string()) +
      ".</p>\n";
  page += "<section id=\"properties\"><h2>Properties</h2>\n" + render_properties(explore) +
          "</section>\n";
  page += "<section id=\"counterexamples\"><h2>Counterexamples</h2>\n" +
          render_counterexamples(explore) + "</section>\n";
  page += "<section id=\"coverage\"><h2>Coverage</h2>\n" +
          render_coverage(member(explore, "coverage")) + "</section>\n";
  page += "<footer>Written by nssim from a " + cell(member(explore, "schema")) +
          " document (reports/README.md#explore-nssim-explore-schema-nssimexplore1).</footer>\n"
          "</main>\n</body>\n</html>\n";
  return page;
}

}  // namespace nssim::reports

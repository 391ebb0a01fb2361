// File: render_seed_comparison_markdown and format_seed_change (see
// compare_seeds.h): the answer first, then the method, then only what changed beyond seed noise
// and enough to matter, then every figure folded away.
#include "reports/compare/compare_report.h"
#include "reports/compare/compare_report_format.h"
#include "reports/compare/compare_seeds.h"
#include "reports/markdown/markdown_format.h"

namespace nssim::reports {

namespace {

using compare_format::figure_text;
using compare_format::value_text;
using markdown::string_text;
using markdown::table;

std::string interval_text(const std::string& figure, const nlohmann::json& interval) {
  if (!interval.is_array()) return "n/a";
  return figure_text(figure, interval[0]) + " .. " + figure_text(figure, interval[1]);
}

std::string move_text(const nlohmann::json& row, const char* stat) {
  const std::string figure = string_text(field(row, "figure"));
  const auto& a = field(row, "a");
  const auto& b = field(row, "b");
  return std::string(stat) + " " + figure_text(figure, field(a, stat)) + " -> " +
         figure_text(figure, field(b, stat)) + " (CI " +
         interval_text(figure, field(field(row, "interval"), stat)) + ")";
}

// "yes", or why not: beyond seed noise but too small to matter, or within the noise.
std::string changed_text(const nlohmann::json& row) {
  if (field(row, "changed") == true) return "**yes**";
  if (field(row, "significant") == true) return "no (too small to matter)";
  return "no";
}

std::vector<std::string> figure_cells(const nlohmann::json& row) {
  const std::string figure = string_text(field(row, "figure"));
  const auto& a = field(row, "a");
  const auto& b = field(row, "b");
  const auto& interval = field(row, "interval");
  std::string name = "`" + figure + "`";
  for (const auto& copy : field(row, "copies")) name += " = `" + string_text(copy) + "`";
  return {name,
          figure_text(figure, field(a, "p50")) + " / " + figure_text(figure, field(a, "p99")),
          figure_text(figure, field(b, "p50")) + " / " + figure_text(figure, field(b, "p99")),
          interval_text(figure, field(interval, "p50")),
          interval_text(figure, field(interval, "p99")),
          value_text(field(a, "never")) + " / " + value_text(field(b, "never")),
          changed_text(row)};
}

const std::vector<std::string> kHeader = {"figure",     "A p50 / p99", "B p50 / p99", "p50 B-A CI",
                                          "p99 B-A CI", "never A / B", "changed"};

}  // namespace

std::string format_seed_change(const nlohmann::json& row) {
  return string_text(field(row, "figure")) + ": " + move_text(row, "p50") + ", " +
         move_text(row, "p99");
}

std::string render_seed_comparison_markdown(const nlohmann::json& comparison) {
  const auto& sides = field(comparison, "sides");
  const auto& seeds = field(comparison, "seeds");
  std::string text = "# " + string_text(field(field(comparison, "scenario"), "name")) +
                     ": A against B over seeds " + value_text(field(seeds, "first")) + ".." +
                     value_text(field(seeds, "last")) + "\n\n";
  for (std::size_t i = 0; i < 2 && i < sides.size(); ++i) {
    text += std::string(i == 0 ? "- **A**: " : "- **B**: ") +
            string_text(field(sides[i], "label")) + " (`" +
            string_text(field(sides[i], "command")) + " --seed N`)\n";
  }
  text += "\n## The answer\n\n";
  const auto& headline = field(comparison, "headline");
  if (!headline.is_array() || headline.empty()) text += "No headline figure in these runs.\n";
  for (const auto& entry : headline) text += "- " + format_headline(entry) + "\n";
  text += "\n**Method**: " + string_text(field(field(comparison, "method"), "text")) + "\n\n";
  for (const auto& note : field(comparison, "notes")) text += "> " + string_text(note) + "\n\n";
  const auto& changes = field(comparison, "changes");
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : changes) rows.push_back(figure_cells(row));
  text += "## What changed\n\n";
  text += rows.empty() ? "No change beyond seed noise and big enough to matter.\n\n"
                       : table(kHeader, rows);
  rows.clear();
  for (const auto& row : field(comparison, "figures")) rows.push_back(figure_cells(row));
  text += "<details><summary>Every figure (" + std::to_string(rows.size()) + ")</summary>\n\n" +
          table(kHeader, rows) + "</details>\n";
  return text;
}

}  // namespace nssim::reports

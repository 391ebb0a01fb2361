// File: render_seed_comparison_markdown and format_seed_change (see compare_seeds.h): the method
// first, then only what changed beyond seed noise, then every figure folded away.
#include "reports/compare/compare_report_format.h"
#include "reports/compare/compare_seeds.h"
#include "reports/markdown/markdown_format.h"

namespace nssim::reports {

namespace {

using compare_format::value_text;
using markdown::string_text;
using markdown::table;

std::string interval_text(const nlohmann::json& interval) {
  if (!interval.is_array()) return "n/a";
  return value_text(interval[0]) + " .. " + value_text(interval[1]);
}

std::string move_text(const nlohmann::json& row, const char* stat) {
  const auto& a = field(row, "a");
  const auto& b = field(row, "b");
  return std::string(stat) + " " + value_text(field(a, stat)) + " -> " +
         value_text(field(b, stat)) + " (CI " + interval_text(field(field(row, "interval"), stat)) +
         ")";
}

std::vector<std::string> figure_cells(const nlohmann::json& row) {
  const auto& a = field(row, "a");
  const auto& b = field(row, "b");
  const auto& interval = field(row, "interval");
  return {"`" + string_text(field(row, "figure")) + "`",
          value_text(field(a, "p50")) + " / " + value_text(field(a, "p99")),
          value_text(field(b, "p50")) + " / " + value_text(field(b, "p99")),
          interval_text(field(interval, "p50")),
          interval_text(field(interval, "p99")),
          value_text(field(a, "never")) + " / " + value_text(field(b, "never")),
          field(row, "significant") == true ? "**yes**" : "no"};
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
  text += "\n**Method**: " + string_text(field(field(comparison, "method"), "text")) + "\n\n";
  for (const auto& note : field(comparison, "notes")) text += "> " + string_text(note) + "\n\n";
  const auto& changes = field(comparison, "changes");
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : changes) rows.push_back(figure_cells(row));
  text += "## What changed\n\n";
  text += rows.empty() ? "No significant change: every difference is within seed noise.\n\n"
                       : table(kHeader, rows);
  rows.clear();
  for (const auto& row : field(comparison, "figures")) rows.push_back(figure_cells(row));
  text += "<details><summary>Every figure (" + std::to_string(rows.size()) + ")</summary>\n\n" +
          table(kHeader, rows) + "</details>\n";
  return text;
}

}  // namespace nssim::reports

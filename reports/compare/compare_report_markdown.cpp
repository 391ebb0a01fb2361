// File: render_comparison_markdown (see compare_report.h). Changed cells are bold; unchanged rows
// leave their difference cells empty so that the eye lands on what moved.
#include <cctype>
#include <sstream>

#include "reports/compare/compare_report.h"
#include "reports/compare/compare_report_format.h"

namespace nssim::reports {

// Named, so that a unity build may put this file beside its sibling renderer.
namespace comparison_markdown {
namespace {

using compare_format::figure_difference_text;
using compare_format::figure_text;
using compare_format::kChangesListed;
using compare_format::relative_text;
using compare_format::value_text;
using nlohmann::json;

std::string cell(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '|') {
      escaped += "\\|";
    } else if (c == '\n') {
      escaped += ' ';
    } else {
      escaped += c;
    }
  }
  return escaped;
}

std::string bold_if(bool changed, const std::string& text) {
  return changed && !text.empty() ? "**" + text + "**" : text;
}

std::string overrides_text(const json& side) {
  if (!side.contains("overrides")) return "";
  std::string text;
  for (const auto& override_text : side["overrides"]) {
    text += (text.empty() ? "`" : ", `") + override_text.get<std::string>() + "`";
  }
  return text.empty() ? "as written" : text;
}

void write_sides(std::ostream& out, const json& comparison) {
  const json& a = comparison["sides"][0];
  const json& b = comparison["sides"][1];
  out << "| | A | B |\n|---|---|---|\n";
  out << "| label | " << cell(a["label"].get<std::string>()) << " | "
      << cell(b["label"].get<std::string>()) << " |\n";
  if (a.contains("overrides") || b.contains("overrides")) {
    out << "| settings | " << cell(overrides_text(a)) << " | " << cell(overrides_text(b)) << " |\n";
  }
  if (a.contains("report_html") && b.contains("report_html")) {
    const std::string link_a = a["report_html"].get<std::string>();
    const std::string link_b = b["report_html"].get<std::string>();
    out << "| report | [" << link_a << "](" << link_a << ") | [" << link_b << "](" << link_b
        << ") |\n";
  }
  out << "| verdict | " << value_text(a["verdict"]) << " | "
      << bold_if(a["verdict"] != b["verdict"], value_text(b["verdict"])) << " |\n";
  for (const auto& setting : comparison["settings"]) {
    const bool changed = setting["changed"].get<bool>();
    out << "| " << cell(setting["name"].get<std::string>()) << " | "
        << cell(value_text(setting["a"])) << " | "
        << bold_if(changed, cell(value_text(setting["b"]))) << " |\n";
  }
}

// The answer first: each headline figure once (format_headline).
void write_headline(std::ostream& out, const json& headline) {
  out << "\n## The answer\n\n";
  if (!headline.is_array() || headline.empty()) out << "No headline figure in these runs.\n";
  if (!headline.is_array()) return;
  for (const auto& entry : headline) out << "- " << format_headline(entry) << "\n";
}

void write_changes(std::ostream& out, const json& changes) {
  out << "\n## What changed\n\n";
  if (changes.empty()) out << "No figure differs.\n";
  for (std::size_t i = 0; i < changes.size() && i < kChangesListed; ++i) {
    const std::string line = format_change(changes[i]);
    const std::size_t colon = line.find(": ");
    out << i + 1 << ". `" << line.substr(0, colon) << "`" << line.substr(colon) << "\n";
  }
  if (changes.size() > kChangesListed) {
    out << "\n" << changes.size() - kChangesListed << " more changed figures are in the tables.\n";
  }
}

void write_section(std::ostream& out, const json& section) {
  std::string title = section["title"].get<std::string>();
  // "Whole run", but "outages[0]: ..." as the figures spell it.
  if (title.rfind("outages[", 0) != 0) {
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
  }
  out << "\n## " << cell(title) << "\n\n";
  out << "| figure | A | B | difference | relative |\n|---|--:|--:|--:|--:|\n";
  const std::size_t prefix = section["prefix"].get<std::string>().size();
  for (const auto& row : section["figures"]) {
    const bool changed = row["changed"].get<bool>();
    const std::string figure = row["figure"].get<std::string>();
    out << "| `" << figure.substr(prefix) << "` | " << figure_text(figure, row["a"]) << " | "
        << bold_if(changed, figure_text(figure, row["b"])) << " | "
        << (changed ? bold_if(true, figure_difference_text(figure, row["difference"])) : "")
        << " | " << (changed ? bold_if(true, relative_text(row["relative"])) : "") << " |\n";
  }
}

void write_expectations(std::ostream& out, const json& comparison) {
  out << "\n## Expectations\n\nShown, not enforced: `nssim compare` judges nothing.\n";
  const char* names[] = {"A", "B"};
  for (std::size_t i = 0; i < 2; ++i) {
    const json& side = comparison["sides"][i];
    out << "\n### " << names[i] << ": " << side["label"].get<std::string>() << " ("
        << value_text(side["verdict"]) << ")\n\n";
    if (side["expectations"].empty()) out << "None.\n";
    for (const auto& expectation : side["expectations"]) {
      out << "- " << (expectation.value("passed", false) ? "pass" : "**FAIL**") << " `"
          << expectation.value("source", std::string())
          << "`: " << expectation.value("message", std::string()) << "\n";
    }
  }
}

}  // namespace
}  // namespace comparison_markdown

std::string render_comparison_markdown(const nlohmann::json& comparison) {
  using namespace comparison_markdown;
  std::ostringstream out;
  const json& scenario = comparison["scenario"];
  out << "# nssim compare: " << value_text(scenario["name"]) << "\n\n";
  out << "Scenario `" << value_text(scenario["file"]) << "`, seed " << value_text(scenario["seed"])
      << ", " << duration_text(scenario["duration_ms"], "?")
      << ", run under two settings.\nA difference is B - A; relative is that difference over "
         "|A|.\n\n";
  write_headline(out, comparison["headline"]);
  out << "\n";
  write_sides(out, comparison);
  if (!comparison["notes"].empty()) {
    out << "\nNotes:\n\n";
    for (const auto& note : comparison["notes"]) out << "- " << note.get<std::string>() << "\n";
  }
  write_changes(out, comparison["changes"]);
  for (const auto& section : comparison["sections"]) write_section(out, section);
  write_expectations(out, comparison);
  return out.str();
}

}  // namespace nssim::reports

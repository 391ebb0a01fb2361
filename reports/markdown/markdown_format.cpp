// File: Markdown formatting helpers (see markdown_format.h).
#include "reports/markdown/markdown_format.h"

namespace nssim::reports::markdown {

std::string number_text(const nlohmann::json& value) {
  return value.is_number() ? value.dump() : "n/a";
}

double number_or_zero(const nlohmann::json& value) {
  return value.is_number() ? value.get<double>() : 0.0;
}

std::string verdict_text(const std::string& verdict) {
  if (verdict == "pass") return "PASS";
  if (verdict == "fail") return "FAIL";
  return "no expectations";
}

std::string string_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.is_null() ? "" : value.dump();
}

std::string range_text(const nlohmann::json& bounds) {
  const auto& min = field(bounds, "min_ms");
  const auto& max = field(bounds, "max_ms");
  if (!min.is_number() || !max.is_number()) return "n/a";
  return duration_text(min, "never") + " .. " + duration_text(max, "never");
}

std::string failed_causes_text(const nlohmann::json& failed) {
  std::string text;
  for (const auto& [cause, count] : failed.items()) {
    if (cause == "total" || number_or_zero(count) == 0) continue;
    text += (text.empty() ? "" : ", ") + cause + " " + number_text(count);
  }
  return text;
}

std::string escape_cell(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '|') {
      escaped += "\\|";
    } else if (c == '\n' || c == '\r') {
      escaped += ' ';
    } else {
      escaped += c;
    }
  }
  return escaped;
}

namespace {

std::string row(const std::vector<std::string>& cells) {
  std::string line = "|";
  for (const auto& cell : cells) line += " " + escape_cell(cell) + " |";
  return line + "\n";
}

}  // namespace

std::string table(const std::vector<std::string>& header,
                  const std::vector<std::vector<std::string>>& rows) {
  std::string text = row(header) + "|";
  for (std::size_t i = 0; i < header.size(); ++i) text += " --- |";
  text += "\n";
  for (const auto& cells : rows) text += row(cells);
  return text + "\n";
}

}  // namespace nssim::reports::markdown

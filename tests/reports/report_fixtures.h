// File: reading the hand-made report fixtures under tests/reports/fixtures/ (and the golden
// files rendered from them) from the source tree that ctest names in NSSIM_SOURCE_DIR.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

namespace nssim::reports::testing {

inline std::string fixture_text(const std::string& name) {
  const char* source = std::getenv("NSSIM_SOURCE_DIR");
  const auto path =
      std::filesystem::path(source != nullptr ? source : ".") / "tests/reports/fixtures" / name;
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline nlohmann::json fixture_json(const std::string& name) {
  return nlohmann::json::parse(fixture_text(name));
}

// Whether `text` holds `part`.
inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// How often `needle` occurs in `text` (overlapping occurrences count).
inline std::size_t count(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The <svg id="..."> element of a page, from its id to its </svg>; empty when absent.
inline std::string svg_by_id(const std::string& html, const std::string& id) {
  const auto start = html.find("id=\"" + id + "\"");
  if (start == std::string::npos) return {};
  return html.substr(start, html.find("</svg>", start) - start);
}

}  // namespace nssim::reports::testing

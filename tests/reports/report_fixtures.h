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

}  // namespace nssim::reports::testing

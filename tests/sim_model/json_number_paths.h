// Test-only: every number of a result.json section with its path ("section.a[0].b"), so that a
// test can hold each against the figure catalogue (sim/analysis/result_figures.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nssim::sim::testing {

inline void number_paths(const nlohmann::json& node, const std::string& path,
                         std::vector<std::string>& out) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) number_paths(value, path + "." + key, out);
  } else if (node.is_array()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      number_paths(node[i], path + "[" + std::to_string(i) + "]", out);
    }
  } else if (node.is_number()) {
    out.push_back(path);
  }
}

}  // namespace nssim::sim::testing

// Helpers for the scenario error tests: a small valid document and the one-line error that a
// variant of it produces.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "sim/scenario/scenario_loader.h"

namespace nssim::sim::scenario_testing {

using nlohmann::json;

inline json minimal() {
  return json::parse(R"({
    "name": "t", "duration_ms": 600000,
    "broker_groups": [{"name": "broker-a", "slaves": 1}, {"name": "broker-b"}],
    "topics": [{"name": "TopicTest"}],
    "producers": [{"name_prefix": "app", "count": 2}]
  })");
}

inline std::string error_of_text(const std::string& text, const LoadOptions& options = {}) {
  try {
    parse_scenario(text, "x.json", options);
  } catch (const ScenarioError& error) {
    return error.what();
  }
  return "(loaded)";
}

inline std::string error_of(const json& document, const LoadOptions& options = {}) {
  return error_of_text(document.dump(), options);
}

inline std::string error_with(const char* key, const char* value_json) {
  json doc = minimal();
  doc[key] = json::parse(value_json);
  return error_of(doc);
}

inline std::string fault_error(const char* faults_json) {
  return error_with("faults", faults_json);
}

}  // namespace nssim::sim::scenario_testing

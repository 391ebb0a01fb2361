// File: scenario JSON (scenarios/README.md, scenarios/schema.json) to Scenario, with command-line
// overrides. Every bad input, from a syntax error to a fault naming a node that does not exist,
// becomes one ScenarioError line: "<file>: <json path>: <what was expected>".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nameserver_core/profile.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_error.h"

namespace nssim::sim {

// What the command line changes. `set` entries are "PATH=VALUE" (--set), applied to the JSON
// document in order before anything is validated: PATH is a field path as error messages print it
// ("producers[0].config.sendLatencyFaultEnable", "nameservers.count"; array indices are positions
// in the file); VALUE is taken as JSON when it parses as JSON, else as a string. Missing object
// fields along the path are created; array elements must exist. `profile` replaces the file's
// "profile" before any default is chosen; `seed` replaces its "seed".
struct LoadOptions {
  std::optional<core::Profile> profile;
  std::optional<std::uint64_t> seed;
  std::vector<std::string> set;
};

// Reads and parses `path`; messages name the file as `path` is spelt.
Scenario load_scenario_file(const std::string& path, const LoadOptions& options);

// Parses JSON text; `file_label` is what messages and Scenario::file say the input is called.
Scenario parse_scenario(const std::string& json_text, const std::string& file_label,
                        const LoadOptions& options);

// The "config" keys accepted for broker groups, producers and consumers under `profile` (upstream
// names, sorted). 5.x-only keys are missing from the 4.9 lists. The schema test holds schema.json
// to these.
std::vector<std::string> broker_config_field_names(core::Profile profile);
std::vector<std::string> producer_config_field_names(core::Profile profile);
std::vector<std::string> consumer_config_field_names(core::Profile profile);

}  // namespace nssim::sim

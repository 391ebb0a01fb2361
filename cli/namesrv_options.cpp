// File: parse_namesrv_options, strict parsing of --profile and --config.
#include "cli/namesrv_options.h"

#include "cli/refusal.h"

namespace nssim::cli {

namespace {

// --config NAME=VALUE sets an upstream NamesrvConfig field, strictly parsed.
void apply_config(core::NamesrvConfig& config, core::Profile profile,
                  const std::string& assignment) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0) {
    throw Refusal{"--config: expected NAME=VALUE, got '" + assignment + "'"};
  }
  if (auto error = core::set_namesrv_config_field(config, profile, assignment.substr(0, equals),
                                                  assignment.substr(equals + 1),
                                                  core::ConfigParse::kStrict)) {
    throw Refusal{"--config: " + *error};
  }
}

}  // namespace

NamesrvOptions parse_namesrv_options(const std::string& profile,
                                     const std::vector<std::string>& config) {
  NamesrvOptions options;
  const auto parsed = core::parse_profile(profile);
  if (!parsed) throw Refusal{"--profile: expected 4.9 or 5.x, got '" + profile + "'"};
  options.profile = *parsed;
  for (const auto& assignment : config) apply_config(options.config, options.profile, assignment);
  if (const auto error = core::namesrv_startup_error(options.config)) {
    throw Refusal{"--config: " + error->first + ": " + error->second};
  }
  return options;
}

}  // namespace nssim::cli

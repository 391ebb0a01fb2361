// File: --profile and --config NAME=VALUE as `nssim replay` and `nssim serve` read them: the
// upstream behaviour and a NamesrvConfig set field by field, checked as NamesrvStartup would.
#pragma once

#include <string>
#include <vector>

#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"

namespace nssim::cli {

struct NamesrvOptions {
  core::Profile profile = core::Profile::kV5;
  core::NamesrvConfig config;
};

// The options; a Refusal naming the flag and what was expected when they are bad.
NamesrvOptions parse_namesrv_options(const std::string& profile,
                                     const std::vector<std::string>& config);

}  // namespace nssim::cli

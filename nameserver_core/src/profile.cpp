// File: profile names and default request versions.
#include "nameserver_core/profile.h"

namespace nssim::core {

const char* profile_name(Profile profile) { return profile == Profile::kV4_9 ? "4.9" : "5.x"; }

std::optional<Profile> parse_profile(const std::string& text) {
  if (text == "4.9") return Profile::kV4_9;
  if (text == "5.x") return Profile::kV5;
  return std::nullopt;
}

int default_request_version(Profile profile) {
  return profile == Profile::kV4_9 ? kVersionV4_9_8 : kVersionV5_3_3;
}

}  // namespace nssim::core

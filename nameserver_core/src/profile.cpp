// File: profile names, default request versions and DataVersion equality per profile.
#include "nameserver_core/profile.h"

#include "nameserver_core/route_types.h"

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

bool data_version_equals(const DataVersion& a, const DataVersion& b, Profile profile) {
  if (profile == Profile::kV5 && a.state_version != b.state_version) return false;
  return a.timestamp == b.timestamp && a.counter == b.counter;
}

}  // namespace nssim::core

// File: the two upstream behaviours the core reproduces. Every rule that differs between
// rocketmq-all-4.9.8 and rocketmq-all-5.3.3 branches on this value.
#pragma once

#include <optional>
#include <string>

namespace nssim::core {

enum class Profile { kV4_9, kV5 };

// "4.9" or "5.x", as written in scenario files and on the command line.
const char* profile_name(Profile profile);
std::optional<Profile> parse_profile(const std::string& text);

// MQVersion.Version ordinals that change request handling (MQVersion.java of each tag).
inline constexpr int kVersionV3_0_11 = 37;
inline constexpr int kVersionV4_9_4 = 401;
inline constexpr int kVersionV4_9_8 = 409;
inline constexpr int kVersionV5_3_3 = 479;
// Where nssim's profiles begin, for a server's version read off its answers (`nssim import`).
inline constexpr int kVersionV4_9_0 = 393;
inline constexpr int kVersionV5_0_0 = 413;

// The version a request carries when a replay line gives none: the newest release of the profile.
int default_request_version(Profile profile);

}  // namespace nssim::core

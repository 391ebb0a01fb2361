// File: pretty JSON text, byte for byte what nlohmann's dump(2) writes, for objects that share
// top-level members: result.json and report.json (build_report) share all but "schema", about
// 150 KB each for bench/scenarios/small.json, so each shared member is written once.
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports {

// Key -> the text of its value as it stands one level deep in `object.dump(2)`.
using MemberTexts = std::map<std::string, std::string>;

MemberTexts member_texts(const nlohmann::json& object);

// `object.dump(2)`, taking the text of each top-level member found in `shared` from there (the
// caller vouches that the values are the same) and writing the others; `object` must be an
// object.
std::string object_text(const nlohmann::json& object, const MemberTexts& shared);

}  // namespace nssim::reports

// File: reading optional members of the report document. Renderers read through `field` so a
// member a document lacks (an older result, a section not produced) reads as null instead of
// throwing.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports {

// The member `key` of `object`, or null when `object` is not an object or lacks it.
const nlohmann::json& field(const nlohmann::json& object, const std::string& key);

}  // namespace nssim::reports

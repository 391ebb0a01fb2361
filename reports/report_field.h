// File: reading optional members of the report document. Renderers read through `field` so a
// member a document lacks (an older result, a section not produced) reads as null instead of
// throwing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace nssim::reports {

// The member `key` of `object`, or null when `object` is not an object or lacks it.
const nlohmann::json& field(const nlohmann::json& object, std::string_view key);
// The member as a string, "" when missing or not a string.
std::string field_string(const nlohmann::json& object, std::string_view key);
// The member as an integer (a finite float rounded), nullopt when missing or not a number.
std::optional<std::int64_t> field_int(const nlohmann::json& object, std::string_view key);

// "outages[2].", the prefix of outage `index`'s figures in result.json, sweep.json and compare.
std::string outage_prefix(std::size_t index);

// A rate of requests per second as every report writes it, two decimals: 0.1 -> "0.10/s";
// "n/a" for null or anything not a number.
std::string rate_text(const nlohmann::json& per_s);

// A value as plain text (JUnit's attributes and messages): a string as it is, null as "n/a",
// anything else as JSON text.
std::string plain_text(const nlohmann::json& value);

}  // namespace nssim::reports

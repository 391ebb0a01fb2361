// File: a custom-header (extFields) value as the text it travels as. Private to the codec: the
// replay line reader and the wire frame reader both bind extFields as fastjson binds
// HashMap<String, String>.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace nssim::codec::detail {

// Strings as they are; booleans and integers as Java's toString writes them ("true", "7");
// nullopt for anything else (null, fractions, arrays, objects), which each reader treats its way.
inline std::optional<std::string> header_value_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_unsigned()) return std::to_string(value.get<std::uint64_t>());
  if (value.is_number_integer()) return std::to_string(value.get<std::int64_t>());
  return std::nullopt;
}

}  // namespace nssim::codec::detail

// File: how the codec writes a JSON value as text: compact, UTF-8 as it is, and an invalid byte
// replaced instead of throwing (a body or remark may carry any bytes). Private to the codec.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nssim::codec::detail {

inline std::string compact_json(const nlohmann::json& value) {
  return value.dump(-1, ' ', /*ensure_ascii=*/false, nlohmann::json::error_handler_t::replace);
}

}  // namespace nssim::codec::detail

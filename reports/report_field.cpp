// File: field (see report_field.h).
#include "reports/report_field.h"

#include <charconv>
#include <cmath>

namespace nssim::reports {

const nlohmann::json& field(const nlohmann::json& object, std::string_view key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  const auto found = object.find(key);
  return found == object.end() ? kNull : *found;
}

std::string field_string(const nlohmann::json& object, std::string_view key) {
  const auto& value = field(object, key);
  return value.is_string() ? value.get<std::string>() : std::string();
}

std::optional<std::int64_t> field_int(const nlohmann::json& object, std::string_view key) {
  const auto& value = field(object, key);
  if (value.is_number_integer()) return value.get<std::int64_t>();
  if (value.is_number_float() && std::isfinite(value.get<double>())) {
    return static_cast<std::int64_t>(std::llround(value.get<double>()));
  }
  return std::nullopt;
}

std::string rate_text(const nlohmann::json& per_s) {
  if (!per_s.is_number()) return "n/a";
  char digits[32];
  const auto end = std::to_chars(digits, digits + sizeof digits, per_s.get<double>(),
                                 std::chars_format::fixed, 2);
  return std::string(digits, end.ptr) + "/s";
}

std::string outage_prefix(std::size_t index) { return "outages[" + std::to_string(index) + "]."; }

std::string plain_text(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  return value.is_null() ? "n/a" : value.dump();
}

}  // namespace nssim::reports

// File: the shared flag validators (see flag_checks.h).
#include "cli/flag_checks.h"

#include <charconv>

namespace nssim::cli {

std::optional<std::uint64_t> parse_decimal_u64(const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, error] = std::from_chars(text.data(), end, value);
  if (text.empty() || error != std::errc() || ptr != end) return std::nullopt;
  return value;
}

const CLI::Validator& seed_text() {
  static const CLI::Validator validator(
      [](const std::string& text) -> std::string {
        if (parse_decimal_u64(text)) return "";
        return "expected a decimal whole number in 0..18446744073709551615, got '" + text + "'";
      },
      "SEED");
  return validator;
}

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  return CLI::Validator(
      [min, max](const std::string& text) -> std::string {
        const auto value = parse_decimal_u64(text);
        if (value && *value >= min && *value <= max) return "";
        return "expected a decimal whole number in " + std::to_string(min) + ".." +
               std::to_string(max) + ", got '" + text + "'";
      },
      "N");
}

const CLI::Validator& non_empty_text() {
  static const CLI::Validator validator(
      [](const std::string& text) -> std::string {
        return text.empty() ? "expected a non-empty value, got ''" : "";
      },
      "");
  return validator;
}

}  // namespace nssim::cli

// File: the shared flag validators (see flag_checks.h).
#include "cli/flag_checks.h"

#include <charconv>

#include "cli/refusal.h"

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

std::optional<ShardRange> parse_shard(const std::string& text, std::size_t runs) {
  if (text.empty()) return std::nullopt;
  const std::string usage = "--shard: expected I/K with 1 <= I <= K, got '" + text + "'";
  const auto slash = text.find('/');
  if (slash == std::string::npos) throw Refusal{usage};
  const auto shard = parse_decimal_u64(text.substr(0, slash));
  const auto shards = parse_decimal_u64(text.substr(slash + 1));
  if (!shard || !shards || *shard == 0 || *shard > *shards || *shards > kMaxShards) {
    throw Refusal{usage};
  }
  return shard_range(static_cast<std::size_t>(*shard), static_cast<std::size_t>(*shards), runs);
}

}  // namespace nssim::cli

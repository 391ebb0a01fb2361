// File: duration_text (see duration_text.h). std::to_chars is used because it ignores the locale,
// unlike printf and iostreams, so every machine writes the same bytes.
#include "reports/duration_text.h"

#include <array>
#include <charconv>
#include <cmath>

namespace nssim::reports {

std::string duration_text(double ms) {
  if (!std::isfinite(ms)) return "n/a";
  // Below 999.5 ms the value rounds to fewer than 1000 whole milliseconds.
  if (std::fabs(ms) < 999.5) return std::to_string(std::llround(ms)) + " ms";
  std::array<char, 64> buffer{};
  const auto end = std::to_chars(buffer.data(), buffer.data() + buffer.size(), ms / 1000.0,
                                 std::chars_format::fixed, 1)
                       .ptr;
  return std::string(buffer.data(), end) + " s";
}

std::string duration_text(const nlohmann::json& ms, std::string_view missing) {
  if (!ms.is_number()) return std::string(missing);
  return duration_text(ms.get<double>());
}

}  // namespace nssim::reports

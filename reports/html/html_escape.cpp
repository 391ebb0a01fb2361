// File: html_escape and format_fixed (see html_escape.h). std::to_chars is used
// because it ignores the locale, unlike printf and iostreams.
#include "reports/html/html_escape.h"

#include <array>
#include <charconv>
#include <cmath>

namespace nssim::reports::html {

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string format_fixed(double value, int decimals) {
  if (!std::isfinite(value)) return "0";
  const double scale = std::pow(10.0, decimals);
  if (std::round(value * scale) == 0.0) value = 0.0;  // no "-0.0"
  std::array<char, 64> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                          std::chars_format::fixed, decimals);
  if (error != std::errc()) return "0";
  return std::string(buffer.data(), end);
}

}  // namespace nssim::reports::html

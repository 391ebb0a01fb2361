// File: html_escape, format_fixed and format_seconds (see html_escape.h). std::to_chars is used
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

std::string format_seconds(int64_t ms) {
  return format_fixed(static_cast<double>(ms) / 1000.0, 1) + " s";
}

std::string format_span(int64_t ms) {
  return ms > -1000 && ms < 1000 ? std::to_string(ms) + " ms" : format_seconds(ms);
}

std::string format_duration(int64_t ms) {
  if (ms < 0) return "-" + format_duration(-ms);
  if (ms < 1000) return std::to_string(ms) + " ms";
  if (ms < 120000) return format_seconds(ms);
  const int64_t minutes = ms / 60000;
  const int64_t rest_ms = ms - minutes * 60000;
  if (rest_ms == 0) return std::to_string(minutes) + " min";
  return std::to_string(minutes) + " min " + format_seconds(rest_ms);
}

}  // namespace nssim::reports::html

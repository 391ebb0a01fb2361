// File: text helpers for the HTML report: escaping of every string that comes from the JSON, and
// locale-free number formatting, so the same report gives byte-identical pages everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace nssim::reports::html {

// Escapes & < > " ' so the text is safe both as element content and inside a quoted attribute.
std::string html_escape(std::string_view text);

// value with exactly `decimals` digits after the point ("12.50"); "-0.0" prints as "0.0".
std::string format_fixed(double value, int decimals);

// Milliseconds as seconds with one decimal: 412847 -> "412.8 s".
std::string format_seconds(int64_t ms);

// Milliseconds as seconds with one decimal, or as milliseconds under a second, where "0.0 s"
// would hide a span: 3 -> "3 ms", 135929 -> "135.9 s" (beside format_seconds figures).
std::string format_span(int64_t ms);

// Milliseconds as the shortest readable duration: "850 ms", "12.3 s", "2 min 5.0 s".
std::string format_duration(int64_t ms);

}  // namespace nssim::reports::html

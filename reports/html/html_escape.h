// File: text helpers for the HTML report: escaping of every string that comes from the JSON, and
// locale-free number formatting, so the same report gives byte-identical pages everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "reports/duration_text.h"

namespace nssim::reports::html {

// Escapes & < > " ' so the text is safe both as element content and inside a quoted attribute.
std::string html_escape(std::string_view text);

// value with exactly `decimals` digits after the point ("12.50"); "-0.0" prints as "0.0".
std::string format_fixed(double value, int decimals);

}  // namespace nssim::reports::html

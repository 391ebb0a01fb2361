// File: how the comparison's numbers read in every rendering (terminal, Markdown, HTML), so that
// the three say exactly the same thing. Internal to reports/.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports::compare_format {

// Maximum number of entries of the "what changed" list; the tables hold everything.
inline constexpr std::size_t kChangesListed = 20;

// A figure's value: integers exactly, other numbers with 6 significant digits, null as "null",
// strings as they are.
std::string value_text(const nlohmann::json& value);

// A difference with its sign ("+120", "-3.5"), or "" for null.
std::string difference_text(const nlohmann::json& difference);

// A figure's value as people read it: durations (is_time_figure) by duration_text, rates
// (`*_per_s`) with "/s", "none" for null (no value), others as value_text.
std::string figure_text(const std::string& figure, const nlohmann::json& value);

// A difference of `figure` with its sign, read as figure_text does ("-24.9 s", "+4435"); "" for
// null.
std::string figure_difference_text(const std::string& figure, const nlohmann::json& difference);

// A relative difference as a signed percentage with one decimal ("+12.5%"), or "" for null.
std::string relative_text(const nlohmann::json& relative);

}  // namespace nssim::reports::compare_format

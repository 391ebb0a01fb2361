// File: sweep.json -> sweep.html, one self-contained page (inline CSS and SVG, no script, no
// network) that shows the distribution over seeds of every failover window: a histogram per
// headline figure and outage, RocketMQ's predicted window beside it, p50 / p99 across a grid of
// settings, and the command that replays each worst seed.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nssim::reports {

// Renders a sweep document (schema nssim.sweep/1). Missing parts are left out with a note; every
// string from the JSON is escaped; the same document always gives the same bytes.
std::string render_sweep_html(const nlohmann::json& sweep);

// The page's parts, split over sweep_html*.cpp; for those files only.
namespace sweep_html {

// A JSON number as a double; nullopt for null and non-numbers.
std::optional<double> number_of(const nlohmann::json& value);

// "146102" for integral values, "130512.412" otherwise, "—" for null.
std::string plain_number(const nlohmann::json& value);

// A figure's value as its page shows it: seconds for time figures (is_time_figure),
// plain_number otherwise.
std::string figure_value_text(const std::string& key, const nlohmann::json& value);

// The point's short name for charts: its grid values joined ("5000, 2"), else its label.
std::string point_short_name(const nlohmann::json& point);

// The points array, or an empty array.
const nlohmann::json& points_of(const nlohmann::json& sweep);

// How many outages the points have (the largest count, so none is left out).
std::size_t outage_count(const nlohmann::json& sweep);

// "outages[0]: poweroff of broker-a-0 at 300.0 s (faults[0], until 600.0 s)"
std::string outage_title(const nlohmann::json& outage, std::size_t index);

// A linear value scale with round ticks, mapping [lo, hi] onto the pixels [from, to].
struct ValueScale {
  double lo = 0;
  double hi = 1;
  double step = 1;  // between ticks
  double from = 0;
  double to = 1;

  double at(double value) const;
  // The round values from lo to hi, each a multiple of step.
  std::vector<double> ticks() const;
  // Tick label: seconds for ms values ("120 s", "2.5 s"), else the plain count.
  std::string label(double value, bool ms) const;
};

// Round ends around [lo, hi] (about `ticks` steps); an empty range is widened, never inverted.
ValueScale make_value_scale(double lo, double hi, double from, double to, int ticks);

// sweep_html_charts.cpp: per outage, the histograms of the headline figures with their notes.
std::string render_outage_histograms(const nlohmann::json& sweep, std::size_t outage);

// sweep_html_grid.cpp: per outage, p50 and p99 against the grid's points; empty with one point.
std::string render_grid_charts(const nlohmann::json& sweep, std::size_t outage);

// The sweep-only additions to the report's style sheet.
const char* sweep_style_sheet();

}  // namespace sweep_html

}  // namespace nssim::reports

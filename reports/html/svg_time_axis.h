// File: the one time axis every picture of the HTML report shares (same viewBox width, same plot
// margins), so the broker lanes, the stale-producer chart and the sends charts line up vertically,
// and the fault windows drawn across each of them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/html/html_model.h"
#include "reports/html/svg_writer.h"

namespace nssim::reports::html {

inline constexpr double kSvgWidth = 1200;
inline constexpr double kPlotLeft = 190;    // room for lane labels
inline constexpr double kPlotRight = 1170;  // room for the last tick label
// Below a picture's last plot: the tick labels draw_time_grid writes under the axis line.
inline constexpr double kTimeAxisRoom = 22;

struct TimeAxis {
  int64_t duration_ms = 1;
  int64_t step_ms = 1000;  // between ticks
  int64_t unit_ms = 1000;  // tick labels count seconds, minutes or hours
  std::string unit;        // "s", "min", "h"

  double x(int64_t ms) const;
  std::string label(int64_t ms) const;
};

// Ticks at a round step, about ten over the run; seconds up to 2 min, then minutes, then hours.
TimeAxis make_time_axis(int64_t duration_ms);

// Vertical grid lines from top to bottom, the axis line, and tick labels under it.
void draw_time_grid(SvgWriter& svg, const TimeAxis& axis, double top, double bottom);

// Shades each fault window and draws dashed lines at its start and end, each with a tooltip.
void draw_fault_windows(SvgWriter& svg, const TimeAxis& axis,
                        const std::vector<FaultWindow>& faults, double top, double bottom);

// "faults[0] poweroff broker-a-0: 300.0 s to 600.0 s (5 min 0.0 s)"
std::string fault_title(const FaultWindow& fault);
std::string fault_name(const FaultWindow& fault);  // "faults[0] poweroff"

}  // namespace nssim::reports::html

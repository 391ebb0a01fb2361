// File: the shared time axis and fault overlay (see svg_time_axis.h).
#include "reports/html/svg_time_axis.h"

#include <array>

#include "reports/html/html_escape.h"

namespace nssim::reports::html {

namespace {

constexpr int64_t kSecondMs = 1000;
constexpr int64_t kMinuteMs = 60 * kSecondMs;
constexpr int64_t kHourMs = 60 * kMinuteMs;
constexpr int64_t kMaxAxisTicks = 15;

}  // namespace

double TimeAxis::x(int64_t ms) const {
  return kPlotLeft +
         (kPlotRight - kPlotLeft) * static_cast<double>(ms) / static_cast<double>(duration_ms);
}

std::string TimeAxis::label(int64_t ms) const {
  if (ms % unit_ms == 0) return std::to_string(ms / unit_ms) + " " + unit;
  return format_fixed(static_cast<double>(ms) / static_cast<double>(unit_ms), 1) + " " + unit;
}

TimeAxis make_time_axis(int64_t duration_ms) {
  static constexpr std::array<int64_t, 21> kSteps = {
      kSecondMs / 10, kSecondMs / 5,  kSecondMs / 2,  kSecondMs, 2 * kSecondMs, 5 * kSecondMs,
      10 * kSecondMs, 15 * kSecondMs, 30 * kSecondMs, kMinuteMs, 2 * kMinuteMs, 5 * kMinuteMs,
      10 * kMinuteMs, 15 * kMinuteMs, 30 * kMinuteMs, kHourMs,   2 * kHourMs,   3 * kHourMs,
      6 * kHourMs,    12 * kHourMs,   24 * kHourMs};
  TimeAxis axis;
  axis.duration_ms = duration_ms < 1 ? 1 : duration_ms;
  axis.step_ms = kSteps.back();
  for (const int64_t step : kSteps) {
    if (axis.duration_ms / step <= kMaxAxisTicks) {
      axis.step_ms = step;
      break;
    }
  }
  if (axis.duration_ms <= 2 * kMinuteMs) {
    axis.unit_ms = kSecondMs;
    axis.unit = "s";
  } else if (axis.duration_ms <= 3 * kHourMs) {
    axis.unit_ms = kMinuteMs;
    axis.unit = "min";
  } else {
    axis.unit_ms = kHourMs;
    axis.unit = "h";
  }
  return axis;
}

void draw_time_grid(SvgWriter& svg, const TimeAxis& axis, double top, double bottom) {
  for (int64_t t = 0; t <= axis.duration_ms; t += axis.step_ms) {
    const double x = axis.x(t);
    svg.line(x, top, x, bottom, "grid");
    svg.text(x, bottom + 14, "tick", axis.label(t));
  }
  svg.line(kPlotLeft, bottom, kPlotRight, bottom, "axis");
}

std::string fault_name(const FaultWindow& fault) {
  return "faults[" + std::to_string(fault.index) + "] " + fault.kind;
}

std::string fault_title(const FaultWindow& fault) {
  std::string title = fault_name(fault) + " " + fault.targets + ": ";
  if (fault.instant) return title + "at " + duration_text(fault.span.start_ms);
  return title + duration_text(fault.span.start_ms) + " to " + duration_text(fault.span.end_ms) +
         " (" + duration_text(fault.span.end_ms - fault.span.start_ms) + ")";
}

void draw_fault_windows(SvgWriter& svg, const TimeAxis& axis,
                        const std::vector<FaultWindow>& faults, double top, double bottom) {
  for (const auto& fault : faults) {
    const std::string title = fault_title(fault);
    const double start_x = axis.x(fault.span.start_ms);
    if (!fault.instant) {
      const double end_x = axis.x(fault.span.end_ms);
      svg.rect({start_x, top, end_x - start_x, bottom - top}, "fault-shade", title);
      if (fault.span.end_ms < axis.duration_ms) {
        svg.line(end_x, top, end_x, bottom, "fault-line", "end of " + title);
      }
    }
    svg.line(start_x, top, start_x, bottom, fault.instant ? "fault-line admin" : "fault-line",
             title);
  }
}

}  // namespace nssim::reports::html

// File: the grid charts of a sweep page's outage sections. With more than one point, p50 and p99
// of the headline windows are drawn against the points (categories, in the grid's order) with
// RocketMQ's predicted maximum as a dashed tick per point, so what a setting does to the median
// and to the tail is seen at once, and whether the tail stays inside the prediction. Also what
// both kinds of picture share: the value scale and the sweep-only style rules.
#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include "reports/html/html_escape.h"
#include "reports/html/html_model.h"
#include "reports/html/svg_time_axis.h"
#include "reports/html/svg_writer.h"
#include "reports/report_field.h"
#include "reports/sweep/sweep_figures.h"
#include "reports/sweep/sweep_html.h"

namespace nssim::reports::sweep_html {

using html::format_fixed;
using html::html_escape;
using html::MarkerShape;
using html::SvgWriter;
using nlohmann::json;

double ValueScale::at(double value) const { return from + (to - from) * (value - lo) / (hi - lo); }

std::vector<double> ValueScale::ticks() const {
  std::vector<double> out;
  const double first = std::ceil(lo / step - 1e-9);
  for (int k = 0; (first + k) * step <= hi + step / 2; ++k) out.push_back((first + k) * step);
  return out;
}

std::string ValueScale::label(double value, bool ms) const {
  if (ms) {
    const int decimals = step >= 1000 ? 0 : step >= 100 ? 1 : step >= 10 ? 2 : 3;
    return format_fixed(value / 1000.0, decimals) + " s";
  }
  return format_fixed(value, step >= 1 ? 0 : step >= 0.1 ? 1 : 2);
}

ValueScale make_value_scale(double lo, double hi, double from, double to, int ticks) {
  if (hi < lo) std::swap(lo, hi);
  if (hi - lo <= 0) {  // one value: give it room on both sides, not below 0 for a count
    const double pad = std::max(1.0, std::fabs(lo) * 0.1);
    lo = lo >= 0 ? std::max(0.0, lo - pad) : lo - pad;
    hi += pad;
  }
  const double raw = (hi - lo) / std::max(1, ticks);
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  ValueScale scale;
  scale.step = 10 * power;
  for (const double multiple : {1.0, 2.0, 5.0}) {
    if (multiple * power >= raw) {
      scale.step = multiple * power;
      break;
    }
  }
  scale.lo = std::floor(lo / scale.step) * scale.step;
  scale.hi = std::max(scale.lo + scale.step, std::ceil(hi / scale.step) * scale.step);
  scale.from = from;
  scale.to = to;
  return scale;
}

const char* sweep_style_sheet() {
  return R"CSS(.sweep-tag { font-size: 13px; font-weight: normal; color: #555; border: 1px solid #bbb;
  border-radius: 3px; padding: 0 6px; vertical-align: middle; }
.grid-list { margin: 0 0 8px; }
section.outage h2 { margin-top: 34px; }
.sweep-chart { margin: 6px 0 16px; }
.sweep-chart h3 code { font-weight: normal; color: #555; }
.sweep-stats { margin: 2px 0 4px; padding-left: 18px; font-size: 13px; }
.sw-inside { font-weight: 600; }
.sw-bar.sw-removal { fill: #0072B2; fill-opacity: 0.75; }
.sw-bar.sw-stale { fill: #D55E00; fill-opacity: 0.75; }
.sw-bar.sw-failed { fill: #000; fill-opacity: 0.55; }
.sw-bar.sw-lost { fill: #009E73; fill-opacity: 0.75; }
.sw-second { fill: none; stroke: #E69F00; stroke-width: 1.6; }
.sw-pline { stroke: #000; stroke-width: 1.4; }
.sw-pline.sw-p99 { stroke-dasharray: 4 3; }
.sw-plabel { font-size: 10.5px; fill: #222; }
.sw-plabel.end { text-anchor: end; }
.sw-line { fill: none; stroke-width: 1.8; }
.sw-mark { stroke: #fff; stroke-width: 0.8; }
.sw-predicted-max { stroke-width: 2.2; stroke-dasharray: 6 4; }
.sw-line.sw-removal, .sw-predicted-max.sw-removal { stroke: #0072B2; }
.sw-line.sw-stale, .sw-predicted-max.sw-stale { stroke: #D55E00; }
.sw-line.sw-failed { stroke: #000; }
.sw-mark.sw-removal { fill: #0072B2; }
.sw-mark.sw-stale { fill: #D55E00; }
.sw-mark.sw-failed { fill: #000; }
.sw-legend { font-size: 12px; fill: #222; }
details > summary { cursor: pointer; font-weight: 600; margin: 6px 0; }
)CSS";
}

namespace {

constexpr double kGridTop = 34;  // the legend row is above
constexpr double kPlotHeight = 190;
constexpr double kLabelRoom = 44;  // category labels, in two rows when crowded

struct Line {
  const char* figure;  // after "outages[i]."
  const char* stat;
  const char* name;
  const char* css;
  MarkerShape shape;
};

struct Predicted {
  const char* bound;  // member of the outage's predicted bounds; its max_ms is drawn
  const char* name;
  const char* css;
};

struct GridChart {
  const char* id;
  const char* heading;
  std::vector<Line> lines;
  std::vector<Predicted> predicted;
  const char* caption;
};

const std::array<GridChart, 2> kGridCharts = {{
    {"windows",
     "p50 and p99 across the grid: NameServer removal and producers' stale route",
     {{"nameserver_drop_ms.max", "p50", "removal p50", "sw-removal", MarkerShape::kCircle},
      {"nameserver_drop_ms.max", "p99", "removal p99", "sw-removal", MarkerShape::kTriangleUp},
      {"producers.stale_route_ms.max", "p50", "stale route p50", "sw-stale", MarkerShape::kCircle},
      {"producers.stale_route_ms.max", "p99", "stale route p99", "sw-stale",
       MarkerShape::kTriangleUp}},
     {{"nameserver_removal_ms", "removal predicted max", "sw-removal"},
      {"producer_stale_route_ms", "stale route predicted max", "sw-stale"}},
     "Per point, p50 (circles) and p99 (triangles) over the seeds of the slowest NameServer's "
     "removal delay and of the slowest producer's stale-route window after the fault. Dashed "
     "ticks: the latest end RocketMQ's rules predict at that point."},
    {"failed",
     "p50 and p99 across the grid: failed sends",
     {{"sends.failed.total", "p50", "failed sends p50", "sw-failed", MarkerShape::kCircle},
      {"sends.failed.total", "p99", "failed sends p99", "sw-failed", MarkerShape::kTriangleUp}},
     {},
     "Per point, p50 (circles) and p99 (triangles) over the seeds of the sends that started "
     "inside the outage window and failed."},
}};

// One value per point (nullopt where the point lacks it).
std::vector<std::optional<double>> line_values(const json& points, std::size_t outage,
                                               const Line& line) {
  std::vector<std::optional<double>> values;
  for (const auto& point : points) {
    const auto& stats = field(field(point, "figures"), outage_prefix(outage) + line.figure);
    values.push_back(number_of(field(stats, line.stat)));
  }
  return values;
}

std::vector<std::optional<double>> predicted_values(const json& points, std::size_t outage,
                                                    const Predicted& predicted) {
  std::vector<std::optional<double>> values;
  for (const auto& point : points) {
    const auto& outages = field(point, "outages");
    static const json kNone;
    const json& outage_json =
        outages.is_array() && outage < outages.size() ? outages[outage] : kNone;
    values.push_back(
        number_of(field(field(field(outage_json, "predicted"), predicted.bound), "max_ms")));
  }
  return values;
}

double category_x(std::size_t index, std::size_t count) {
  const double band = (html::kPlotRight - html::kPlotLeft) / static_cast<double>(count);
  return html::kPlotLeft + band * (static_cast<double>(index) + 0.5);
}

void draw_categories(SvgWriter& svg, const json& points, double bottom) {
  const std::size_t count = points.size();
  const double band = (html::kPlotRight - html::kPlotLeft) / static_cast<double>(count);
  std::size_t longest = 0;
  for (const auto& point : points) longest = std::max(longest, point_short_name(point).size());
  const bool crowded = static_cast<double>(longest) * 6.5 > band;
  for (std::size_t i = 0; i < count; ++i) {
    const double x = category_x(i, count);
    svg.line(x, kGridTop, x, bottom, "guide");
    const double y = bottom + 15 + (crowded && i % 2 == 1 ? 14 : 0);
    svg.text(x, y, "tick", point_short_name(points[i]), field_string(points[i], "label"));
  }
}

void draw_legend(SvgWriter& svg, const GridChart& chart) {
  double x = html::kPlotLeft;
  const auto advance = [&x](const char* name) {
    x += 34 + 6.2 * static_cast<double>(std::string(name).size()) + 16;
  };
  for (const auto& line : chart.lines) {
    svg.line(x, 14, x + 26, 14, std::string("sw-line ") + line.css);
    svg.path(html::marker_path(line.shape, x + 13, 14, 4), std::string("sw-mark ") + line.css);
    svg.text(x + 32, 18, "sw-legend", line.name);
    advance(line.name);
  }
  for (const auto& predicted : chart.predicted) {
    svg.line(x, 14, x + 26, 14, std::string("sw-predicted-max ") + predicted.css);
    svg.text(x + 32, 18, "sw-legend", predicted.name);
    advance(predicted.name);
  }
}

void draw_line(SvgWriter& svg, const ValueScale& y, const json& points, const Line& line,
               const std::vector<std::optional<double>>& values, bool ms) {
  std::string d;
  bool open = false;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) {
      open = false;
      continue;
    }
    d += (open ? "L" : "M") + html::svg_number(category_x(i, values.size())) + " " +
         html::svg_number(y.at(*values[i]));
    open = true;
  }
  if (!d.empty()) svg.path(d, std::string("sw-line ") + line.css);
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    const std::string value = ms ? duration_text(*values[i]) : plain_number(json(*values[i]));
    svg.path(html::marker_path(line.shape, category_x(i, values.size()), y.at(*values[i]), 4.5),
             std::string("sw-mark ") + line.css,
             field_string(points[i], "label") + ": " + line.name + " " + value);
  }
}

void draw_predicted_points(SvgWriter& svg, const ValueScale& y, const json& points,
                           const Predicted& predicted,
                           const std::vector<std::optional<double>>& values) {
  const double half =
      0.4 * (html::kPlotRight - html::kPlotLeft) / static_cast<double>(points.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (!values[i]) continue;
    const double x = category_x(i, values.size());
    svg.line(
        x - half, y.at(*values[i]), x + half, y.at(*values[i]),
        std::string("sw-predicted-max ") + predicted.css,
        field_string(points[i], "label") + ": " + predicted.name + " " + duration_text(*values[i]));
  }
}

std::string grid_chart_svg(const json& points, std::size_t outage, const GridChart& chart) {
  std::vector<std::vector<std::optional<double>>> lines;
  std::vector<std::vector<std::optional<double>>> bounds;
  double peak = 0;
  const auto take = [&peak](const std::vector<std::optional<double>>& values) {
    for (const auto& value : values) peak = std::max(peak, value.value_or(0));
  };
  for (const auto& line : chart.lines) take(lines.emplace_back(line_values(points, outage, line)));
  for (const auto& predicted : chart.predicted) {
    take(bounds.emplace_back(predicted_values(points, outage, predicted)));
  }
  const bool any = std::any_of(lines.begin(), lines.end(), [](const auto& values) {
    return std::any_of(values.begin(), values.end(), [](const auto& v) { return v.has_value(); });
  });
  if (!any) return {};
  const bool ms = is_time_figure(outage_prefix(outage) + chart.lines.front().figure);
  const double bottom = kGridTop + kPlotHeight;
  SvgWriter svg("grid-o" + std::to_string(outage) + "-" + chart.id, html::kSvgWidth,
                bottom + kLabelRoom, chart.heading);
  const ValueScale y = make_value_scale(0, std::max(peak, ms ? 1000.0 : 5.0), bottom, kGridTop, 5);
  for (const double value : y.ticks()) {
    svg.line(html::kPlotLeft, y.at(value), html::kPlotRight, y.at(value),
             value == 0 ? "axis" : "grid");
    svg.text(html::kPlotLeft - 4, y.at(value) + 4, "value", y.label(value, ms));
  }
  draw_categories(svg, points, bottom);
  draw_legend(svg, chart);
  for (std::size_t i = 0; i < chart.predicted.size(); ++i) {
    draw_predicted_points(svg, y, points, chart.predicted[i], bounds[i]);
  }
  for (std::size_t i = 0; i < chart.lines.size(); ++i) {
    draw_line(svg, y, points, chart.lines[i], lines[i], ms);
  }
  return svg.finish();
}

}  // namespace

std::string render_grid_charts(const json& sweep, std::size_t outage) {
  const json& points = points_of(sweep);
  if (points.size() < 2) return {};
  std::string html;
  for (const auto& chart : kGridCharts) {
    const std::string svg = grid_chart_svg(points, outage, chart);
    html +=
        "<figure class=\"sweep-chart\">\n<h3>" + html_escape(chart.heading) + "</h3>\n" +
        (svg.empty() ? "<p class=\"note\">No point has a value for these figures.</p>\n" : svg) +
        "<figcaption class=\"figure-caption\">" + html_escape(chart.caption) +
        "</figcaption>\n</figure>\n";
  }
  return html;
}

}  // namespace nssim::reports::sweep_html

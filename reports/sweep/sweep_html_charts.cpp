// File: the histograms of a sweep page's outage sections. Per headline figure one picture, with a
// panel per point on one shared value axis (so a grid's points compare by eye), RocketMQ's
// predicted window shaded, p50 and p99 marked, and a tooltip per bar; a figure without values
// gets a note instead.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
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
using html::SvgWriter;
using nlohmann::json;

namespace {

constexpr double kChartsTop = 24;  // room for the p50 / p99 labels above the first panel
constexpr double kOnePanelHeight = 110;
constexpr double kGridPanelHeight = 74;
constexpr double kPanelGap = 28;
constexpr double kAxisRoom = 24;

struct Histogram {
  double lo = 0;
  double width = 0;  // 0: one bin holding a single value (min == max)
  std::vector<double> counts;
  // Where bins are drawn, relative to lo: -0.5 for whole counts, so bar [3, 4) sits on 3.
  double offset = 0;

  double start(std::size_t bin) const { return lo + width * static_cast<double>(bin); }
  double end() const { return start(counts.size()); }
};

struct ChartSpec {
  const char* id;  // in the SVG id: hist-o0-removal
  const char* heading;
  const char* figure;     // after "outages[i]."
  const char* second;     // a second series drawn as outlines, or nullptr
  const char* predicted;  // member of the outage's predicted bounds, or nullptr
  const char* within;     // member of within_predicted, or nullptr
  const char* name;       // of the first series in tooltips when there are two
  const char* second_name;
  const char* unit;  // of a count in tooltips
  const char* css;
  const char* caption;
};

const std::array<ChartSpec, 4> kCharts = {{
    {"removal", "NameServer removal", "nameserver_drop_ms.max", "nameserver_drop_ms.min",
     "nameserver_removal_ms", "nameserver_removal_ms", "slowest NameServer", "fastest NameServer",
     "", "sw-removal",
     "Each seed contributes its slowest NameServer's removal delay after the fault (filled bars) "
     "and its fastest NameServer's (orange outlines). The pink band is the window in which "
     "RocketMQ's rules predict the removal; the lines mark p50 (solid) and p99 (dashed) of the "
     "slowest delay over the seeds. Seeds in which no NameServer dropped the broker count as "
     "never and are not drawn."},
    {"stale", "Producers' stale route", "producers.stale_route_ms.max", nullptr,
     "producer_stale_route_ms", "producer_stale_route_ms", "", "", "", "sw-stale",
     "Each seed contributes its slowest producer's stale-route window: from the fault until the "
     "last affected producer's publish info no longer held the broker. The pink band is the "
     "window in which RocketMQ's rules predict that end; the lines mark p50 (solid) and p99 "
     "(dashed) over the seeds. Seeds in which no affected producer let go of the route count as "
     "never and are not drawn."},
    {"lost", "Producers' lost route", "route_health.lost.max", nullptr, nullptr, nullptr, "", "",
     "", "sw-lost",
     "Each seed contributes the longest lost route the outage opened (a producer could use the "
     "broker's master while its publish info lacked the group it had held), of those that "
     "ended; the lines mark p50 (solid) and p99 (dashed) over the seeds. Seeds in which no lost "
     "route ended count as never and are not drawn."},
    {"failed", "Failed sends", "sends.failed.total", nullptr, nullptr, nullptr, "", "",
     "failed sends", "sw-failed",
     "Each seed contributes the number of sends that started inside the outage window and "
     "failed, all causes together; the lines mark p50 (solid) and p99 (dashed) over the seeds."},
}};

struct Panel {
  std::string name;  // the point's short name, drawn only with a grid
  const json* stats = nullptr;
  std::optional<Histogram> main;
  std::optional<Histogram> second;
  std::optional<std::pair<double, double>> predicted;  // ms after the fault
};

std::optional<Histogram> histogram_of(const json& stats, bool ms) {
  const auto& histogram = field(stats, "histogram");
  const auto lo = number_of(field(histogram, "lo"));
  const auto& counts = field(histogram, "counts");
  if (!lo || !counts.is_array() || counts.empty()) return std::nullopt;
  Histogram out{*lo, std::max(0.0, number_of(field(histogram, "width")).value_or(0)), {}, 0};
  for (const auto& count : counts) out.counts.push_back(number_of(count).value_or(0));
  const bool whole = out.lo == std::floor(out.lo) && out.width == std::floor(out.width);
  if (!ms && whole && out.width >= 1) out.offset = -0.5;
  return out;
}

std::optional<std::pair<double, double>> predicted_of(const json& outage, const char* key) {
  if (key == nullptr) return std::nullopt;
  const auto& bounds = field(field(outage, "predicted"), key);
  const auto min_ms = number_of(field(bounds, "min_ms"));
  const auto max_ms = number_of(field(bounds, "max_ms"));
  if (!min_ms || !max_ms) return std::nullopt;
  return std::make_pair(*min_ms, std::max(*min_ms, *max_ms));
}

std::vector<Panel> read_panels(const json& sweep, std::size_t outage, const ChartSpec& spec) {
  std::vector<Panel> panels;
  const bool ms = is_time_figure(outage_prefix(outage) + spec.figure);
  for (const auto& point : points_of(sweep)) {
    const auto& figures = field(point, "figures");
    const auto& outages = field(point, "outages");
    Panel panel;
    panel.name = point_short_name(point);
    panel.stats = &field(figures, outage_prefix(outage) + spec.figure);
    panel.main = histogram_of(*panel.stats, ms);
    if (spec.second != nullptr) {
      panel.second = histogram_of(field(figures, outage_prefix(outage) + spec.second), ms);
    }
    if (outages.is_array() && outage < outages.size()) {
      panel.predicted = predicted_of(outages[outage], spec.predicted);
    }
    panels.push_back(std::move(panel));
  }
  return panels;
}

// The value axis the panels share: every bar and predicted window with a little room; when every
// seed of every point has the same value, that value in the middle of some room.
ValueScale x_scale(const std::vector<Panel>& panels, bool ms) {
  constexpr double kInfinity = std::numeric_limits<double>::infinity();
  double lo = kInfinity;
  double hi = -kInfinity;
  std::set<double> values;  // each panel's min and max
  bool predicted = false;
  for (const auto& panel : panels) {
    for (const auto* histogram : {&panel.main, &panel.second}) {
      if (!*histogram) continue;
      lo = std::min(lo, (*histogram)->lo + (*histogram)->offset);
      hi = std::max(hi, (*histogram)->end() + (*histogram)->offset);
    }
    for (const char* stat : {"min", "max"}) {
      if (const auto value = number_of(field(*panel.stats, stat))) values.insert(*value);
    }
    if (!panel.predicted) continue;
    predicted = true;
    lo = std::min(lo, panel.predicted->first);
    hi = std::max(hi, panel.predicted->second);
  }
  if (lo > hi) lo = hi = 0;
  const double drawn_lo = lo;
  double pad = (hi - lo) * 0.03;
  if (values.size() == 1 && !predicted) {
    const double value = *values.begin();
    const double room = ms ? std::max(1000.0, std::fabs(value) * 0.1) : 5.0;
    lo = std::min(lo, value - room);
    hi = std::max(hi, value + room);
    pad = 0;
  }
  ValueScale scale = make_value_scale(lo - pad, hi + pad, html::kPlotLeft, html::kPlotRight, 12);
  if (!ms && scale.step < 1) {  // counts: whole ticks
    scale.step = 1;
    scale.lo = std::floor(scale.lo);
    scale.hi = std::ceil(scale.hi);
  }
  // Values are not negative: the axis stops just below 0 (or half a count bar below), short of
  // the round tick below, which would label a value no seed can have.
  const double below = std::min(std::max(pad, 0.4), 0.45 * scale.step);
  scale.lo = std::max(scale.lo, std::min(drawn_lo, 0.0) - below);
  return scale;
}

// "110.7–111.6 s", "3–5 failed sends", "0 failed sends": the values a bin [a, b) holds.
std::string bin_text(const Histogram& histogram, std::size_t bin, bool ms, const char* unit) {
  const double a = histogram.start(bin);
  const double b = a + histogram.width;
  const double w = histogram.width;
  if (ms) {
    const int decimals = w >= 100 || w <= 0 ? 1 : w >= 10 ? 2 : 3;
    if (w <= 0) return format_fixed(a / 1000, 3) + " s";
    return format_fixed(a / 1000, decimals) + "\u2013" + format_fixed(b / 1000, decimals) + " s";
  }
  const std::string of = std::string(" ") + unit;
  if (a == std::floor(a) && w == std::floor(w)) {
    if (w <= 1) return format_fixed(a, 0) + of;
    return format_fixed(a, 0) + "\u2013" + format_fixed(b - 1, 0) + of;
  }
  return format_fixed(a, 2) + "\u2013" + format_fixed(b, 2) + of;
}

std::string seeds_text(double count) {
  return format_fixed(count, 0) + (count == 1 ? " seed" : " seeds");
}

void draw_bars(SvgWriter& svg, const ValueScale& x, const Histogram& histogram, bool ms,
               const std::string& css, const std::string& name, const char* unit,
               const html::Box& panel, double peak) {
  for (std::size_t bin = 0; bin < histogram.counts.size(); ++bin) {
    const double count = histogram.counts[bin];
    if (count <= 0) continue;
    const double a = histogram.start(bin) + histogram.offset;
    double left = x.at(a);
    double width = x.at(a + histogram.width) - left;
    if (width < 4) {  // a single-value bin, or very many: keep it visible, centred on its value
      left += width / 2 - 2;
      width = 4;
    }
    const double height = panel.height * count / peak;
    svg.rect({left, panel.y + panel.height - height, width, height}, css,
             (name.empty() ? "" : name + ": ") + bin_text(histogram, bin, ms, unit) + ": " +
                 seeds_text(count));
  }
}

void draw_predicted_window(SvgWriter& svg, const ValueScale& x,
                           const std::pair<double, double>& window, const html::Box& panel,
                           const ChartSpec& spec) {
  const double left = x.at(window.first);
  const std::string what = std::string(spec.id) == "removal" ? "the NameServers drop the broker"
                                                             : "producers lose the stale route";
  const std::string title = "RocketMQ's rules predict " + what + " " + duration_text(window.first) +
                            " to " + duration_text(window.second) + " after the fault";
  svg.rect({left, panel.y, std::max(1.0, x.at(window.second) - left), panel.height}, "predicted",
           title);
  svg.text(left + 3, panel.y + 11, "predicted-label", "predicted", title);
}

void draw_percentiles(SvgWriter& svg, const ValueScale& x, const json& stats, bool ms,
                      const html::Box& panel) {
  const std::string n = plain_number(field(stats, "n"));
  for (const char* stat : {"p50", "p99"}) {
    const auto value = number_of(field(stats, stat));
    if (!value) continue;
    const bool p50 = std::string(stat) == "p50";
    const double at = x.at(*value);
    const std::string text =
        std::string(stat) + " " + (ms ? duration_text(*value) : plain_number(field(stats, stat)));
    svg.line(at, panel.y - 3, at, panel.y + panel.height, p50 ? "sw-pline" : "sw-pline sw-p99",
             text + " over " + n + " seeds");
    // p50's label left of its line, p99's right, so close values do not overwrite each other;
    // a p99 at the right edge has its label inside the panel instead.
    const bool inside = !p50 && at + 80 > html::kSvgWidth;
    svg.text(p50 || inside ? at - 3 : at + 3, inside ? panel.y + 10 : panel.y - 5,
             p50 || inside ? "sw-plabel end" : "sw-plabel", text);
  }
}

void draw_panel(SvgWriter& svg, const ValueScale& x, const Panel& panel, const ChartSpec& spec,
                const html::Box& box, bool ms, bool grid) {
  svg.text(html::kPlotLeft - 36, box.y + 12, "lane-label", grid ? panel.name : "seeds");
  svg.text(html::kPlotLeft - 36, box.y + 26, "row-label", grid ? "seeds per bin" : "per bin");
  svg.line(html::kPlotLeft, box.y + box.height, html::kPlotRight, box.y + box.height, "axis");
  if (!panel.main) {
    const std::string why =
        panel.stats->is_object()
            ? "no seed has a value (" + plain_number(field(*panel.stats, "never")) + " never)"
            : "not in this sweep";
    svg.text(html::kPlotLeft + 8, box.y + box.height / 2, "empty-note", why);
    return;
  }
  double peak = 1;
  for (const auto* histogram : {&panel.main, &panel.second}) {
    if (!*histogram) continue;
    const auto& counts = (*histogram)->counts;
    peak = std::max(peak, *std::max_element(counts.begin(), counts.end()));
  }
  const ValueScale y =
      make_value_scale(0, std::max(peak, 2.0), box.y + box.height, box.y, grid ? 2 : 4);
  for (const double value : y.ticks()) {
    if (value <= 0) continue;
    svg.line(html::kPlotLeft, y.at(value), html::kPlotRight, y.at(value), "guide");
    svg.text(html::kPlotLeft - 4, y.at(value) + 4, "value", y.label(value, false));
  }
  svg.text(html::kPlotLeft - 4, box.y + box.height + 4, "value", "0");
  if (panel.predicted) draw_predicted_window(svg, x, *panel.predicted, box, spec);
  draw_bars(svg, x, *panel.main, ms, std::string("sw-bar ") + spec.css,
            panel.second ? spec.name : "", spec.unit, box, y.hi);
  if (panel.second) {
    draw_bars(svg, x, *panel.second, ms, "sw-second", spec.second_name, spec.unit, box, y.hi);
  }
  draw_percentiles(svg, x, *panel.stats, ms, box);
}

std::string chart_svg(const std::vector<Panel>& panels, const ChartSpec& spec,
                      const std::string& key, std::size_t outage) {
  const bool ms = is_time_figure(key);
  const bool grid = panels.size() > 1;
  const double height = grid ? kGridPanelHeight : kOnePanelHeight;
  const auto count = static_cast<double>(panels.size());
  const double bottom = kChartsTop + count * height + (count - 1) * kPanelGap;
  SvgWriter svg("hist-o" + std::to_string(outage) + "-" + spec.id, html::kSvgWidth,
                bottom + kAxisRoom, "Histogram over seeds of " + key);
  const ValueScale x = x_scale(panels, ms);
  for (const double value : x.ticks()) {
    svg.line(x.at(value), kChartsTop, x.at(value), bottom, "grid");
    svg.text(x.at(value), bottom + 15, "tick", x.label(value, ms));
  }
  svg.text(html::kPlotLeft - 36, bottom + 15, "row-label", ms ? "after the fault" : spec.unit);
  for (std::size_t i = 0; i < panels.size(); ++i) {
    const html::Box box{html::kPlotLeft, kChartsTop + static_cast<double>(i) * (height + kPanelGap),
                        html::kPlotRight - html::kPlotLeft, height};
    draw_panel(svg, x, panels[i], spec, box, ms, grid);
  }
  return svg.finish();
}

// The statistics beside a panel, in words: n, never, p50, p99, max and its seed, the predicted
// window and the share of seeds inside it.
std::string stats_item(const json& point, const Panel& panel, const ChartSpec& spec,
                       const std::string& key, std::size_t outage, bool grid) {
  const json& stats = *panel.stats;
  std::string text;
  if (!stats.is_object()) {
    text = "not in this sweep";
  } else if (number_of(field(stats, "n")).value_or(0) <= 0) {
    text = "no seed has a value (" + plain_number(field(stats, "never")) + " never)";
  } else {
    text = "n " + plain_number(field(stats, "n")) + " \u00B7 never " +
           plain_number(field(stats, "never"));
    for (const char* stat : {"p50", "p99", "max"}) {
      text += std::string(" \u00B7 ") + stat + " " + figure_value_text(key, field(stats, stat));
    }
    text += " (seed " + plain_number(field(stats, "max_seed")) + ")";
  }
  if (panel.predicted) {
    text += " \u00B7 predicted " + duration_text(panel.predicted->first) + " to " +
            duration_text(panel.predicted->second);
  }
  std::string html =
      "<li>" + (grid ? "<strong>" + html_escape(point_short_name(point)) + "</strong> " : "") +
      html_escape(text);
  static const json kNone;
  const auto& within = spec.within == nullptr
                           ? kNone
                           : field(field(point, "figures"),
                                   outage_prefix(outage) + "within_predicted." + spec.within);
  const auto share = number_of(field(within, "mean"));
  if (share && number_of(field(within, "n")).value_or(0) > 0) {
    html += " \u00B7 <span class=\"sw-inside\">" + format_fixed(*share * 100, 1) + " % of " +
            html_escape(plain_number(field(within, "n"))) +
            " seeds inside RocketMQ&#39;s predicted window</span>";
  }
  return html + "</li>\n";
}

std::string chart_figure(const json& sweep, std::size_t outage, const ChartSpec& spec) {
  const std::vector<Panel> panels = read_panels(sweep, outage, spec);
  const std::string key = outage_prefix(outage) + spec.figure;
  const bool grid = panels.size() > 1;
  std::string html = "<figure class=\"sweep-chart\">\n<h3>" + html_escape(spec.heading) +
                     " <code>" + html_escape(key) + "</code></h3>\n";
  const bool any = std::any_of(panels.begin(), panels.end(),
                               [](const Panel& panel) { return panel.main.has_value(); });
  if (any) {
    html += "<ul class=\"sweep-stats\">\n";
    const auto& points = points_of(sweep);
    for (std::size_t i = 0; i < panels.size(); ++i) {
      html += stats_item(points[i], panels[i], spec, key, outage, grid);
    }
    html += "</ul>\n" + chart_svg(panels, spec, key, outage);
  } else {
    // With a grid the never counts may differ by point; the full table has each.
    const auto never =
        panels.size() == 1 ? number_of(field(*panels[0].stats, "never")) : std::nullopt;
    html += "<p class=\"note\">No seed has a value for this figure" +
            (never ? " (" + format_fixed(*never, 0) + " never)" : std::string()) +
            (grid ? " at any point" : "") + ", so there is no histogram.</p>\n";
  }
  return html + "<figcaption class=\"figure-caption\">" + html_escape(spec.caption) +
         "</figcaption>\n</figure>\n";
}

}  // namespace

std::string render_outage_histograms(const json& sweep, std::size_t outage) {
  const json* first = nullptr;
  for (const auto& point : points_of(sweep)) {
    const auto& outages = field(point, "outages");
    if (outages.is_array() && outage < outages.size()) {
      first = &outages[outage];
      break;
    }
  }
  std::string html =
      "<h2>" + html_escape(outage_title(first ? *first : json(), outage)) + "</h2>\n";
  for (const auto& spec : kCharts) html += chart_figure(sweep, outage, spec);
  return html;
}

}  // namespace nssim::reports::sweep_html

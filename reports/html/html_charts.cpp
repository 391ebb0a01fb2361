// File: the charts under the timeline: producers with a stale route (with the window RocketMQ's
// rules predict for its end) and with a lost route, sends per second (ok; failed by cause), and
// the load per broker group. Each bins the per-second series so no chart has more than about 600
// bars.
#include <algorithm>
#include <array>
#include <cmath>

#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/html/svg_time_axis.h"

namespace nssim::reports::html {

namespace {

constexpr double kChartTop = 18;
constexpr double kPanelHeight = 90;
constexpr double kPanelGap = 20;
constexpr std::size_t kMaxBars = 600;

struct Bin {
  int64_t start_s = 0;
  int64_t seconds = 0;
  int64_t ok = 0;
  std::map<std::string, int64_t> failed;
  int64_t failed_total = 0;
  int64_t stale_max = 0;
  int64_t lost_max = 0;
  std::map<std::string, int64_t> ok_by_broker;
};

std::vector<Bin> bin_seconds(const std::vector<SecondSample>& samples) {
  static constexpr std::array<int64_t, 14> kBinSizes = {1,   2,   5,   10,  15,   30,   60,
                                                        120, 300, 600, 900, 1800, 3600, 7200};
  const auto count = static_cast<int64_t>(samples.size());
  int64_t size = kBinSizes.back();
  for (const int64_t candidate : kBinSizes) {
    if (static_cast<std::size_t>((count + candidate - 1) / candidate) <= kMaxBars) {
      size = candidate;
      break;
    }
  }
  std::vector<Bin> bins;
  for (int64_t start = 0; start < count; start += size) {
    Bin bin{start, std::min(size, count - start), 0, {}, 0, 0, 0, {}};
    for (int64_t t = start; t < start + bin.seconds; ++t) {
      const SecondSample& sample = samples[static_cast<std::size_t>(t)];
      bin.ok += sample.ok;
      bin.stale_max = std::max(bin.stale_max, sample.stale_producers);
      bin.lost_max = std::max(bin.lost_max, sample.lost_producers);
      for (const auto& [broker, n] : sample.ok_by_broker) bin.ok_by_broker[broker] += n;
      for (const auto& [cause, n] : sample.failed) {
        bin.failed[cause] += n;
        bin.failed_total += n;
      }
    }
    bins.push_back(std::move(bin));
  }
  return bins;
}

// 1, 2, 5, 10, 20, 50... at or above value.
double nice_ceiling(double value) {
  if (value <= 1) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(value)));
  for (const double step : {1.0, 2.0, 5.0, 10.0}) {
    if (step * power >= value) return step * power;
  }
  return 10 * power;
}

std::string bin_range(const Bin& bin) {
  return duration_text(bin.start_s * 1000) + " to " +
         duration_text((bin.start_s + bin.seconds) * 1000);
}

std::string per_second(int64_t count, const Bin& bin) {
  return format_fixed(static_cast<double>(count) / static_cast<double>(bin.seconds), 1) + "/s";
}

struct Panel {
  double top = 0;
  double height = 0;
  std::string caption;
  std::string note;        // under the caption, e.g. how bins were summarized
  std::string empty_text;  // said in the panel when nothing happened
};

// Captions, and guides at 0, half and full scale labelled in the left margin; returns the value at
// full scale. An empty panel gets its empty_text instead of a scale.
double draw_value_scale(SvgWriter& svg, const Panel& panel, double peak) {
  const double top = panel.top;
  const double height = panel.height;
  // Left of the scale values, which sit against the plot.
  svg.text(kPlotLeft - 30, top + 12, "lane-label", panel.caption);
  if (!panel.note.empty()) svg.text(kPlotLeft - 30, top + 26, "row-label", panel.note);
  svg.line(kPlotLeft, top + height, kPlotRight, top + height, "axis");
  if (peak <= 0) {
    svg.text(kPlotLeft + 8, top + height / 2, "empty-note", panel.empty_text);
    return 1;
  }
  const double scale_max = nice_ceiling(peak);
  for (const double fraction : {0.5, 1.0}) {
    const double y = top + height * (1 - fraction);
    svg.line(kPlotLeft, y, kPlotRight, y, "guide");
    svg.text(kPlotLeft - 4, y + 4, "value",
             format_fixed(scale_max * fraction, scale_max < 10 ? 1 : 0));
  }
  svg.text(kPlotLeft - 4, top + height + 4, "value", "0");
  return scale_max;
}

void draw_predicted_stale(SvgWriter& svg, const TimeAxis& axis, const PageModel& model, double top,
                          double height) {
  for (const auto& prediction : model.predictions) {
    if (!prediction.stale_route) continue;
    const TimeSpan& span = *prediction.stale_route;
    const double x = axis.x(span.start_ms);
    const std::string title = "RocketMQ's rules predict producers lose the stale route between " +
                              duration_text(span.start_ms) + " and " + duration_text(span.end_ms) +
                              " (faults[" + std::to_string(prediction.fault) + "])";
    svg.rect({x, top, std::max(1.0, axis.x(span.end_ms) - x), height}, "predicted", title);
    svg.text(x + 3, top - 4, "predicted-label", "predicted end", title);
  }
}

// One producer series (stale or lost) as steps: runs of bins with the same count become one bar.
struct ProducerSeries {
  int64_t Bin::*count;
  const char* css;
  const char* held;  // "held a stale route"
};

constexpr ProducerSeries kStaleSeries = {&Bin::stale_max, "stale", "held a stale route"};
constexpr ProducerSeries kLostSeries = {&Bin::lost_max, "lost", "had a lost route"};

void draw_producer_steps(SvgWriter& svg, const TimeAxis& axis, const std::vector<Bin>& bins,
                         const ProducerSeries& series, double top, double height,
                         double scale_max) {
  std::size_t i = 0;
  while (i < bins.size()) {
    std::size_t j = i;
    while (j + 1 < bins.size() && bins[j + 1].*series.count == bins[i].*series.count) ++j;
    const int64_t value = bins[i].*series.count;
    if (value > 0) {
      const int64_t start_ms = bins[i].start_s * 1000;
      const int64_t end_ms = (bins[j].start_s + bins[j].seconds) * 1000;
      const double bar = height * static_cast<double>(value) / scale_max;
      const double x = axis.x(start_ms);
      svg.rect({x, top + height - bar, axis.x(end_ms) - x, bar}, series.css,
               duration_text(start_ms) + " to " + duration_text(end_ms) + ": " +
                   (bins[i].seconds > 1 ? "up to " : "") + std::to_string(value) +
                   (value == 1 ? " producer " : " producers ") + series.held);
    }
    i = j + 1;
  }
}

void draw_ok_bars(SvgWriter& svg, const TimeAxis& axis, const std::vector<Bin>& bins, double top,
                  double height, double scale_max) {
  for (const auto& bin : bins) {
    if (bin.ok == 0) continue;
    const double x = axis.x(bin.start_s * 1000);
    const double width = axis.x((bin.start_s + bin.seconds) * 1000) - x;
    const double rate = static_cast<double>(bin.ok) / static_cast<double>(bin.seconds);
    const double bar = height * rate / scale_max;
    svg.rect(
        {x, top + height - bar, width > 3 ? width - 0.6 : width, bar}, "ok",
        bin_range(bin) + ": " + std::to_string(bin.ok) + " ok (" + per_second(bin.ok, bin) + ")");
  }
}

void draw_failed_bars(SvgWriter& svg, const TimeAxis& axis, const std::vector<Bin>& bins,
                      double top, double height, double scale_max) {
  for (const auto& bin : bins) {
    if (bin.failed_total == 0) continue;
    std::string title = bin_range(bin) + ": " + std::to_string(bin.failed_total) + " failed (" +
                        per_second(bin.failed_total, bin) + ")";
    for (const auto& [cause, n] : bin.failed) title += ", " + cause + " " + std::to_string(n);
    svg.open_group("failed", title);
    const double x = axis.x(bin.start_s * 1000);
    const double width = axis.x((bin.start_s + bin.seconds) * 1000) - x;
    double y = top + height;
    for (const auto& [cause, n] : bin.failed) {
      const double bar =
          height * static_cast<double>(n) / static_cast<double>(bin.seconds) / scale_max;
      y -= bar;
      svg.rect({x, y, width > 3 ? width - 0.6 : width, bar}, cause_class(cause));
    }
    svg.close_group();
  }
}

std::string bin_note(const std::vector<Bin>& bins) {
  if (bins.empty() || bins.front().seconds <= 1) return "";
  return "mean of " + std::to_string(bins.front().seconds) + " s bins";
}

// The broker groups to draw: the most successful attempts first, at most kBrokerLines, then by
// name so that ties do not depend on map order.
std::vector<std::string> busiest_brokers(const std::vector<Bin>& bins) {
  std::map<std::string, int64_t> totals;
  for (const auto& bin : bins) {
    for (const auto& [broker, n] : bin.ok_by_broker) totals[broker] += n;
  }
  std::vector<std::pair<int64_t, std::string>> ranked;
  for (const auto& [broker, n] : totals) ranked.emplace_back(-n, broker);
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> names;
  for (std::size_t i = 0; i < ranked.size() && i < kBrokerLines; ++i) {
    names.push_back(ranked[i].second);
  }
  return names;
}

void draw_broker_line(SvgWriter& svg, const TimeAxis& axis, const std::vector<Bin>& bins,
                      const std::string& broker, std::size_t index, double scale_max) {
  std::string d;
  int64_t total = 0;
  for (const auto& bin : bins) {
    const auto found = bin.ok_by_broker.find(broker);
    const int64_t n = found == bin.ok_by_broker.end() ? 0 : found->second;
    total += n;
    const double rate = static_cast<double>(n) / static_cast<double>(bin.seconds);
    const double y = kChartTop + kPanelHeight * (1 - rate / scale_max);
    d += (d.empty() ? "M" : " L") + svg_number(axis.x(bin.start_s * 1000)) + " " + svg_number(y) +
         " L" + svg_number(axis.x((bin.start_s + bin.seconds) * 1000)) + " " + svg_number(y);
  }
  svg.path(d, "broker-line broker-line-" + std::to_string(index),
           broker + ": " + std::to_string(total) + " attempts succeeded");
  // The key along the top of the plot, in the line's colour.
  svg.text(kPlotLeft + 8 + 130 * static_cast<double>(index), kChartTop - 5,
           "broker-label broker-line-" + std::to_string(index), broker);
}

}  // namespace

std::string render_broker_chart_svg(const PageModel& model) {
  if (model.seconds.empty()) return {};
  const std::vector<Bin> bins = bin_seconds(model.seconds);
  const auto brokers = busiest_brokers(bins);
  if (brokers.empty()) return {};
  double peak = 0;
  for (const auto& bin : bins) {
    for (const auto& broker : brokers) {
      const auto found = bin.ok_by_broker.find(broker);
      if (found == bin.ok_by_broker.end()) continue;
      peak = std::max(peak, static_cast<double>(found->second) / static_cast<double>(bin.seconds));
    }
  }
  const TimeAxis axis = make_time_axis(model.duration_ms);
  const double bottom = kChartTop + kPanelHeight;
  SvgWriter svg("sends-by-broker", kSvgWidth, bottom + kTimeAxisRoom,
                "Successful send attempts per second, per broker group");
  draw_time_grid(svg, axis, kChartTop, bottom);
  draw_fault_windows(svg, axis, model.faults, kChartTop, bottom);
  const double scale = draw_value_scale(
      svg, {kChartTop, kPanelHeight, "ok attempts/s", bin_note(bins), "no attempt succeeded"},
      peak);
  for (std::size_t i = 0; i < brokers.size(); ++i) {
    draw_broker_line(svg, axis, bins, brokers[i], i, scale);
  }
  return svg.finish();
}

std::string render_route_chart_svg(const PageModel& model) {
  if (model.seconds.empty()) return {};
  const TimeAxis axis = make_time_axis(model.duration_ms);
  const std::vector<Bin> bins = bin_seconds(model.seconds);
  int64_t stale_peak = 0;
  int64_t lost_peak = 0;
  for (const auto& bin : bins) {
    stale_peak = std::max(stale_peak, bin.stale_max);
    lost_peak = std::max(lost_peak, bin.lost_max);
  }
  // One scale for both panels, so their heights compare; a panel without producers says so.
  const auto shared_peak = static_cast<double>(std::max(stale_peak, lost_peak));
  const double lost_top = kChartTop + kPanelHeight + kPanelGap;
  const double bottom = lost_top + kPanelHeight;
  SvgWriter svg("producer-routes", kSvgWidth, bottom + kTimeAxisRoom,
                "Producers with a stale route and producers with a lost route, per second");
  draw_time_grid(svg, axis, kChartTop, bottom);
  draw_fault_windows(svg, axis, model.faults, kChartTop, bottom);
  draw_predicted_stale(svg, axis, model, kChartTop, kPanelHeight);
  const std::string note = bins.front().seconds <= 1 ? "" : "max of each bin";
  const double stale_scale = draw_value_scale(
      svg, {kChartTop, kPanelHeight, "stale producers", note, "no producer held a stale route"},
      stale_peak > 0 ? shared_peak : 0);
  draw_producer_steps(svg, axis, bins, kStaleSeries, kChartTop, kPanelHeight, stale_scale);
  const double lost_scale = draw_value_scale(
      svg, {lost_top, kPanelHeight, "lost producers", note, "no producer lost a route"},
      lost_peak > 0 ? shared_peak : 0);
  draw_producer_steps(svg, axis, bins, kLostSeries, lost_top, kPanelHeight, lost_scale);
  return svg.finish();
}

std::string render_sends_chart_svg(const PageModel& model) {
  if (model.seconds.empty()) return {};
  const TimeAxis axis = make_time_axis(model.duration_ms);
  const std::vector<Bin> bins = bin_seconds(model.seconds);
  double ok_peak = 0;
  double failed_peak = 0;
  for (const auto& bin : bins) {
    const auto seconds = static_cast<double>(bin.seconds);
    ok_peak = std::max(ok_peak, static_cast<double>(bin.ok) / seconds);
    failed_peak = std::max(failed_peak, static_cast<double>(bin.failed_total) / seconds);
  }
  const double failed_top = kChartTop + kPanelHeight + kPanelGap;
  const double bottom = failed_top + kPanelHeight;
  SvgWriter svg("sends", kSvgWidth, bottom + kTimeAxisRoom,
                "Sends per second: ok, and failed by cause");
  draw_time_grid(svg, axis, kChartTop, bottom);
  draw_fault_windows(svg, axis, model.faults, kChartTop, bottom);
  const double ok_scale = draw_value_scale(
      svg, {kChartTop, kPanelHeight, "ok sends/s", bin_note(bins), "no send succeeded"}, ok_peak);
  draw_ok_bars(svg, axis, bins, kChartTop, kPanelHeight, ok_scale);
  const double failed_scale = draw_value_scale(
      svg, {failed_top, kPanelHeight, "failed sends/s", bin_note(bins), "no send failed"},
      failed_peak);
  draw_failed_bars(svg, axis, bins, failed_top, kPanelHeight, failed_scale);
  return svg.finish();
}

}  // namespace nssim::reports::html

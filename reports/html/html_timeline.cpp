// File: the timeline picture of the HTML report: per faulted broker a lane of its process state and
// beneath it, per NameServer, the time the broker was in that NameServer's routes, with RocketMQ's
// predicted removal window, a marker at each detection and a striped band where the NameServer was
// missing a broker it could use. A broker no fault touched gets a lane too when a NameServer
// missed it (a NameServer restart touches no broker, yet its brokers go missing).
#include <algorithm>
#include <set>

#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"
#include "reports/html/svg_time_axis.h"

namespace nssim::reports::html {

namespace {

constexpr double kLaneHeight = 26;
constexpr double kRowHeight = 18;
constexpr double kGroupGap = 12;
constexpr double kLabelRowHeight = 15;
constexpr double kCharWidth = 6.2;  // of the 11 px label font, to keep fault labels apart
constexpr std::size_t kLabelChars = 28;

bool has_missing(const BrokerTimeline& broker) {
  return std::any_of(broker.routes.begin(), broker.routes.end(),
                     [](const RouteRow& row) { return !row.missing.empty(); });
}

bool is_drawn(const BrokerTimeline& broker) {
  return !broker.faults.empty() || has_missing(broker);
}

bool process_faulted(const NameServerTimeline& ns) {
  return std::any_of(ns.process.begin(), ns.process.end(),
                     [](const ProcessSegment& s) { return s.fault.has_value(); });
}

// Only the four states of the contract get their colour; anything else is drawn neutral.
std::string state_class(const std::string& state) {
  static const std::set<std::string> kStates = {"not_started", "up", "paused", "down"};
  return kStates.count(state) > 0 ? "state state-" + state : "state state-other";
}

std::string short_label(const std::string& name) {
  if (name.size() <= kLabelChars) return name;
  return name.substr(0, kLabelChars - 1) + "\u2026";
}

// "faults[0] poweroff broker-a-0", shortened: the tooltip has the whole story.
std::string fault_label(const FaultWindow& fault) {
  return fault_name(fault) + " " + short_label(fault.targets);
}

struct LabelSpot {
  double text_x = 0;
  double left = 0;  // the room the label takes, estimated from its length
  double right = 0;
  bool end_anchored = false;  // near the right edge the label ends at its line instead
};

LabelSpot fault_label_spot(const TimeAxis& axis, const FaultWindow& fault) {
  const double line_x = axis.x(fault.span.start_ms);
  const double width = kCharWidth * static_cast<double>(fault_label(fault).size() + 2);
  const bool end_anchored = line_x + width > kSvgWidth;
  const double left = end_anchored ? line_x - width : line_x;
  return {end_anchored ? line_x - 3 : line_x + 3, left, left + width, end_anchored};
}

// Greedy rows for the fault labels at the top, so overlapping faults do not overwrite each other.
std::vector<int> fault_label_rows(const PageModel& model, const TimeAxis& axis, int& row_count) {
  std::vector<double> row_end;
  std::vector<int> rows;
  for (const auto& fault : model.faults) {
    const LabelSpot spot = fault_label_spot(axis, fault);
    std::size_t row = 0;
    while (row < row_end.size() && row_end[row] > spot.left) ++row;
    if (row == row_end.size()) row_end.push_back(0);
    row_end[row] = spot.right;
    rows.push_back(static_cast<int>(row));
  }
  row_count = static_cast<int>(row_end.size());
  return rows;
}

std::string segment_title(const std::string& node, const ProcessSegment& segment,
                          const PageModel& model) {
  std::string title = node + " " + segment.state + " " + duration_text(segment.span.start_ms) +
                      " to " + duration_text(segment.span.end_ms);
  if (segment.fault) {
    for (const auto& fault : model.faults) {
      if (fault.index == *segment.fault) title += " (" + fault_name(fault) + ")";
    }
  }
  return title;
}

// `about` is the lane label's tooltip: the node's full name and what else identifies it.
void draw_process_lane(SvgWriter& svg, const TimeAxis& axis, const PageModel& model,
                       const std::string& node, const std::string& about,
                       const std::vector<ProcessSegment>& process, double y) {
  svg.text(kPlotLeft - 8, y + 17, "lane-label", short_label(node), about);
  for (const auto& segment : process) {
    const double x = axis.x(segment.span.start_ms);
    const double width = axis.x(segment.span.end_ms) - x;
    const std::string title = segment_title(node, segment, model);
    svg.rect({x, y + 2, width, kLaneHeight - 4}, state_class(segment.state), title);
    if (width > 60) {
      const bool light = segment.state == "not_started";
      svg.text(x + 4, y + 17, light ? "state-text dark" : "state-text",
               light ? "not started" : segment.state, title);
    }
  }
}

std::string detection_title(const PageModel& model, const BrokerTimeline& broker,
                            const Detection& detection) {
  std::string title = detection.nameserver + " dropped " + detection.broker_node + " (" +
                      detection.broker_addr + ") by " + detection.path + " at " +
                      duration_text(detection.t_ms);
  if (const FaultWindow* fault = fault_before(model, broker, detection.t_ms)) {
    title += ", " + duration_text(detection.t_ms - fault->span.start_ms) + " after the fault (" +
             fault_name(*fault) + ")";
  }
  return title;
}

void draw_predicted_removals(SvgWriter& svg, const TimeAxis& axis, const PageModel& model,
                             const BrokerTimeline& broker, const RouteRow& row, double y) {
  for (const auto& prediction : model.predictions) {
    if (!prediction.removal || std::find(prediction.brokers.begin(), prediction.brokers.end(),
                                         broker.node) == prediction.brokers.end()) {
      continue;
    }
    const TimeSpan& span = *prediction.removal;
    const double x = axis.x(span.start_ms);
    svg.rect({x, y, std::max(1.0, axis.x(span.end_ms) - x), kRowHeight}, "predicted",
             "RocketMQ's rules predict " + row.nameserver + " drops " + broker.node + " between " +
                 duration_text(span.start_ms) + " and " + duration_text(span.end_ms) + " (faults[" +
                 std::to_string(prediction.fault) + "])");
  }
}

std::string missing_title(const BrokerTimeline& broker, const RouteRow& row,
                          const MissingStretch& stretch) {
  const std::string from = row.nameserver + " was missing " + broker.node +
                           " from its routes from " + duration_text(stretch.span.start_ms) + " to ";
  if (stretch.open) return from + "the end of the run (" + stretch.cause + ")";
  return from + duration_text(stretch.span.end_ms) + " (" +
         duration_text(stretch.span.end_ms - stretch.span.start_ms) + ", " + stretch.cause + ")";
}

// A light amber band with dense vertical stripes (a dashed thick line), so it reads as "missing"
// beside the solid in-route band even without colour.
void draw_missing_stretches(SvgWriter& svg, const TimeAxis& axis, const BrokerTimeline& broker,
                            const RouteRow& row, double y) {
  for (const auto& stretch : row.missing) {
    const double x = axis.x(stretch.span.start_ms);
    const double width = std::max(1.0, axis.x(stretch.span.end_ms) - x);
    svg.open_group("missing", missing_title(broker, row, stretch));
    svg.rect({x, y + 3, width, kRowHeight - 6}, "missing-band");
    svg.line(x, y + kRowHeight / 2, x + width, y + kRowHeight / 2, "missing-stripes");
    svg.close_group();
  }
}

void draw_route_row(SvgWriter& svg, const TimeAxis& axis, const PageModel& model,
                    const BrokerTimeline& broker, const RouteRow& row, double y) {
  svg.text(kPlotLeft - 8, y + 13, "row-label", "in " + short_label(row.nameserver) + " routes",
           row.nameserver);
  draw_predicted_removals(svg, axis, model, broker, row, y);
  for (const auto& span : row.in_routes) {
    const double x = axis.x(span.start_ms);
    svg.rect({x, y + 4, std::max(0.5, axis.x(span.end_ms) - x), kRowHeight - 8}, "in-route",
             broker.node + " in " + row.nameserver + "'s routes " + duration_text(span.start_ms) +
                 " to " + duration_text(span.end_ms));
  }
  draw_missing_stretches(svg, axis, broker, row, y);
  for (const auto& detection : model.detections) {
    if (detection.nameserver != row.nameserver || detection.broker_node != broker.node) continue;
    svg.path(
        marker_path(detection_shape(detection.path), axis.x(detection.t_ms), y + kRowHeight / 2, 6),
        "detection " + detection_class(detection.path), detection_title(model, broker, detection));
  }
}

double broker_height(const BrokerTimeline& broker) {
  return kLaneHeight + static_cast<double>(broker.routes.size()) * kRowHeight + kGroupGap;
}

void draw_fault_labels(SvgWriter& svg, const TimeAxis& axis, const PageModel& model,
                       const std::vector<int>& rows) {
  for (std::size_t i = 0; i < model.faults.size(); ++i) {
    const FaultWindow& fault = model.faults[i];
    const LabelSpot spot = fault_label_spot(axis, fault);
    svg.text(spot.text_x, kLabelRowHeight * (rows[i] + 1) - 3,
             spot.end_anchored ? "fault-label end" : "fault-label", fault_label(fault),
             fault_title(fault));
  }
}

}  // namespace

std::string render_timeline_svg(const PageModel& model) {
  const TimeAxis axis = make_time_axis(model.duration_ms);
  int label_rows = 0;
  const std::vector<int> rows = fault_label_rows(model, axis, label_rows);
  const double top = kLabelRowHeight * label_rows + 4;
  double bottom = top;
  for (const auto& broker : model.brokers) {
    if (is_drawn(broker)) bottom += broker_height(broker);
  }
  for (const auto& ns : model.nameservers) {
    if (process_faulted(ns)) bottom += kLaneHeight + kGroupGap;
  }
  if (bottom == top) return {};  // no lane to draw
  SvgWriter svg("timeline", kSvgWidth, bottom + kTimeAxisRoom,
                "Timeline: process state of each faulted or missed broker, when each NameServer "
                "held it in its routes and when a NameServer was missing it");
  draw_time_grid(svg, axis, top, bottom);
  draw_fault_windows(svg, axis, model.faults, top, bottom);
  draw_fault_labels(svg, axis, model, rows);
  double y = top + 4;
  for (const auto& broker : model.brokers) {
    if (!is_drawn(broker)) continue;
    draw_process_lane(svg, axis, model, broker.node,
                      broker.node + " (" + broker.broker_name + ", brokerId " +
                          std::to_string(broker.broker_id) + ", " + broker.addr + ")",
                      broker.process, y);
    double row_y = y + kLaneHeight;
    for (const auto& row : broker.routes) {
      draw_route_row(svg, axis, model, broker, row, row_y);
      row_y += kRowHeight;
    }
    y += broker_height(broker);
  }
  for (const auto& ns : model.nameservers) {
    if (!process_faulted(ns)) continue;
    draw_process_lane(svg, axis, model, ns.node, ns.node + " (NameServer)", ns.process, y);
    y += kLaneHeight + kGroupGap;
  }
  return svg.finish();
}

std::string render_untouched_brokers(const PageModel& model) {
  std::vector<std::string> names;
  std::vector<std::string> left_routes;
  for (const auto& broker : model.brokers) {
    if (is_drawn(broker)) continue;
    names.push_back(broker.node);
    const bool steady =
        std::all_of(broker.routes.begin(), broker.routes.end(), [&](const RouteRow& row) {
          return row.in_routes.size() == 1 && row.in_routes[0].end_ms == model.duration_ms;
        });
    if (!steady) left_routes.push_back(broker.node);
  }
  if (names.empty()) return {};
  const auto list = [](const std::vector<std::string>& items) {
    constexpr std::size_t kShown = 8;
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < kShown; ++i) {
      out += (i > 0 ? ", " : "") + html_escape(items[i]);
    }
    if (items.size() > kShown) out += " and " + std::to_string(items.size() - kShown) + " more";
    return out;
  };
  std::string text =
      "<p class=\"note\">" + std::to_string(names.size()) +
      (names.size() == 1 ? " broker that no fault touched and no NameServer missed is"
                         : " brokers that no fault touched and no NameServer missed are") +
      " not drawn (" + list(names) + "). ";
  if (left_routes.empty()) {
    text += "Each stayed in every NameServer's routes from its registration to the end.";
  } else {
    text += "Of these, " + list(left_routes) + " left some NameServer's routes for a while.";
  }
  return text + "</p>\n";
}

}  // namespace nssim::reports::html

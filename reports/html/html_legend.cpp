// File: the look of each kind of mark (detection path shapes and colours, failure cause colours)
// and the legend that explains them, so the pictures read without the tables.
#include <algorithm>
#include <set>

#include "reports/html/html_escape.h"
#include "reports/html/html_sections.h"

namespace nssim::reports::html {

namespace {

struct PathLook {
  const char* path;
  MarkerShape shape;
};

constexpr PathLook kPaths[] = {{"idle_close", MarkerShape::kCircle},
                               {"scan_expiry", MarkerShape::kTriangleUp},
                               {"connection_close", MarkerShape::kSquare},
                               {"connection_exception", MarkerShape::kDiamond},
                               {"unregister", MarkerShape::kTriangleDown}};

const std::set<std::string> kCauses = {"connect_timeout",  "connect_refused",     "request_timeout",
                                       "connection_reset", "send_timeout_budget", "no_route",
                                       "broker_error"};

std::string item(const std::string& swatch, const std::string& text) {
  return "<span class=\"item\">" + swatch + html_escape(text) + "</span>\n";
}

std::string line_swatch(const char* css_class) {
  return std::string(
             "<svg class=\"swatch\" viewBox=\"0 0 14 14\" aria-hidden=\"true\"><line "
             "class=\"") +
         css_class + "\" x1=\"7\" y1=\"0\" x2=\"7\" y2=\"14\"/></svg>";
}

// The timeline's missing band: the light fill and the stripes.
std::string missing_swatch() {
  return "<svg class=\"swatch\" viewBox=\"0 0 14 14\" aria-hidden=\"true\"><rect "
         "class=\"missing-band\" x=\"1\" y=\"2\" width=\"12\" height=\"10\"/><line "
         "class=\"missing-stripes\" x1=\"1\" y1=\"7\" x2=\"13\" y2=\"7\"/></svg>";
}

}  // namespace

MarkerShape detection_shape(const std::string& path) {
  for (const auto& look : kPaths) {
    if (path == look.path) return look.shape;
  }
  return MarkerShape::kCircle;
}

std::string detection_class(const std::string& path) {
  for (const auto& look : kPaths) {
    if (path == look.path) return std::string("path-") + look.path;
  }
  return "path-other";
}

std::string cause_class(const std::string& cause) {
  return kCauses.count(cause) > 0 ? "cause-" + cause : "cause-other";
}

std::string render_legend(const PageModel& model) {
  std::set<std::string> causes;
  for (const auto& second : model.seconds) {
    for (const auto& [cause, n] : second.failed) causes.insert(cause);
  }
  std::string html = "<div class=\"legend\" id=\"legend\">\n<div class=\"group\">";
  html += item(svg_swatch("state state-up"), "up") +
          item(svg_swatch("state state-paused"), "paused") +
          item(svg_swatch("state state-down"), "down") +
          item(svg_swatch("state state-not_started"), "not started") +
          item(svg_swatch("in-route"), "in the NameServer's routes") +
          item(missing_swatch(), "missing from the NameServer's routes") + "</div>\n";
  html += "<div class=\"group\">" + item(svg_swatch("fault-shade legend-shade"), "fault window") +
          item(line_swatch("fault-line"), "fault start / end");
  // The predicted swatch only where a window is drawn: none for a fault too short for the rules.
  const bool any_predicted =
      std::any_of(model.predictions.begin(), model.predictions.end(),
                  [](const OutagePrediction& p) { return p.removal || p.stale_route; });
  if (any_predicted) html += item(svg_swatch("predicted"), "predicted by RocketMQ's rules");
  html += "</div>\n";
  html += "<div class=\"group\">NameServer dropped the broker by:";
  for (const auto& look : kPaths) {
    html +=
        item(svg_marker_swatch(look.shape, "detection " + detection_class(look.path)), look.path);
  }
  html +=
      "</div>\n<div class=\"group\">" + item(svg_swatch("stale"), "producers with a stale route") +
      item(svg_swatch("lost"), "producers with a lost route") + item(svg_swatch("ok"), "ok sends");
  for (const auto& cause : causes) html += item(svg_swatch(cause_class(cause)), "failed: " + cause);
  return html + "</div>\n</div>\n";
}

}  // namespace nssim::reports::html

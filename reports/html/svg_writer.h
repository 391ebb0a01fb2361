// File: a tiny SVG writer for the HTML report. Every attribute and text goes through html_escape
// and every coordinate through fixed-precision formatting, so pictures are safe and byte-stable.
#pragma once

#include <string>
#include <string_view>

namespace nssim::reports::html {

struct Box {
  double x = 0;
  double y = 0;
  double width = 0;
  double height = 0;
};

enum class MarkerShape { kCircle, kSquare, kTriangleUp, kDiamond, kTriangleDown };

// An SVG path ("M..Z") for a marker of half-size r centred on (x, y).
std::string marker_path(MarkerShape shape, double x, double y, double r);

// A coordinate or length with one decimal.
std::string svg_number(double value);

class SvgWriter {
 public:
  // A responsive <svg> (viewBox, no fixed size) with an accessible label.
  SvgWriter(std::string_view id, double width, double height, std::string_view label);

  // Every mark may carry a title: the browser shows it as a tooltip on hover.
  void rect(const Box& box, std::string_view css_class, std::string_view title = {});
  void line(double x1, double y1, double x2, double y2, std::string_view css_class,
            std::string_view title = {});
  void path(std::string_view d, std::string_view css_class, std::string_view title = {});
  void text(double x, double y, std::string_view css_class, std::string_view content,
            std::string_view title = {});
  void open_group(std::string_view css_class, std::string_view title = {});
  void close_group();

  std::string finish();

 private:
  void close_mark(std::string_view element, std::string_view title);

  std::string out_;
};

// A small stand-alone swatch (legend entry): a rect of the class, or a marker when shaped.
std::string svg_swatch(std::string_view css_class);
std::string svg_marker_swatch(MarkerShape shape, std::string_view css_class);

}  // namespace nssim::reports::html

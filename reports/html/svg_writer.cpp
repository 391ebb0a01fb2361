// File: SvgWriter and the marker shapes (see svg_writer.h).
#include "reports/html/svg_writer.h"

#include "reports/html/html_escape.h"

namespace nssim::reports::html {

std::string svg_number(double value) { return format_fixed(value, 1); }

std::string marker_path(MarkerShape shape, double x, double y, double r) {
  const auto p = [](double px, double py) { return svg_number(px) + " " + svg_number(py); };
  switch (shape) {
    case MarkerShape::kCircle:
      return "M" + p(x - r, y) + "a" + p(r, r) + " 0 1 0 " + p(2 * r, 0) + "a" + p(r, r) +
             " 0 1 0 " + p(-2 * r, 0) + "Z";
    case MarkerShape::kSquare:
      return "M" + p(x - r, y - r) + "H" + svg_number(x + r) + "V" + svg_number(y + r) + "H" +
             svg_number(x - r) + "Z";
    case MarkerShape::kTriangleUp:
      return "M" + p(x, y - r * 1.2) + "L" + p(x + r * 1.1, y + r) + "L" + p(x - r * 1.1, y + r) +
             "Z";
    case MarkerShape::kDiamond:
      return "M" + p(x, y - r * 1.3) + "L" + p(x + r, y) + "L" + p(x, y + r * 1.3) + "L" +
             p(x - r, y) + "Z";
    case MarkerShape::kTriangleDown:
      return "M" + p(x, y + r * 1.2) + "L" + p(x + r * 1.1, y - r) + "L" + p(x - r * 1.1, y - r) +
             "Z";
  }
  return {};
}

SvgWriter::SvgWriter(std::string_view id, double width, double height, std::string_view label) {
  out_ = "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"" + html_escape(id) + "\" viewBox=\"0 0 " +
         svg_number(width) + " " + svg_number(height) + "\" role=\"img\" aria-label=\"" +
         html_escape(label) + "\">\n";
}

void SvgWriter::close_mark(std::string_view element, std::string_view title) {
  if (title.empty()) {
    out_ += "/>\n";
    return;
  }
  out_ += "><title>" + html_escape(title) + "</title></" + std::string(element) + ">\n";
}

void SvgWriter::rect(const Box& box, std::string_view css_class, std::string_view title) {
  out_ += "<rect class=\"" + html_escape(css_class) + "\" x=\"" + svg_number(box.x) + "\" y=\"" +
          svg_number(box.y) + "\" width=\"" + svg_number(box.width) + "\" height=\"" +
          svg_number(box.height) + "\"";
  close_mark("rect", title);
}

void SvgWriter::line(double x1, double y1, double x2, double y2, std::string_view css_class,
                     std::string_view title) {
  out_ += "<line class=\"" + html_escape(css_class) + "\" x1=\"" + svg_number(x1) + "\" y1=\"" +
          svg_number(y1) + "\" x2=\"" + svg_number(x2) + "\" y2=\"" + svg_number(y2) + "\"";
  close_mark("line", title);
}

void SvgWriter::path(std::string_view d, std::string_view css_class, std::string_view title) {
  out_ += "<path class=\"" + html_escape(css_class) + "\" d=\"" + html_escape(d) + "\"";
  close_mark("path", title);
}

void SvgWriter::text(double x, double y, std::string_view css_class, std::string_view content,
                     std::string_view title) {
  out_ += "<text class=\"" + html_escape(css_class) + "\" x=\"" + svg_number(x) + "\" y=\"" +
          svg_number(y) + "\">";
  if (!title.empty()) out_ += "<title>" + html_escape(title) + "</title>";
  out_ += html_escape(content) + "</text>\n";
}

void SvgWriter::open_group(std::string_view css_class, std::string_view title) {
  out_ += "<g class=\"" + html_escape(css_class) + "\">";
  if (!title.empty()) out_ += "<title>" + html_escape(title) + "</title>";
  out_ += "\n";
}

void SvgWriter::close_group() { out_ += "</g>\n"; }

std::string SvgWriter::finish() { return std::move(out_) + "</svg>\n"; }

std::string svg_swatch(std::string_view css_class) {
  return "<svg class=\"swatch\" viewBox=\"0 0 14 14\" aria-hidden=\"true\"><rect class=\"" +
         html_escape(css_class) + "\" x=\"1\" y=\"2\" width=\"12\" height=\"10\"/></svg>";
}

std::string svg_marker_swatch(MarkerShape shape, std::string_view css_class) {
  return "<svg class=\"swatch\" viewBox=\"0 0 14 14\" aria-hidden=\"true\"><path class=\"" +
         html_escape(css_class) + "\" d=\"" + marker_path(shape, 7, 7, 4.5) + "\"/></svg>";
}

}  // namespace nssim::reports::html

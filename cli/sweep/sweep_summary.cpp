// File: print_sweep_summary (see sweep_summary.h). Reads only sweep.json fields.
#include "cli/sweep/sweep_summary.h"

#include <string>

#include "cli/verdict_lines.h"
#include "reports/duration_text.h"
#include "reports/report_field.h"

namespace nssim::cli {

namespace {

using reports::field;
using reports::plain_text;

std::string count(const nlohmann::json& value) { return value.is_number() ? value.dump() : "n/a"; }

void print_distribution(std::ostream& out, const nlohmann::json& point, const std::string& figure,
                        const char* caption, bool time, const nlohmann::json& bounds) {
  const auto& d = field(field(point, "figures"), figure);
  if (d.is_null()) return;
  const auto show = [time](const nlohmann::json& v) {
    return time ? reports::duration_text(v, "n/a") : count(v);
  };
  out << "  " << caption << ": p50 " << show(field(d, "p50")) << " / p99 " << show(field(d, "p99"))
      << " / max " << show(field(d, "max"));
  if (field(d, "never").is_number() && field(d, "never").get<long long>() > 0) {
    out << ", none in " << field(d, "never").get<long long>() << " seeds";
  }
  if (bounds.is_object()) {
    out << " (predicted " << reports::duration_text(field(bounds, "min_ms"), "n/a") << " .. "
        << reports::duration_text(field(bounds, "max_ms"), "n/a") << ")";
  }
  out << "\n";
}

void print_point(std::ostream& out, const nlohmann::json& point, bool grid, bool colour) {
  if (grid) out << "point " << plain_text(field(point, "label")) << ":\n";
  for (const auto& outage : field(point, "outages")) {
    const std::string prefix = "outages[" + field(outage, "index").dump() + "]";
    out << prefix << " (faults[" << field(outage, "fault").dump()
        << "]): " << plain_text(field(outage, "kind")) << " of " << field(outage, "brokers").dump()
        << "\n";
    const auto& predicted = field(outage, "predicted");
    print_distribution(out, point, prefix + ".nameserver_drop_ms.max", "last NameServer drop", true,
                       field(predicted, "nameserver_removal_ms"));
    print_distribution(out, point, prefix + ".producers.stale_route_ms.max",
                       "slowest producer's stale route", true,
                       field(predicted, "producer_stale_route_ms"));
    print_distribution(out, point, prefix + ".route_health.lost.max", "longest lost route", true,
                       nullptr);
    print_distribution(out, point, prefix + ".sends.failed.total", "failed sends", false, nullptr);
    const auto& worst = field(field(point, "figures"), prefix + ".producers.stale_route_ms.max");
    if (field(worst, "max_command").is_string()) {
      out << "  worst stale route: " << field(worst, "max_command").get<std::string>() << "\n";
    }
  }
  for (const auto& e : field(point, "expectations")) {
    const bool passed = field(e, "passed") == true;
    out << painted(expectation_line(passed, plain_text(field(e, "source")),
                                    plain_text(field(e, "message"))),
                   colour)
        << "\n";
    if (!passed && field(e, "worst_command").is_string()) {
      out << "    worst seed: " << field(e, "worst_command").get<std::string>() << "\n";
    }
  }
  // After the expectations, so they stay under the outages: the whole run's route windows
  // (reports/README.md "Route health"), when the sweep has them.
  if (field(field(point, "figures"), "route_health.stale.max").is_object()) {
    out << "whole run:\n";
    print_distribution(out, point, "route_health.stale.max", "longest stale route", true, nullptr);
    print_distribution(out, point, "route_health.lost.max", "longest lost route", true, nullptr);
    print_distribution(out, point, "route_health.missing.max",
                       "longest missing broker at a NameServer", true, nullptr);
  }
}

}  // namespace

void print_sweep_summary(std::ostream& out, const nlohmann::json& sweep, bool colour) {
  const auto& points = field(sweep, "points");
  for (const auto& point : points) print_point(out, point, points.size() > 1, colour);
}

}  // namespace nssim::cli

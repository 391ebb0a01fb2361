// File: render_sweep_markdown (see sweep_files.h). Headline windows first, as an operator asks
// "how long, at worst, and is that what RocketMQ's rules predict", then every figure folded away.
#include <cmath>
#include <optional>
#include <vector>

#include "reports/markdown/markdown_format.h"
#include "reports/sweep/sweep_document.h"
#include "reports/sweep/sweep_figures.h"
#include "reports/sweep/sweep_files.h"

namespace nssim::reports {

namespace {

using markdown::number_text;
using markdown::range_text;
using markdown::string_text;
using markdown::table;
using markdown::verdict_text;

struct Headline {
  const char* figure;     // under outages[i]
  const char* caption;    // what one seed contributes
  const char* predicted;  // key of outages[i].predicted, or ""
  const char* inside;     // within_predicted figure, or ""
  bool is_time;
};

constexpr Headline kHeadlines[] = {
    {"nameserver_drop_ms.min", "first NameServer drops the broker", "nameserver_removal_ms", "",
     true},
    {"nameserver_drop_ms.max", "last NameServer drops the broker", "nameserver_removal_ms",
     "within_predicted.nameserver_removal_ms", true},
    {"producers.stale_route_ms.p50", "median producer's stale route", "producer_stale_route_ms", "",
     true},
    {"producers.stale_route_ms.max", "slowest producer's stale route", "producer_stale_route_ms",
     "within_predicted.producer_stale_route_ms", true},
    {"route_health.lost.max", "longest lost route the outage opened", "", "", true},
    {"sends.failed.total", "failed sends in the outage window", "", "", false},
};

// The whole run's route windows, one row each (reports/README.md "Route health").
constexpr Headline kRunHeadlines[] = {
    {"route_health.stale.max", "longest stale route", "", "", true},
    {"route_health.lost.max", "longest lost route", "", "", true},
    {"route_health.missing.max", "longest missing broker at a NameServer", "", "", true},
};

const std::vector<std::string> kHeadlineHeader = {
    "each seed's",     "n", "never", "min", "p50", "p90", "p99", "max", "predicted", "seeds inside",
    "worst (max) seed"};

std::string value_text(const nlohmann::json& value, bool is_time) {
  return is_time ? duration_text(value, "never") : number_text(value);
}

std::string share_text(const nlohmann::json& figure) {
  const auto& mean = field(figure, "mean");
  if (!mean.is_number()) return "";
  return markdown::number_text(nlohmann::json(std::round(mean.get<double>() * 1000) / 10)) + " %";
}

std::string header(const nlohmann::json& sweep) {
  const auto& scenario = field(sweep, "scenario");
  const auto& seeds = field(sweep, "seeds");
  std::string text = "# " + string_text(field(scenario, "name")) + " sweep (seeds " +
                     number_text(field(seeds, "first")) + ".." + number_text(field(seeds, "last")) +
                     ", " + number_text(field(sweep, "runs")) +
                     " runs): " + verdict_text(sweep_verdict(sweep)) + "\n\n";
  text += string_text(field(scenario, "description")) + "\n\n";
  text += "Scenario `" + string_text(field(scenario, "file")) + "`, profile " +
          string_text(field(scenario, "profile")) + ", nssim " +
          string_text(field(sweep, "nssim_version")) + ".";
  for (const auto& set : field(sweep, "set")) text += " `--set " + string_text(set) + "`";
  for (const auto& axis : field(sweep, "grid")) {
    std::string values;
    for (const auto& value : field(axis, "values")) {
      values += (values.empty() ? "" : ", ") + string_text(value);
    }
    text += " Grid: `" + string_text(field(axis, "path")) + "` in " + values + ".";
  }
  return text + "\n\n";
}

std::string expectations(const nlohmann::json& point) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& e : field(point, "expectations")) {
    const bool passed = field(e, "passed") == true;
    rows.push_back({passed ? "pass" : "FAIL", "`" + string_text(field(e, "source")) + "`",
                    number_text(field(e, "measured")), string_text(field(e, "message")),
                    passed ? "" : "`" + string_text(field(e, "worst_command")) + "`"});
  }
  if (rows.empty()) return "";
  return "#### Sweep expectations\n\n" +
         table({"", "expectation", "measured", "message", "worst seed"}, rows);
}

// One headline's row: the distribution over the seeds of the figure `prefix + headline.figure`,
// beside the outage's prediction (none for the whole run); no row when the sweep lacks the figure.
std::optional<std::vector<std::string>> headline_row(const nlohmann::json& point,
                                                     const std::string& prefix,
                                                     const Headline& headline,
                                                     const nlohmann::json& predicted) {
  const auto& figure = field(field(point, "figures"), prefix + headline.figure);
  if (figure.is_null()) return std::nullopt;
  const auto& bounds = field(predicted, headline.predicted);
  const auto& inside = field(field(point, "figures"), prefix + headline.inside);
  std::vector<std::string> row = {headline.caption, number_text(field(figure, "n")),
                                  number_text(field(figure, "never"))};
  for (const char* stat : {"min", "p50", "p90", "p99", "max"}) {
    row.push_back(value_text(field(figure, stat), headline.is_time));
  }
  row.push_back(bounds.is_object() ? range_text(bounds) : "");
  row.push_back(share_text(inside));
  row.push_back(field(figure, "max_command").is_string()
                    ? "`" + string_text(field(figure, "max_command")) + "`"
                    : "");
  return row;
}

std::string outage_section(const nlohmann::json& point, const nlohmann::json& outage) {
  const std::string prefix = "outages[" + number_text(field(outage, "index")) + "].";
  std::string brokers;
  for (const auto& broker : field(outage, "brokers")) {
    brokers += (brokers.empty() ? "" : ", ") + string_text(broker);
  }
  std::string text = "#### " + prefix.substr(0, prefix.size() - 1) + ": " +
                     string_text(field(outage, "kind")) + " of " + brokers + " (faults[" +
                     number_text(field(outage, "fault")) + "])\n\n";
  std::vector<std::vector<std::string>> rows;
  for (const auto& headline : kHeadlines) {
    if (auto row = headline_row(point, prefix, headline, field(outage, "predicted"))) {
      rows.push_back(std::move(*row));
    }
  }
  return text + table(kHeadlineHeader, rows);
}

// The whole run's route windows: each seed's longest stale, lost and missing window; then, when
// the runs have them, the client scheduler's headlines.
std::string run_section(const nlohmann::json& point) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& headline : kRunHeadlines) {
    if (auto row = headline_row(point, "", headline, nullptr)) rows.push_back(std::move(*row));
  }
  std::string text =
      rows.empty() ? "" : "#### Whole run: route windows\n\n" + table(kHeadlineHeader, rows);
  rows.clear();
  for (const auto& scheduler : kSchedulerHeadlines) {
    const Headline headline = {scheduler.figure, scheduler.caption, "", "", true};
    if (auto row = headline_row(point, "", headline, nullptr)) rows.push_back(std::move(*row));
  }
  if (rows.empty()) return text;
  return text + "#### Whole run: client scheduler\n\n" + table(kHeadlineHeader, rows);
}

std::string all_figures(const nlohmann::json& point) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& [name, figure] : field(point, "figures").items()) {
    rows.push_back({name, number_text(field(figure, "n")), number_text(field(figure, "never")),
                    number_text(field(figure, "min")), number_text(field(figure, "p50")),
                    number_text(field(figure, "p90")), number_text(field(figure, "p99")),
                    number_text(field(figure, "max")), number_text(field(figure, "mean"))});
  }
  return "<details><summary>Every figure (" + std::to_string(rows.size()) + ")</summary>\n\n" +
         table({"figure", "n", "never", "min", "p50", "p90", "p99", "max", "mean"}, rows) +
         "</details>\n\n";
}

std::string point_section(const nlohmann::json& point, bool grid) {
  const auto& verdicts = field(point, "run_verdicts");
  std::string text = grid ? "## " + string_text(field(point, "label")) + "\n\n" : "";
  text += "Runs: " + number_text(field(point, "runs")) + "; the scenario's own expectations " +
          "passed in " + number_text(field(verdicts, "pass")) + ", failed in " +
          number_text(field(verdicts, "fail")) + ". Repeat one: `" +
          string_text(field(point, "command")) + " --seed N`.\n\n";
  text += expectations(point);
  for (const auto& outage : field(point, "outages")) text += outage_section(point, outage);
  return text + run_section(point) + all_figures(point);
}

}  // namespace

std::string render_sweep_markdown(const nlohmann::json& sweep) {
  std::string text = header(sweep);
  const auto& points = field(sweep, "points");
  for (const auto& point : points) text += point_section(point, points.size() > 1);
  text +=
      "Percentiles are nearest-rank over the seeds with a value; *never* counts the seeds "
      "without one. Times are after the fault began. *seeds inside*: the share of seeds in "
      "which every value fell inside RocketMQ's predicted window.\n";
  return text;
}

}  // namespace nssim::reports

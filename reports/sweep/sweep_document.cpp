// File: build_sweep (see sweep_document.h): slices the records by grid point, builds each
// figure's distribution and evaluates the sweep expectations on them.
#include "reports/sweep/sweep_document.h"

#include <set>

#include "reports/expectations.h"
#include "reports/report_field.h"
#include "reports/sweep/sweep_stats.h"

namespace nssim::reports {

namespace {

using nlohmann::json;

// The runs of one point, in seed order.
struct PointRuns {
  const SweepPlan& plan;
  const SweepPoint& point;
  std::vector<const SeedRecord*> records;

  std::string command(std::size_t run) const {
    return point.command + " --seed " + std::to_string(records[run]->seed);
  }
  std::vector<std::optional<double>> values(const std::string& figure) const {
    std::vector<std::optional<double>> values;
    for (const SeedRecord* record : records) {
      const auto found = record->figures.find(figure);
      values.push_back(found == record->figures.end() ? std::nullopt : found->second);
    }
    return values;
  }
};

json optional_number(const std::optional<double>& value) {
  return value ? figure_json(*value) : json(nullptr);
}

json histogram_json(const Histogram& histogram) {
  return {{"lo", figure_json(histogram.lo)},
          {"width", figure_json(histogram.width)},
          {"counts", histogram.counts}};
}

json figure_entry(const PointRuns& runs, const Distribution& d) {
  json entry = {{"n", d.n}, {"never", d.never}};
  for (const char* stat : {"min", "p50", "p90", "p99", "max", "mean"}) {
    entry[stat] = optional_number(statistic(d, stat));
  }
  entry["histogram"] = d.n > 0 ? histogram_json(d.histogram) : json(nullptr);
  entry["min_seed"] = d.n > 0 ? json(runs.records[d.min_run]->seed) : json(nullptr);
  entry["max_seed"] = d.n > 0 ? json(runs.records[d.max_run]->seed) : json(nullptr);
  entry["min_command"] = d.n > 0 ? json(runs.command(d.min_run)) : json(nullptr);
  entry["max_command"] = d.n > 0 ? json(runs.command(d.max_run)) : json(nullptr);
  return entry;
}

// The run that best shows a failure of `measured op expected`: the largest value against an
// upper bound, the smallest against a lower one, a run without a value for n and never.
std::optional<std::size_t> worst_run(const Distribution& d,
                                     const std::vector<std::optional<double>>& values,
                                     const SweepExpectationInput& input, double measured,
                                     double expected) {
  if (input.stat == "n" || input.stat == "never") {
    for (std::size_t run = 0; run < values.size(); ++run) {
      if (!values[run]) return run;
    }
    return std::nullopt;
  }
  if (d.n == 0) return std::nullopt;
  const bool upper = input.op == "<" || input.op == "<=" ||
                     ((input.op == "==" || input.op == "!=") && measured >= expected);
  return upper ? d.max_run : d.min_run;
}

// "predicted.x" beside "outages[2].y" is outages[2]'s predicted x, as in a run's expectations.
std::optional<double> expected_of(const SweepExpectationInput& input, const json& outages,
                                  std::string& unresolved) {
  if (input.value.rfind("predicted.", 0) != 0) return std::strtod(input.value.c_str(), nullptr);
  const auto close = input.figure.find(']');
  if (input.figure.rfind("outages[", 0) != 0 || close == std::string::npos) {
    unresolved = input.value + " needs a figure inside outages[i]";
    return std::nullopt;
  }
  const auto value =
      figure_at(json{{"outages", outages}}, input.figure.substr(0, close + 1) + "." + input.value);
  if (!value || !value->is_number()) {
    unresolved = input.figure.substr(0, close + 1) + "." + input.value + " is not in the sweep";
    return std::nullopt;
  }
  return value->get<double>();
}

json expectation_entry(const PointRuns& runs, const SweepExpectationInput& input,
                       const json& outages, bool known_figure) {
  const auto values = runs.values(input.figure);
  const Distribution d = distribution_of(values);
  std::string unresolved;
  const auto expected = expected_of(input, outages, unresolved);
  std::optional<double> measured;
  if (known_figure) measured = statistic(d, input.stat);
  const std::string name = input.figure + ":" + input.stat;
  json entry = {{"source", input.source},
                {"figure", input.figure},
                {"stat", input.stat},
                {"op", input.op},
                {"value", input.value},
                {"expected", optional_number(expected)},
                {"measured", optional_number(measured)},
                {"passed", false},
                {"worst_seed", nullptr},
                {"worst_command", nullptr}};
  if (!known_figure) {
    entry["message"] = input.figure + " is not a figure of this sweep";
  } else if (!measured) {
    entry["message"] = name + " has no value (no run has " + input.figure + ")";
  } else if (!expected) {
    entry["message"] = unresolved;
  } else {
    const bool passed = compare_values(*measured, input.op, *expected);
    std::string message = name + " = " + number_text(*measured) + ", expected " + input.op + " " +
                          number_text(*expected);
    if (!passed) message += " (off by " + number_text(*measured - *expected) + ")";
    entry["passed"] = passed;
    entry["message"] = message;
    if (const auto run = worst_run(d, values, input, *measured, *expected)) {
      entry["worst_seed"] = runs.records[*run]->seed;
      entry["worst_command"] = runs.command(*run);
    }
  }
  return entry;
}

json point_entry(const PointRuns& runs, std::size_t index) {
  std::map<std::string, std::size_t> verdicts = {{"fail", 0}, {"no_expectations", 0}, {"pass", 0}};
  std::set<std::string> figures;
  for (const SeedRecord* record : runs.records) {
    ++verdicts[record->verdict];
    for (const auto& [figure, value] : record->figures) figures.insert(figure);
  }
  const json outages = runs.records.empty() ? json::array() : runs.records.front()->outages;
  json figure_entries = json::object();
  for (const auto& figure : figures) {
    figure_entries[figure] = figure_entry(runs, distribution_of(runs.values(figure)));
  }
  json expectations = json::array();
  for (const auto& input : runs.plan.expectations) {
    expectations.push_back(
        expectation_entry(runs, input, outages, figures.count(input.figure) != 0));
  }
  return {{"index", index},
          {"label", runs.point.label},
          {"grid_values", runs.point.grid_values},
          {"profile", runs.point.profile},
          {"command", runs.point.command},
          {"runs", runs.records.size()},
          {"run_verdicts", verdicts},
          {"outages", outages},
          {"figures", std::move(figure_entries)},
          {"expectations", std::move(expectations)}};
}

}  // namespace

json build_sweep(const SweepPlan& plan, const std::vector<SeedRecord>& records) {
  json grid = json::array();
  for (const auto& axis : plan.grid) grid.push_back({{"path", axis.path}, {"values", axis.values}});
  json points = json::array();
  bool any_expectation = false;
  bool all_passed = true;
  const std::size_t per_point = static_cast<std::size_t>(plan.seed_count());
  for (std::size_t p = 0; p < plan.points.size(); ++p) {
    PointRuns runs{plan, plan.points[p], {}};
    for (std::size_t r = p * per_point; r < (p + 1) * per_point && r < records.size(); ++r) {
      runs.records.push_back(&records[r]);
    }
    json point = point_entry(runs, p);
    for (const auto& expectation : point["expectations"]) {
      any_expectation = true;
      all_passed = all_passed && expectation["passed"].get<bool>();
    }
    points.push_back(std::move(point));
  }
  return {{"schema", kSweepSchema},
          {"nssim_version", plan.nssim_version},
          {"scenario", plan.scenario},
          {"seeds",
           {{"first", plan.first_seed}, {"last", plan.last_seed}, {"count", plan.seed_count()}}},
          {"set", plan.set},
          {"grid", std::move(grid)},
          {"runs", plan.run_count()},
          {"verdict", !any_expectation ? "no_expectations" : (all_passed ? "pass" : "fail")},
          {"points", std::move(points)}};
}

std::string sweep_verdict(const json& sweep) {
  const auto& verdict = field(sweep, "verdict");
  return verdict.is_string() ? verdict.get<std::string>() : "no_expectations";
}

}  // namespace nssim::reports

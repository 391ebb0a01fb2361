// File: load_sweep (see sweep_plan.h): the seeds, the grid's cartesian product, one validated
// scenario per point and each point's `nssim run` command.
#include "cli/sweep/sweep_plan.h"

#include <fstream>
#include <sstream>

#include "cli/expectation_inputs.h"
#include "cli/flag_checks.h"
#include "sim/scenario/repeat_command.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::cli {

namespace {

struct Axis {
  std::string path;
  std::vector<std::string> values;
};

void parse_seeds(const std::string& text, std::uint64_t& first, std::uint64_t& last) {
  const std::string usage =
      "--seeds: expected N (1 or more: seeds 1..N) or A..B with A <= B, got '" + text + "'";
  const auto dots = text.find("..");
  if (dots == std::string::npos) {
    const auto count = parse_decimal_u64(text);
    if (!count || *count == 0) throw Refusal{usage};
    first = 1;
    last = *count;
    return;
  }
  const auto a = parse_decimal_u64(text.substr(0, dots));
  const auto b = parse_decimal_u64(text.substr(dots + 2));
  if (!a || !b || *a > *b) throw Refusal{usage};
  first = *a;
  last = *b;
}

Axis parse_axis(const std::string& text) {
  const auto equals = text.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == text.size()) {
    throw Refusal{"--grid: expected PATH=V1,V2,..., got '" + text + "'"};
  }
  Axis axis{text.substr(0, equals), {}};
  std::stringstream values(text.substr(equals + 1));
  std::string value;
  while (std::getline(values, value, ',')) {
    if (value.empty()) throw Refusal{"--grid " + axis.path + ": empty value in '" + text + "'"};
    axis.values.push_back(value);
  }
  if (text.back() == ',') throw Refusal{"--grid " + axis.path + ": empty value in '" + text + "'"};
  return axis;
}

// The point's settings: the profile it runs under and its --set list (common ones first).
struct PointSettings {
  std::string profile;  // empty: the file's
  std::vector<std::string> set;
  std::vector<std::string> grid_values;
  std::string label;
};

std::vector<PointSettings> grid_points(const SweepOptions& options, const std::vector<Axis>& axes) {
  std::vector<PointSettings> points{{options.profile, options.set, {}, ""}};
  for (const auto& axis : axes) {
    std::vector<PointSettings> next;
    for (const auto& point : points) {
      for (const auto& value : axis.values) {
        PointSettings extended = point;
        if (axis.path == "profile") {
          extended.profile = value;
        } else {
          extended.set.push_back(axis.path + "=" + value);
        }
        extended.grid_values.push_back(value);
        extended.label += (extended.label.empty() ? "" : ", ") + axis.path + "=" + value;
        next.push_back(std::move(extended));
      }
    }
    points = std::move(next);
  }
  if (axes.empty()) points.front().label = "as written";
  return points;
}

sim::Scenario load_point(const SweepOptions& options, const PointSettings& point, bool from_grid) {
  sim::LoadOptions load;
  load.set = point.set;
  if (!point.profile.empty()) {
    load.profile = core::parse_profile(point.profile);
    if (!load.profile) {
      throw Refusal{"--grid profile: expected 4.9 or 5.x, got '" + point.profile + "'"};
    }
  }
  return in_context(from_grid ? "--grid " + point.label + ": " : "",
                    [&] { return sim::load_scenario_file(options.scenario, load); });
}

std::vector<reports::SweepExpectationInput> sweep_expectations(const sim::Scenario& scenario) {
  std::vector<reports::SweepExpectationInput> inputs;
  if (!scenario.sweep) return inputs;
  for (const auto& e : scenario.sweep->expect) {
    inputs.push_back({e.figure, e.stat, e.op, e.value, e.source});
  }
  return inputs;
}

}  // namespace

LoadedSweep load_sweep(const SweepOptions& options, const std::string& nssim_version) {
  std::vector<Axis> axes;
  for (const auto& text : options.grid) axes.push_back(parse_axis(text));
  LoadedSweep loaded;
  reports::SweepPlan& plan = loaded.plan;
  if (!options.profile.empty() && !core::parse_profile(options.profile)) {
    throw Refusal{"--profile: expected 4.9 or 5.x, got '" + options.profile + "'"};
  }
  for (const auto& point : grid_points(options, axes)) {
    loaded.scenarios.push_back(load_point(options, point, !axes.empty()));
    const sim::Scenario& scenario = loaded.scenarios.back();
    const std::string profile = core::profile_name(scenario.profile);
    plan.points.push_back(
        {point.label, point.grid_values, profile,
         sim::run_command_line(options.scenario, profile, point.set, std::nullopt)});
  }
  const sim::Scenario& first = loaded.scenarios.front();
  if (options.seeds.empty()) {
    plan.first_seed = 1;
    plan.last_seed = first.sweep && first.sweep->seeds
                         ? static_cast<std::uint64_t>(*first.sweep->seeds)
                         : kDefaultSweepSeeds;
  } else {
    parse_seeds(options.seeds, plan.first_seed, plan.last_seed);
  }
  if (!plan_fits(plan)) {
    throw Refusal{"--seeds: " + options.seeds + " with " + std::to_string(plan.points.size()) +
                  " grid points is more than the " + std::to_string(kMaxSweepRuns) +
                  " runs a sweep may hold"};
  }
  plan.nssim_version = nssim_version;
  plan.scenario = {{"name", first.name},
                   {"file", first.file},
                   {"description", first.description},
                   {"profile", core::profile_name(first.profile)},
                   {"duration_ms", first.duration_ms}};
  plan.set = options.set;
  for (const auto& axis : axes) plan.grid.push_back({axis.path, axis.values});
  check_expectation_figures(first);
  plan.expectations = sweep_expectations(first);
  loaded.shard = parse_shard(options.shard, plan.run_count());
  loaded.scenario_fnv1a64 = fnv1a64_of_file(options.scenario);
  return loaded;
}

std::vector<std::string> plan_arguments(const SweepOptions& options,
                                        const reports::SweepPlan& plan) {
  std::vector<std::string> args{
      options.scenario, "--seeds",
      std::to_string(plan.first_seed) + ".." + std::to_string(plan.last_seed)};
  if (!options.profile.empty()) args.insert(args.end(), {"--profile", options.profile});
  for (const auto& set : options.set) args.insert(args.end(), {"--set", set});
  for (const auto& grid : options.grid) args.insert(args.end(), {"--grid", grid});
  return args;
}

}  // namespace nssim::cli

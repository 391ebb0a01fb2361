// File: the sweep half of `nssim check` (see check_sweeps.h).
#include "cli/check/check_sweeps.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "cli/commands.h"
#include "cli/posix/child_runs.h"
#include "cli/posix/output_dir.h"
#include "cli/rate_progress.h"
#include "cli/refusal.h"
#include "cli/sweep/sweep_command.h"
#include "cli/verdict_lines.h"
#include "reports/sweep/sweep_document.h"
#include "reports/sweep/sweep_files.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;

bool has_sweep_block(const std::string& path) {
  try {
    return sim::load_scenario_file(path, {}).sweep.has_value();
  } catch (const sim::ScenarioError&) {
    return false;  // the plain run reports it
  }
}

SweepCheck evaluate_sweep(const std::string& name, const std::string& dir,
                          const ChildOutcome& child) {
  SweepCheck check{name, "", nullptr};
  const bool exited = child.spawn_error.empty() && child.signal == 0;
  if (!exited || (child.exit_code != 0 && child.exit_code != kExitExpectationFailed)) {
    const std::string line = first_line_of_file(dir + "/stderr.txt");
    check.error = exited && child.exit_code == kExitBadInput && !line.empty()
                      ? line
                      : "nssim sweep: " + describe_outcome(child) + " (see " + dir + "/stderr.txt)";
    return check;
  }
  std::ifstream in(dir + "/sweep.json");
  check.sweep = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  if (!check.sweep.is_object()) check.error = "cannot read " + dir + "/sweep.json";
  return check;
}

}  // namespace

sim::TotalCost suite_cost(const std::vector<std::string>& paths, const std::string& seeds,
                          bool with_sweeps) {
  sim::TotalCost total;
  for (const auto& path : paths) {
    try {
      const sim::Scenario scenario = sim::load_scenario_file(path, {});
      add_runs(total, sim::estimate_run_cost(scenario), 1);
      if (!with_sweeps || !scenario.sweep) continue;
      const LoadedSweep sweep = load_sweep({path, seeds, {}, {}, "", ""}, nssim_version());
      add_sweep_cost(total, sweep, shard_range(1, 1, sweep.plan.run_count()));
    } catch (const sim::ScenarioError&) {
      // the plain run reports it
    } catch (const Refusal&) {
      // the sweep's child reports it
    }
  }
  return total;
}

std::vector<SweepCheck> run_sweep_blocks(
    const std::vector<std::pair<std::string, std::string>>& files, const std::string& out,
    std::size_t jobs, const std::string& seeds,
    const std::optional<std::uint64_t>& total_cpu_limit) {
  std::vector<SweepCheck> checks;
  std::vector<std::pair<std::string, std::string>> with_block;
  for (const auto& file : files) {
    if (has_sweep_block(file.first)) with_block.push_back(file);
  }
  RateProgress progress(std::cout, ::isatty(STDOUT_FILENO) != 0, with_block.size(), "sweeps");
  for (const auto& [path, name] : with_block) {
    progress.update(checks.size());
    const std::string dir = (fs::path(out) / name / "sweep").string();
    try {
      make_output_dir(dir);
    } catch (const Refusal& refusal) {
      checks.push_back({name, "--out: " + refusal.message, nullptr});  // this sweep's ERROR line
      continue;
    }
    std::error_code ignored;
    fs::remove(dir + "/sweep.json", ignored);  // never read a previous sweep
    ChildSpec spec{{"sweep", path, "--out", dir, "-j", std::to_string(jobs)},
                   dir + "/stdout.txt",
                   dir + "/stderr.txt"};
    if (!seeds.empty()) spec.args.insert(spec.args.end(), {"--seeds", seeds});
    if (total_cpu_limit) {
      spec.args.insert(spec.args.end(), {"--total-cpu-limit", std::to_string(*total_cpu_limit)});
    }
    const auto outcome = run_children({spec}, 1, {}).front();
    checks.push_back(evaluate_sweep(name, dir, outcome));
  }
  progress.clear();
  return checks;
}

bool sweep_check_failed(const SweepCheck& check) {
  return check.error.empty() && reports::sweep_verdict(check.sweep) == "fail";
}

std::vector<std::string> sweep_check_lines(const SweepCheck& check, bool verbose) {
  if (!check.error.empty()) return {"ERROR " + check.name + " sweep: " + check.error};
  std::size_t count = 0;
  std::vector<std::string> details;
  const auto& points = check.sweep["points"];
  for (const auto& point : points) {
    for (const auto& e : point["expectations"]) {
      ++count;
      const bool passed = e.value("passed", false);
      if (passed && !verbose) continue;
      const std::string where =
          points.size() > 1 ? " [" + point.value("label", std::string()) + "]" : "";
      details.push_back(expectation_line(passed, e.value("source", std::string()) + where,
                                         e.value("message", std::string())));
      if (!passed && e["worst_command"].is_string()) {
        details.push_back("    worst seed: " + e["worst_command"].get<std::string>());
      }
    }
  }
  const std::string seeds = check.sweep["seeds"]["count"].dump();
  std::vector<std::string> lines{sweep_check_failed(check)
                                     ? "FAIL " + check.name + " sweep (over " + seeds + " seeds)"
                                     : "PASS " + check.name + " sweep (" + std::to_string(count) +
                                           (count == 1 ? " expectation" : " expectations") +
                                           " over " + seeds + " seeds)"};
  lines.insert(lines.end(), details.begin(), details.end());
  return lines;
}

reports::JunitSuite junit_suite_of(const SweepCheck& check) {
  if (!check.error.empty()) return {check.name + " sweep", {{"sweep", false, check.error, "", {}}}};
  return reports::junit_suite_from_sweep(check.sweep);
}

}  // namespace nssim::cli

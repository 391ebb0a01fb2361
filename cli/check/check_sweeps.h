// File: the sweep half of `nssim check`: each scenario with a "sweep" block also runs as
// `nssim sweep` (one child at a time, each using every job slot), and its expectations over the
// distribution join the suite's verdict, its lines and its JUnit file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "reports/junit_report.h"
#include "sim/scenario/run_cost.h"

namespace nssim::cli {

struct SweepCheck {
  std::string name;      // the scenario's file name without .json
  std::string error;     // one line when the sweep could not run or was bad input
  nlohmann::json sweep;  // its sweep.json otherwise
};

// The estimated cost of the whole suite: each listed scenario's run and its sweep block's runs,
// counted as `nssim sweep` counts them (`seeds` as in run_sweep_blocks), or the runs alone when
// !with_sweeps. Files that cannot be loaded are left to their runs to report.
sim::TotalCost suite_cost(const std::vector<std::string>& paths, const std::string& seeds,
                          bool with_sweeps);

// Runs the sweep block of every listed scenario that has one (files that cannot be loaded are
// left to the plain runs to report). `seeds` ("N" or "A..B", or empty for each block's own)
// overrides every block's count, and `total_cpu_limit` (as check was given it) each sweep's
// --total-cpu-limit. Each sweep writes into OUT/<name>/sweep. On a terminal a progress line
// (rate_progress.h) counts the sweeps done, as each runs silently in its child.
std::vector<SweepCheck> run_sweep_blocks(
    const std::vector<std::pair<std::string, std::string>>& files, const std::string& out,
    std::size_t jobs, const std::string& seeds,
    const std::optional<std::uint64_t>& total_cpu_limit);

// "PASS <name> sweep (N expectations over S seeds)", or FAIL with a line per failed expectation
// and its worst seed's command, or "ERROR <name> sweep: ...".
std::vector<std::string> sweep_check_lines(const SweepCheck& check, bool verbose);

bool sweep_check_failed(const SweepCheck& check);

reports::JunitSuite junit_suite_of(const SweepCheck& check);

}  // namespace nssim::cli

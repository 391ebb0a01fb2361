// File: --memory-limit and --cpu-limit of `nssim run` and `nssim sweep`: a run whose estimated
// cost (sim/scenario/run_cost.h) is above either is refused in one line before it starts, with
// the value that would let it through; and --total-cpu-limit, the same for all the runs of a
// sweep, a `compare --seeds` or a `check`.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "sim/scenario/run_cost.h"

namespace nssim::cli {

struct CostLimits {
  std::optional<std::string> memory;  // a byte count as --trace-limit takes it
  std::optional<std::uint64_t> cpu_seconds;
};

void add_cost_limit_options(CLI::App& command, CostLimits& limits);

// The flags that give a child command (a Slurm task) the same limits: --memory-limit, --cpu-limit
// where given.
std::vector<std::string> cost_limit_arguments(const CostLimits& limits);

// A Refusal saying why not, in one line, when the run does not fit. `parallel` runs of this cost
// at once (a sweep's -j) share the memory limit.
void check_run_cost(const sim::Scenario& scenario, const sim::RunCost& cost,
                    const CostLimits& limits, std::size_t parallel = 1);

// --total-cpu-limit of `nssim sweep`, `compare --seeds` and `check`.
void add_total_cpu_limit_option(CLI::App& command, std::optional<std::uint64_t>& limit);

// A Refusal when the runs' whole estimated CPU time is above `limit` (default
// sim::kDefaultTotalCpuLimitSeconds), in one line with the value that lets it through.
void check_total_cost(const sim::TotalCost& total, std::size_t jobs,
                      const std::optional<std::uint64_t>& limit);

// "estimate: 200 runs x (...) = ...": the line these commands print before their first run.
std::string total_cost_line(const sim::TotalCost& total, std::size_t jobs);

// "12.2 MiB (12762000 bytes)", or "900 bytes": the exact count always, for scripts.
std::string bytes_text(std::uint64_t bytes);

}  // namespace nssim::cli

// File: --memory-limit and --cpu-limit of `nssim run` and `nssim sweep`: a run whose estimated
// cost (sim/scenario/run_cost.h) is above either is refused in one line before it starts, with
// the value that would let it through.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "sim/scenario/run_cost.h"

namespace nssim::cli {

struct CostLimits {
  std::optional<std::string> memory;  // a byte count as --trace-limit takes it
  std::optional<std::uint64_t> cpu_seconds;
};

void add_cost_limit_options(CLI::App& command, CostLimits& limits);

// "" when the run fits, else why not, in one line (without the command's name). `parallel` runs
// of this cost at once (a sweep's -j) share the memory limit.
std::string cost_refusal(const sim::Scenario& scenario, const sim::RunCost& cost,
                         const CostLimits& limits, std::size_t parallel = 1);

// "12.2 MiB (12762000 bytes)", or "900 bytes": the exact count always, for scripts.
std::string bytes_text(std::uint64_t bytes);

}  // namespace nssim::cli

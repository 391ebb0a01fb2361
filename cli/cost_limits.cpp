// File: the cost limits (see cost_limits.h).
#include "cli/cost_limits.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cli/flag_checks.h"
#include "cli/refusal.h"
#include "sim/record/trace_budget.h"

namespace nssim::cli {

namespace {

// The largest double below 2^64, so a huge estimate still converts to a byte count.
constexpr double kLargestCount = 1.8e19;

std::string fixed_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// "11.7", or "9.12e+296" from a million on: "%.1f" of a huge factor would be hundreds of digits
// (broker_kill.json with bandwidth_mbps 1e-300 needs 9.12e+296), more than a line can hold or a
// person can read.
std::string factor_text(double value) {
  char text[32];
  std::snprintf(text, sizeof text, value < 1e6 ? "%.1f" : "%.2e", value);
  return text;
}

}  // namespace

void add_cost_limit_options(CLI::App& command, CostLimits& limits) {
  command
      .add_option("--memory-limit", limits.memory,
                  "BYTES: refuse a run whose estimated peak memory is larger (plain bytes or K, "
                  "M, G, T as powers of 1024; default 8G)")
      ->check(CLI::Validator(
          [](const std::string& text) -> std::string {
            if (sim::parse_byte_count(text)) return "";
            return "expected a byte count of at least 1 such as 8589934592, 500M or 16G (K, M, "
                   "G, T: powers of 1024), got '" +
                   text + "'";
          },
          "BYTES"));
  command
      .add_option("--cpu-limit", limits.cpu_seconds,
                  "SECONDS: refuse a run whose estimated CPU time is longer (default 3600)")
      ->check(whole_number(1, std::uint64_t{1} << 40));
}

std::vector<std::string> cost_limit_arguments(const CostLimits& limits) {
  std::vector<std::string> arguments;
  if (limits.memory) arguments.insert(arguments.end(), {"--memory-limit", *limits.memory});
  if (limits.cpu_seconds) {
    arguments.insert(arguments.end(), {"--cpu-limit", std::to_string(*limits.cpu_seconds)});
  }
  return arguments;
}

void check_run_cost(const sim::Scenario& scenario, const sim::RunCost& cost,
                    const CostLimits& limits, std::size_t parallel) {
  const std::uint64_t memory_limit =
      limits.memory ? *sim::parse_byte_count(*limits.memory) : sim::kDefaultMemoryLimitBytes;
  const std::uint64_t cpu_limit = limits.cpu_seconds.value_or(sim::kDefaultCpuLimitSeconds);
  const std::string estimate = scenario.file + ": estimated " + sim::run_cost_text(cost);
  const double memory = cost.memory_bytes * static_cast<double>(parallel);
  if (memory > static_cast<double>(memory_limit)) {
    const auto needed = static_cast<std::uint64_t>(std::min(memory, kLargestCount));
    throw Refusal{estimate +
                  (parallel > 1 ? "; " + std::to_string(parallel) + " runs at once" : "") +
                  ": more memory than --memory-limit " + bytes_text(memory_limit) +
                  "; raise it with --memory-limit " + sim::limit_to_allow(needed) +
                  " or make the run smaller"};
  }
  // A saturated link's cost has no bound the estimate could give: refused unless a CPU limit is
  // set by hand, which says how long the run may take.
  if (cost.refresh_link_load > 1.0 && !limits.cpu_seconds) {
    throw Refusal{estimate + ": 5.x refreshMetadata's cluster-info answers need " +
                  factor_text(cost.refresh_link_load) +
                  " times each NameServer's link (nameservers.link.bandwidth_mbps " +
                  fixed_text(scenario.nameservers.link.bandwidth_mbps) +
                  "), so transfers pile up without bound and so does the run's cost; give the "
                  "NameServers more bandwidth or fewer groups, or set --cpu-limit to run it "
                  "anyway"};
  }
  if (cost.cpu_seconds > static_cast<double>(cpu_limit)) {
    const auto needed =
        static_cast<std::uint64_t>(std::min(std::ceil(cost.cpu_seconds), kLargestCount));
    throw Refusal{estimate + ": longer than --cpu-limit " + std::to_string(cpu_limit) +
                  " s; raise it with --cpu-limit " + std::to_string(needed) +
                  " or make the run smaller"};
  }
}

void add_total_cpu_limit_option(CLI::App& command, std::optional<std::uint64_t>& limit) {
  command
      .add_option("--total-cpu-limit", limit,
                  "SECONDS: refuse when all the runs together are estimated to take more CPU "
                  "time (default 86400, one CPU-day)")
      ->check(whole_number(1, std::uint64_t{1} << 40));
}

std::string total_cost_line(const sim::TotalCost& total, std::size_t jobs) {
  return "estimate: " + sim::total_cost_text(total, jobs);
}

void check_total_cost(const sim::TotalCost& total, std::size_t jobs,
                      const std::optional<std::uint64_t>& limit) {
  const std::uint64_t seconds = limit.value_or(sim::kDefaultTotalCpuLimitSeconds);
  if (total.cpu_seconds <= static_cast<double>(seconds)) return;
  const auto needed =
      static_cast<std::uint64_t>(std::min(std::ceil(total.cpu_seconds), kLargestCount));
  throw Refusal{total_cost_line(total, jobs) + ": more CPU than --total-cpu-limit " +
                std::to_string(seconds) + " s; raise it with --total-cpu-limit " +
                std::to_string(needed) + " or run fewer seeds"};
}

std::string bytes_text(std::uint64_t bytes) {
  const std::string text = sim::byte_count_text(bytes);
  return bytes < 1024 ? text : text + " (" + std::to_string(bytes) + " bytes)";
}

}  // namespace nssim::cli

// File: `nssim run SCENARIO`: loads a scenario, runs the simulated cluster once, checks its
// expectations, and writes the event log, the result and the report files (and with --trace the
// trace, streamed while the run goes on) into the output folder as one group, then prints a short
// summary. Bad input is one line on stderr and exit code 2, with nothing written.
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/cost_limits.h"
#include "cli/expectation_inputs.h"
#include "cli/flag_checks.h"
#include "cli/posix/staged_folder.h"
#include "cli/refusal.h"
#include "cli/run/run_summary.h"
#include "cli/verdict_lines.h"
#include "reports/expectations.h"
#include "reports/report_document.h"
#include "reports/report_files.h"
#include "sim/analysis/run_analysis.h"
#include "sim/record/trace_budget.h"
#include "sim/record/trace_writer.h"
#include "sim/scenario/repeat_command.h"
#include "sim/scenario/run_cost.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/world/world.h"

namespace nssim::cli {

namespace {

struct RunOptions {
  std::string scenario;
  std::optional<std::uint64_t> seed;
  std::string out;
  std::string profile;
  std::vector<std::string> set;
  bool trace = false;
  std::optional<std::string> trace_limit;
  CostLimits limits;
};

// --trace-limit as a byte count (the default without it).
std::uint64_t trace_limit_of(const RunOptions& options) {
  if (!options.trace_limit) return sim::kDefaultTraceLimitBytes;
  if (!options.trace) throw Refusal{"--trace-limit: only with --trace"};
  const auto limit = sim::parse_byte_count(*options.trace_limit);
  if (!limit) {
    throw Refusal{
        "--trace-limit: expected a byte count of at least 1 such as 1073741824, 500M or 2G (K, "
        "M, G, T: powers of 1024), got '" +
        *options.trace_limit + "'"};
  }
  return *limit;
}

// A Refusal when the scenario's trace would be larger than `limit_bytes`.
void check_trace_fits(const sim::Scenario& scenario, std::uint64_t limit_bytes) {
  const std::uint64_t estimate = sim::estimate_trace_bytes(scenario);
  if (estimate <= limit_bytes) return;
  throw Refusal{"--trace: " + scenario.file + ": the trace would take about " +
                bytes_text(estimate) + ", more than --trace-limit " + bytes_text(limit_bytes) +
                "; raise it with --trace-limit " + sim::limit_to_allow(estimate) +
                " or shorten the run"};
}

// Prints one line per expectation; 1 when any failed, with the command that repeats the run,
// every --set override included.
int print_expectations(const std::string& command,
                       const std::vector<reports::ExpectationVerdict>& verdicts) {
  bool failed = false;
  const bool colour = colour_on_stdout();
  for (const auto& verdict : verdicts) {
    std::cout << painted(expectation_line(verdict.passed, verdict.source, verdict.message), colour)
              << "\n";
    failed = failed || !verdict.passed;
  }
  if (failed) {
    std::cout << "repeat: " << command << "\n";
  }
  return failed ? kExitExpectationFailed : 0;
}

// Every name a run's group may have in --out: with --trace or not, a run's group replaces the
// whole of an earlier one (no trace.jsonl of an older run stays beside a new result).
std::set<std::string> run_group_names() {
  std::set<std::string> names = {"events.jsonl", "trace.jsonl"};
  for (const auto& name : reports::report_file_names()) names.insert(name);
  return names;
}

// What `nssim check` and `nssim compare` keep in a child's --out: its captured output, open in
// the parent while the child runs, and check's folder of the scenario's sweep.
const std::set<std::string> kKeptNames = {"stdout.txt", "stderr.txt", "sweep"};

// The event log, the result and every report file, in the order they are written.
std::vector<NamedContent> run_files(sim::WorldRecord& record, const nlohmann::json& result,
                                    const nlohmann::json& report) {
  std::ostringstream log;
  record.log.write_jsonl(log);
  std::vector<NamedContent> files = {{"events.jsonl", log.str()}};
  for (auto& file : reports::render_report_files(result, report)) {
    files.emplace_back(std::move(file.name), std::move(file.content));
  }
  return files;
}

int run(const RunOptions& options) {
  const std::uint64_t trace_limit = trace_limit_of(options);
  sim::LoadOptions load;
  load.seed = options.seed;
  load.set = options.set;
  if (!options.profile.empty()) {
    load.profile = core::parse_profile(options.profile);
    if (!load.profile) {
      throw Refusal{"--profile: expected 4.9 or 5.x, got '" + options.profile + "'"};
    }
  }
  const sim::Scenario scenario = sim::load_scenario_file(options.scenario, load);
  check_expectation_figures(scenario);
  if (options.trace) check_trace_fits(scenario, trace_limit);
  const sim::RunCost cost = sim::estimate_run_cost(scenario);
  check_run_cost(scenario, cost, options.limits);
  const std::string dir = options.out.empty()
                              ? "out/" + scenario.name + "-seed" + std::to_string(scenario.seed)
                              : options.out;
  StagedFolder staged = in_context(
      "--out: ", [&] { return StagedFolder::prepare("run", dir, run_group_names(), kKeptNames); });
  std::cout << "seed=" << scenario.seed << " scenario=" << scenario.name
            << " profile=" << core::profile_name(scenario.profile)
            << " estimate: " << sim::run_cost_text(cost) << std::endl;

  // The trace streams into the staging folder while the world runs and joins the group at the end.
  std::optional<StreamedFile> trace_file;
  std::optional<sim::TraceWriter> trace;
  if (options.trace) {
    in_context("--out: ", [&] { trace_file.emplace(staged, "trace.jsonl"); });
    trace.emplace(trace_file->out());
  }
  sim::WorldRecord record = sim::run_world(scenario, trace ? &*trace : nullptr);
  if (trace) trace->finish();
  const nlohmann::json result = sim::analyze_run(scenario, record);
  const auto [verdicts, report] = judge_run(scenario, result);
  std::vector<StreamedFile*> streamed;
  if (trace_file) streamed.push_back(&*trace_file);
  staged.commit(run_files(record, result, report), streamed);
  print_run_summary(std::cout, result);
  const int verdict =
      print_expectations(result["scenario"]["command"].get<std::string>(), verdicts);
  print_written_files(std::cout, dir, /*trace=*/options.trace);
  return verdict;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Run a scenario once and write its result");
  command->add_option("scenario", options->scenario, "Scenario JSON file")->required();
  command->add_option("--seed", options->seed, "Seed (overrides the scenario's)")
      ->check(seed_text());
  command->add_option("--out", options->out, "Output folder (default out/<name>-seed<N>)")
      ->check(non_empty_text());
  command->add_option("--profile", options->profile, "4.9 or 5.x (overrides the scenario's)")
      ->check(non_empty_text());
  command->add_option("--set", options->set, "PATH=VALUE override of a scenario field")
      ->allow_extra_args(false);
  command->add_flag("--trace", options->trace,
                    "Also write trace.jsonl: every send attempt and route update");
  command->add_option("--trace-limit", options->trace_limit,
                      "BYTES: refuse a --trace run whose trace is estimated larger (plain bytes "
                      "or K, M, G, T as powers of 1024, e.g. 500M, 2G; default 1G)");
  add_cost_limit_options(*command, options->limits);
  run_refusing(*command, exit_code, [options] { return run(*options); });
}

}  // namespace nssim::cli

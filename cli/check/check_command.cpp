// File: `nssim check [PATH...]`: the regression suite. Runs every scenario found as its own
// `nssim run` child (SimGrid allows one simulation per process), N at a time, then prints one
// verdict per scenario in scenario order from the report.json each run wrote. Exit 0 when all
// pass, 1 when an expectation failed, 2 when a scenario or a PATH was bad input.
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cli/check/check_progress.h"
#include "cli/check/check_sweeps.h"
#include "cli/commands.h"
#include "cli/cost_limits.h"
#include "cli/flag_checks.h"
#include "cli/install_paths.h"
#include "cli/posix/child_runs.h"
#include "cli/posix/output_dir.h"
#include "cli/refusal.h"
#include "cli/verdict_lines.h"
#include "reports/junit_report.h"

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;

struct CheckOptions {
  std::vector<std::string> paths;
  std::size_t jobs = 0;  // 0: one per core
  std::string junit;
  std::string out = "out/check";
  std::optional<std::uint64_t> seed;
  std::string seeds;                             // overrides every sweep block's seeds
  std::optional<std::uint64_t> total_cpu_limit;  // of every run and sweep run together
  bool verbose = false;
  bool no_sweeps = false;  // the single runs only: a quick gate, sweeps left for a nightly job
};

struct ScenarioFile {
  std::string path;
  std::string name;  // file name without .json; also its folder under --out
};

enum class Status { kPass, kFail, kError };

struct ScenarioOutcome {
  Status status = Status::kError;
  std::string error;  // for kError: one line
  nlohmann::json report;
};

// A folder contributes its *.json files except schema.json, sorted.
void list_folder(const std::string& folder, std::vector<std::string>& found) {
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    const fs::path& path = entry.path();
    if (path.extension() == ".json" && path.filename() != "schema.json" && entry.is_regular_file())
      found.push_back(path.string());
  }
  if (error) throw Refusal{folder + ": cannot list the folder: " + error.message()};
  std::sort(found.begin(), found.end());
  if (found.empty()) throw Refusal{folder + ": no *.json scenario in this folder"};
}

// Expands PATH arguments into scenario files. Two different files with the same name would
// share an output folder, so that is a Refusal.
std::vector<ScenarioFile> collect_scenarios(const std::vector<std::string>& paths) {
  std::vector<ScenarioFile> files;
  std::map<std::string, std::string> path_by_name;
  for (const auto& path : paths) {
    std::error_code error;
    std::vector<std::string> found;
    if (fs::is_directory(path, error)) {
      list_folder(path, found);
    } else if (fs::exists(path, error)) {
      found.push_back(path);
    } else {
      throw Refusal{path + ": no such file or folder"};
    }
    for (const auto& file : found) {
      const std::string name = fs::path(file).stem().string();
      const auto [seen, inserted] = path_by_name.emplace(name, file);
      if (inserted) {
        files.push_back({file, name});
      } else if (!fs::equivalent(seen->second, file, error)) {
        throw Refusal{file + ": has the same name as " + seen->second +
                      " (their runs would share --out/" + name + ")"};
      }
    }
  }
  return files;
}

ScenarioOutcome evaluate_scenario(const std::string& dir, const ChildOutcome& child) {
  ScenarioOutcome outcome;
  const bool exited = child.spawn_error.empty() && child.signal == 0;
  if (exited && child.exit_code == kExitBadInput) {
    std::string line = first_line_of_file(dir + "/stderr.txt");
    const std::string prefix = "nssim run: ";
    if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
    outcome.error = line.empty() ? "nssim run: exit 2 with no message" : line;
    return outcome;
  }
  if (!exited || (child.exit_code != 0 && child.exit_code != kExitExpectationFailed)) {
    outcome.error = "nssim run: " + describe_outcome(child);
    if (child.spawn_error.empty()) outcome.error += " (see " + dir + "/stderr.txt)";
    return outcome;
  }
  try {
    outcome.report = read_child_report(dir);
  } catch (const Refusal& refusal) {
    outcome.error = refusal.message;  // this scenario's ERROR line, not the suite's refusal
    return outcome;
  }
  if (!outcome.report.contains("expectations") || !outcome.report["expectations"].is_array()) {
    outcome.error = dir + "/report.json: has no expectations list";
    return outcome;
  }
  outcome.status = child.exit_code == 0 ? Status::kPass : Status::kFail;
  return outcome;
}

// A run that held because it checked nothing: said as such, never as a PASS.
bool checks_nothing(const ScenarioOutcome& outcome) {
  return outcome.status == Status::kPass && outcome.report.at("expectations").empty();
}

std::vector<std::string> outcome_lines(const ScenarioFile& file, const ScenarioOutcome& outcome,
                                       bool verbose) {
  if (outcome.status == Status::kError) {
    return {"ERROR " + fs::path(file.path).filename().string() + ": " + outcome.error};
  }
  const auto& expectations = outcome.report["expectations"];
  std::vector<std::string> lines;
  if (checks_nothing(outcome)) {
    lines.push_back("NONE " + file.name + " (no expectations: it ran, nothing was checked)");
  } else if (outcome.status == Status::kPass) {
    const std::size_t count = expectations.size();
    lines.push_back("PASS " + file.name + " (" + std::to_string(count) +
                    (count == 1 ? " expectation)" : " expectations)"));
  } else {
    lines.push_back("FAIL " + file.name);
  }
  for (const auto& expectation : expectations) {
    const bool passed = expectation.value("passed", false);
    if (passed && !verbose) continue;
    lines.push_back(expectation_line(passed, expectation.value("source", std::string()),
                                     expectation.value("message", std::string())));
  }
  return lines;
}

void write_junit(const std::string& path, const std::vector<ScenarioFile>& files,
                 const std::vector<ScenarioOutcome>& outcomes,
                 const std::vector<SweepCheck>& sweeps) {
  std::vector<reports::JunitSuite> suites;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (outcomes[i].status == Status::kError) {
      suites.push_back({files[i].name, {{"run", false, outcomes[i].error, "", {}}}});
    } else {
      suites.push_back(reports::junit_suite_from_report(outcomes[i].report));
    }
  }
  for (const auto& sweep : sweeps) suites.push_back(junit_suite_of(sweep));
  const fs::path target(path);
  const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
  write_file_atomically(dir, target.filename().string(), reports::render_junit(suites));
}

// Creates each scenario's output folder and its `nssim run` child.
std::vector<ChildSpec> prepare_children(const CheckOptions& options,
                                        const std::vector<ScenarioFile>& files) {
  std::vector<ChildSpec> specs;
  for (const auto& file : files) {
    const std::string dir = (fs::path(options.out) / file.name).string();
    in_context("--out: ", [&] { make_output_dir(dir); });
    std::error_code ignored;
    fs::remove(dir + "/report.json", ignored);  // never read a previous run's report
    ChildSpec spec{{"run", file.path, "--out", dir}, dir + "/stdout.txt", dir + "/stderr.txt"};
    if (options.seed) {
      spec.args.push_back("--seed");
      spec.args.push_back(std::to_string(*options.seed));
    }
    specs.push_back(std::move(spec));
  }
  if (!options.junit.empty()) {
    const fs::path junit(options.junit);
    if (junit.has_parent_path()) {
      in_context("--junit: ", [&] { make_output_dir(junit.parent_path().string()); });
    }
  }
  return specs;
}

int run_check(const CheckOptions& options) {
  const auto paths =
      options.paths.empty() ? std::vector<std::string>{default_scenarios_path()} : options.paths;
  const std::vector<ScenarioFile> files = collect_scenarios(paths);
  const std::size_t jobs = options.jobs > 0
                               ? options.jobs
                               : std::max<std::size_t>(1, std::thread::hardware_concurrency());
  std::vector<std::string> listed;
  for (const auto& file : files) listed.push_back(file.path);
  const sim::TotalCost total = suite_cost(listed, options.seeds, !options.no_sweeps);
  check_total_cost(total, jobs, options.total_cpu_limit);
  const std::vector<ChildSpec> specs = prepare_children(options, files);
  std::cout << total_cost_line(total, jobs) << std::endl;
  std::vector<std::string> names;
  for (const auto& file : files) names.push_back(file.name);
  CheckProgress progress(std::cout, ::isatty(STDOUT_FILENO) != 0, names);
  std::vector<ScenarioOutcome> outcomes(files.size());
  const bool colour = colour_on_stdout();
  ChildObserver observer;
  observer.started = [&progress](std::size_t index) { progress.started(index); };
  observer.finished = [&](std::size_t index, const ChildOutcome& child) {
    outcomes[index] =
        evaluate_scenario(fs::path(specs[index].stdout_path).parent_path().string(), child);
    std::vector<std::string> lines = outcome_lines(files[index], outcomes[index], options.verbose);
    for (auto& line : lines) line = painted(line, colour);
    progress.finished(index, std::move(lines));
  };
  run_children(specs, jobs, observer);
  progress.clear();

  std::size_t passed = 0, failed = 0, errors = 0, unchecked = 0;
  for (const auto& outcome : outcomes) {
    if (checks_nothing(outcome)) {
      ++unchecked;
    } else if (outcome.status == Status::kPass) {
      ++passed;
    }
    if (outcome.status == Status::kFail) ++failed;
    if (outcome.status == Status::kError) ++errors;
  }
  std::vector<std::pair<std::string, std::string>> runnable;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (outcomes[i].status != Status::kError) runnable.emplace_back(files[i].path, files[i].name);
  }
  const auto sweeps = options.no_sweeps ? std::vector<SweepCheck>{}
                                        : run_sweep_blocks(runnable, options.out, jobs,
                                                           options.seeds, options.total_cpu_limit);
  std::size_t sweeps_failed = 0, sweep_errors = 0;
  for (const auto& sweep : sweeps) {
    for (const auto& line : sweep_check_lines(sweep, options.verbose)) {
      std::cout << painted(line, colour) << "\n";
    }
    sweeps_failed += sweep_check_failed(sweep) ? 1 : 0;
    sweep_errors += sweep.error.empty() ? 0 : 1;
  }
  std::cout << files.size() << (files.size() == 1 ? " scenario: " : " scenarios: ") << passed
            << " passed, " << failed << " failed, " << errors
            << (errors == 1 ? " error" : " errors");
  if (unchecked > 0) std::cout << ", " << unchecked << " without expectations";
  if (!sweeps.empty()) {
    std::cout << "; " << sweeps.size() << (sweeps.size() == 1 ? " sweep: " : " sweeps: ")
              << sweeps.size() - sweeps_failed - sweep_errors << " passed, " << sweeps_failed
              << " failed, " << sweep_errors << (sweep_errors == 1 ? " error" : " errors");
  }
  std::cout << std::endl;
  errors += sweep_errors;
  failed += sweeps_failed;
  if (!options.junit.empty()) {
    in_context("--junit: ", [&] { write_junit(options.junit, files, outcomes, sweeps); });
  }
  // A scenario that was bad input makes the suite's exit code 2 too, after every verdict.
  if (errors > 0) return kExitBadInput;
  return failed > 0 ? kExitExpectationFailed : 0;
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CheckOptions>();
  CLI::App* command = app.add_subcommand(
      "check", "Run every scenario found (one process each) and check its expectations");
  command->add_option("paths", options->paths,
                      "Scenario files or folders (folder: its *.json except schema.json); "
                      "default: scenarios, or the installed ones");
  command->add_option("-j,--jobs", options->jobs, "Scenarios run at once (default: one per core)")
      ->check(whole_number(1, kMaxJobs));
  command->add_option("--junit", options->junit, "Also write a JUnit XML file")
      ->check(non_empty_text());
  command->add_option("--out", options->out, "Output folder; each run goes to OUT/<name>")
      ->capture_default_str()
      ->check(non_empty_text());
  command->add_option("--seed", options->seed, "Seed for every scenario (overrides each file's)")
      ->check(seed_text());
  command
      ->add_option("--seeds", options->seeds,
                   "N or A..B: seeds of every scenario's sweep block (default: each block's)")
      ->check(non_empty_text());
  command
      ->add_flag("--no-sweeps", options->no_sweeps,
                 "Only each scenario's single run, not its sweep block (a quick gate for every "
                 "commit; sweeps nightly)")
      ->excludes("--seeds");
  add_total_cpu_limit_option(*command, options->total_cpu_limit);
  command->add_flag("-v,--verbose", options->verbose, "Also print the expectations that held");
  run_refusing(*command, exit_code, [options] { return run_check(*options); });
}

}  // namespace nssim::cli

// File: `nssim run SCENARIO`: loads a scenario, runs the simulated cluster once, checks its
// expectations, and writes the event log, the result and the report files into the output folder
// as one group, then prints a short summary. Bad input is one line on stderr and exit code 2, with
// nothing written.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "commands.h"
#include "expectation_inputs.h"
#include "expectations.h"
#include "output_dir.h"
#include "repeat_command.h"
#include "report_document.h"
#include "report_files.h"
#include "run_summary.h"
#include "sim/model/run_analysis.h"
#include "sim/model/scenario_loader.h"
#include "sim/world/world.h"

namespace nssim::cli {

namespace {

struct RunOptions {
  std::string scenario;
  std::optional<std::uint64_t> seed;
  std::string out;
  std::string profile;
  std::vector<std::string> set;
};

// Prints one line per expectation; 1 when any failed, with the command that repeats the run,
// every --set override included.
int print_expectations(const std::string& command,
                       const std::vector<reports::ExpectationVerdict>& verdicts) {
  bool failed = false;
  for (const auto& verdict : verdicts) {
    std::cout << (verdict.passed ? "  pass " : "  FAIL ") << verdict.source << ": "
              << verdict.message << "\n";
    failed = failed || !verdict.passed;
  }
  if (failed) {
    std::cout << "repeat: " << command << "\n";
  }
  return failed ? kExitExpectationFailed : 0;
}

// The event log, the result and every report file, in the order they are written.
std::vector<NamedContent> run_files(sim::WorldRecord& record, const nlohmann::json& result,
                                    const nlohmann::json& report) {
  std::ostringstream log;
  record.log.write_jsonl(log);
  std::vector<NamedContent> files = {{"events.jsonl", log.str()},
                                     {"result.json", result.dump(2) + "\n"}};
  for (auto& file : reports::render_report_files(report)) {
    files.emplace_back(std::move(file.name), std::move(file.content));
  }
  return files;
}

int run(const RunOptions& options) {
  sim::LoadOptions load;
  load.seed = options.seed;
  load.set = options.set;
  if (!options.profile.empty()) {
    load.profile = core::parse_profile(options.profile);
    if (!load.profile) {
      std::cerr << "nssim run: --profile: expected 4.9 or 5.x, got '" << options.profile << "'\n";
      return kExitBadInput;
    }
  }
  sim::Scenario scenario;
  try {
    scenario = sim::load_scenario_file(options.scenario, load);
  } catch (const sim::ScenarioError& error) {
    std::cerr << "nssim run: " << error.what() << "\n";
    return kExitBadInput;
  }
  std::cout << "seed=" << scenario.seed << " scenario=" << scenario.name
            << " profile=" << core::profile_name(scenario.profile) << std::endl;

  const std::string dir = options.out.empty()
                              ? "out/" + scenario.name + "-seed" + std::to_string(scenario.seed)
                              : options.out;
  if (auto error = make_output_dir(dir); !error.empty()) {
    std::cerr << "nssim run: --out: " << error << "\n";
    return kExitBadInput;
  }

  sim::WorldRecord record = sim::run_world(scenario);
  const auto& events = record.log.events();
  nlohmann::json result =
      sim::analyze_run(scenario, record.topology, events, *record.sends, *record.network);
  // What repeats this run, so the report, its JUnit file and its header can say it.
  result["scenario"]["set"] = options.set;
  result["scenario"]["command"] = run_command_line(
      scenario.file, core::profile_name(scenario.profile), options.set, scenario.seed);

  const auto inputs = expectation_inputs(scenario);
  const auto verdicts = reports::check_expectations(result, inputs);
  const nlohmann::json report = reports::build_report(result, inputs, verdicts);
  if (auto error = write_files_atomically(dir, run_files(record, result, report)); !error.empty()) {
    std::cerr << "nssim run: " << error << "\n";
    return kExitBadInput;
  }
  print_run_summary(std::cout, result);
  const int verdict =
      print_expectations(result["scenario"]["command"].get<std::string>(), verdicts);
  std::cout << "result: " << dir << "/result.json\n";
  std::cout << "report: " << dir << "/report.html" << std::endl;
  return verdict;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RunOptions>();
  CLI::App* command = app.add_subcommand("run", "Run a scenario once and write its result");
  command->add_option("scenario", options->scenario, "Scenario JSON file")->required();
  command->add_option("--seed", options->seed, "Seed (overrides the scenario's)");
  command->add_option("--out", options->out, "Output folder (default out/<name>-seed<N>)");
  command->add_option("--profile", options->profile, "4.9 or 5.x (overrides the scenario's)");
  command->add_option("--set", options->set, "PATH=VALUE override of a scenario field");
  command->callback([options, &exit_code] { exit_code = run(*options); });
}

}  // namespace nssim::cli

// File: `nssim compare SCENARIO --a NAME=VALUE... --b NAME=VALUE...`: the same scenario and seed
// under two settings, each run as its own `nssim run` child (one simulation per process), then one
// comparison of their reports as compare.json, compare.md and compare.html. Both sides are loaded
// here first, so a bad setting is reported before anything runs or is written.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "child_runs.h"
#include "commands.h"
#include "flag_checks.h"
#include "output_dir.h"
#include "reports/compare/compare_report.h"
#include "reports/compare/compare_seeds.h"
#include "sim/scenario/scenario_loader.h"
#include "sweep_command.h"

namespace nssim::cli {

namespace {

namespace fs = std::filesystem;

// How many of the biggest changes the terminal shows; the documents list more.
constexpr std::size_t kChangesPrinted = 10;

struct CompareOptions {
  std::string scenario;
  std::vector<std::string> a;
  std::vector<std::string> b;
  std::optional<std::uint64_t> seed;
  std::string out;
  std::string label_a;
  std::string label_b;
  std::string seeds;     // with it: both sides over these seeds, judged against seed noise
  std::size_t jobs = 0;  // runs at a time with --seeds
  std::optional<std::uint64_t> total_cpu_limit;  // of both sides' runs with --seeds
};

std::size_t jobs_of(const CompareOptions& options) {
  return options.jobs == 0 ? default_jobs() : options.jobs;
}

struct Side {
  std::string flag;                   // "--a" or "--b", for messages
  std::vector<std::string> settings;  // NAME=VALUE as given
  std::vector<std::string> run_args;  // what they become for `nssim run`
  std::string profile;                // as given, or "" for the file's
  sim::LoadOptions load;
  std::string label;
  std::string dir;
  LoadedSweep sweep;  // with --seeds: the side's runs
};

// Turns NAME=VALUE settings into `nssim run` flags: profile=P becomes --profile P, anything else
// --set NAME=VALUE. Returns an error or "".
std::string parse_side(const std::vector<std::string>& settings, Side& side) {
  for (const auto& setting : settings) {
    const std::size_t equals = setting.find('=');
    if (equals == std::string::npos || equals == 0) {
      return side.flag + ": expected NAME=VALUE, got '" + setting + "'";
    }
    const std::string name = setting.substr(0, equals);
    const std::string value = setting.substr(equals + 1);
    if (name == "profile") {
      if (side.load.profile) return side.flag + ": profile is given twice";
      side.load.profile = core::parse_profile(value);
      if (!side.load.profile) {
        return side.flag + ": profile: expected 4.9 or 5.x, got '" + value + "'";
      }
      side.run_args.insert(side.run_args.end(), {"--profile", value});
      side.profile = value;
    } else {
      side.load.set.push_back(setting);
      side.run_args.insert(side.run_args.end(), {"--set", setting});
    }
    side.settings.push_back(setting);
  }
  return "";
}

std::string default_label(const std::vector<std::string>& settings) {
  std::string label;
  for (const auto& setting : settings) label += (label.empty() ? "" : " ") + setting;
  return label.empty() ? "as written" : label;
}

// Parses one side and loads the scenario with it, as `nssim run` will. Returns an error or "".
std::string prepare_side(const CompareOptions& options, const std::vector<std::string>& settings,
                         const std::string& label, Side& side, std::string& scenario_name) {
  if (auto error = parse_side(settings, side); !error.empty()) return error;
  side.load.seed = options.seed;
  side.label = label.empty() ? default_label(settings) : label;
  try {
    scenario_name = sim::load_scenario_file(options.scenario, side.load).name;
  } catch (const sim::ScenarioError& error) {
    return (settings.empty() ? "" : side.flag + ": ") + error.what();
  }
  return "";
}

sim::TotalCost total_cost_of(const Side& a, const Side& b) {
  sim::TotalCost total;  // both sides' runs together
  for (const Side* side : {&a, &b}) {
    add_sweep_cost(total, side->sweep, shard_range(1, 1, side->sweep.plan.run_count()));
  }
  return total;
}

// With --seeds: loads each side's sweep and checks their runs' whole cost, before any folder is
// made. Returns an error or "".
std::string load_side_sweeps(const CompareOptions& options, Side& a, Side& b) {
  for (Side* side : {&a, &b}) {
    try {
      side->sweep =
          load_sweep({options.scenario, options.seeds, {}, side->load.set, side->profile, ""},
                     nssim_version());
    } catch (const SweepInputError& error) {
      return side->flag + ": " + error.message;
    }
  }
  const std::string refusal =
      total_cost_refusal(total_cost_of(a, b), jobs_of(options), options.total_cpu_limit);
  return refusal.empty() ? "" : options.scenario + ": " + refusal;
}

// Prepares both sides and their output folders. Returns an error or "".
std::string prepare(const CompareOptions& options, Side& a, Side& b, std::string& dir) {
  if (options.a.empty() && options.b.empty()) return "give at least one of --a and --b";
  if (!options.seeds.empty() && options.seed)
    return "give --seed (one run a side) or --seeds, not both";
  if (!options.seeds.empty()) {
    try {
      load_sweep({options.scenario, options.seeds, {}, {}, "", ""}, nssim_version());
    } catch (const SweepInputError& error) {
      return error.message;
    }
  }
  std::string scenario_name;
  std::string error = prepare_side(options, options.a, options.label_a, a, scenario_name);
  if (error.empty()) error = prepare_side(options, options.b, options.label_b, b, scenario_name);
  if (error.empty() && !options.seeds.empty()) error = load_side_sweeps(options, a, b);
  if (!error.empty()) return error;
  dir = options.out.empty() ? "out/compare-" + scenario_name : options.out;
  a.dir = (fs::path(dir) / "a").string();
  b.dir = (fs::path(dir) / "b").string();
  for (const Side* side : {&a, &b}) {
    if (auto problem = make_output_dir(side->dir); !problem.empty()) return "--out: " + problem;
    std::error_code ignored;
    fs::remove(side->dir + "/report.json", ignored);  // never read a previous run's report
  }
  return "";
}

ChildSpec child_spec(const CompareOptions& options, const Side& side) {
  ChildSpec spec{{"run", options.scenario, "--out", side.dir},
                 side.dir + "/stdout.txt",
                 side.dir + "/stderr.txt"};
  if (options.seed) spec.args.insert(spec.args.end(), {"--seed", std::to_string(*options.seed)});
  spec.args.insert(spec.args.end(), side.run_args.begin(), side.run_args.end());
  return spec;
}

// Reads the side's report after its run. Returns an error or "".
std::string read_side_report(const Side& side, const ChildOutcome& child, nlohmann::json& report) {
  const bool exited = child.spawn_error.empty() && child.signal == 0;
  if (exited && child.exit_code == kExitBadInput) {
    const std::string line = first_line_of_file(side.dir + "/stderr.txt");
    return side.flag + ": " + (line.empty() ? "nssim run: exit 2 with no message" : line);
  }
  if (!exited || (child.exit_code != 0 && child.exit_code != kExitExpectationFailed)) {
    return side.flag + ": nssim run: " + describe_outcome(child) + " (see " + side.dir +
           "/stderr.txt)";
  }
  const std::string path = side.dir + "/report.json";
  std::ifstream in(path);
  if (!in) return side.flag + ": cannot read " + path;
  try {
    report = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    return side.flag + ": " + path + ": invalid JSON: " + error.what();
  }
  return "";
}

// A setting's value as a person writes it: strings without quotes.
std::string plain(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

void print_summary(const nlohmann::json& comparison) {
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& side = comparison["sides"][i];
    const auto& verdict = side["verdict"];
    std::cout << (i == 0 ? "A: " : "B: ") << side["label"].get<std::string>()
              << " (expectations: " << (verdict.is_string() ? verdict.get<std::string>() : "none")
              << ")\n";
  }
  std::string settings;
  for (const auto& setting : comparison["settings"]) {
    if (!setting["changed"].get<bool>()) continue;
    settings += (settings.empty() ? "" : ", ") + setting["name"].get<std::string>() + " " +
                plain(setting["a"]) + " -> " + plain(setting["b"]);
  }
  if (!settings.empty()) std::cout << "settings that differ: " << settings << "\n";
  for (const auto& note : comparison["notes"]) {
    std::cout << "note: " << note.get<std::string>() << "\n";
  }
  const auto& changes = comparison["changes"];
  if (changes.empty()) std::cout << "no figure differs\n";
  if (!changes.empty()) std::cout << "what changed, biggest moves first:\n";
  for (std::size_t i = 0; i < changes.size() && i < kChangesPrinted; ++i) {
    std::cout << "  " << reports::format_change(changes[i]) << "\n";
  }
  if (changes.size() > kChangesPrinted) {
    std::cout << "  ... and " << changes.size() - kChangesPrinted << " more\n";
  }
}

// One side over the seeds, in forked runs, into its folder as a sweep. Returns an error or "".
std::string run_side_over_seeds(const CompareOptions& options, const Side& side,
                                reports::SeedSide& result) {
  const LoadedSweep& sweep = side.sweep;
  std::string error;
  auto records =
      run_sweep_range(sweep, shard_range(1, 1, sweep.plan.run_count()), jobs_of(options), error);
  if (!records) return side.flag + ": " + error;
  const auto document = write_sweep_documents(side.dir, sweep.plan, *records, error);
  if (!document) return side.flag + ": " + error;
  result = {side.label, side.settings, *document, std::move(*records)};
  return "";
}

void print_seed_summary(const nlohmann::json& comparison) {
  for (std::size_t i = 0; i < 2; ++i) {
    std::cout << (i == 0 ? "A: " : "B: ") << comparison["sides"][i]["label"].get<std::string>()
              << "\n";
  }
  std::cout << "method: " << comparison["method"]["text"].get<std::string>() << "\n";
  const auto& changes = comparison["changes"];
  if (changes.empty()) std::cout << "no significant change\n";
  if (!changes.empty()) std::cout << "what changed beyond seed noise, biggest moves first:\n";
  for (std::size_t i = 0; i < changes.size() && i < kChangesPrinted; ++i) {
    std::cout << "  " << reports::format_seed_change(changes[i]) << "\n";
  }
  if (changes.size() > kChangesPrinted) {
    std::cout << "  ... and " << changes.size() - kChangesPrinted << " more\n";
  }
}

int run_compare_over_seeds(const CompareOptions& options, const Side& a, const Side& b,
                           const std::string& dir) {
  std::cout << total_cost_line(total_cost_of(a, b), jobs_of(options)) << std::endl;
  reports::SeedSide side_a;
  reports::SeedSide side_b;
  std::string error = run_side_over_seeds(options, a, side_a);
  if (error.empty()) error = run_side_over_seeds(options, b, side_b);
  if (!error.empty()) {
    std::cerr << "nssim compare: " << error << "\n";
    return kExitBadInput;
  }
  const nlohmann::json comparison = reports::build_seed_comparison(side_a, side_b);
  error = write_files_atomically(
      dir, {{"compare.json", comparison.dump(2) + "\n"},
            {"compare.md", reports::render_seed_comparison_markdown(comparison)},
            {"compare.html", reports::render_seed_comparison_html(comparison)}});
  if (!error.empty()) {
    std::cerr << "nssim compare: " << error << "\n";
    return kExitBadInput;
  }
  print_seed_summary(comparison);
  std::cout << "report: " << dir << "/compare.html" << std::endl;
  return 0;
}

int run_compare(const CompareOptions& options) {
  Side a;
  a.flag = "--a";
  Side b;
  b.flag = "--b";
  std::string dir;
  if (auto error = prepare(options, a, b, dir); !error.empty()) {
    std::cerr << "nssim compare: " << error << "\n";
    return kExitBadInput;
  }
  if (!options.seeds.empty()) return run_compare_over_seeds(options, a, b, dir);
  const auto outcomes = run_children({child_spec(options, a), child_spec(options, b)}, 2, {});
  nlohmann::json report_a;
  nlohmann::json report_b;
  std::string error = read_side_report(a, outcomes[0], report_a);
  if (error.empty()) error = read_side_report(b, outcomes[1], report_b);
  if (!error.empty()) {
    std::cerr << "nssim compare: " << error << "\n";
    return kExitBadInput;
  }
  nlohmann::json comparison = reports::build_comparison(report_a, report_b, a.label, b.label);
  comparison["notes"].push_back(
      "a single sample: one seed a side, so any difference may be seed noise (--seeds N "
      "compares the distributions and says which differences are beyond it)");
  for (std::size_t i = 0; i < 2; ++i) {
    const Side& side = i == 0 ? a : b;
    comparison["sides"][i]["overrides"] = side.settings;
    if (fs::exists(side.dir + "/report.html")) {
      comparison["sides"][i]["report_html"] = (i == 0 ? "a" : "b") + std::string("/report.html");
    }
  }
  const std::string error_text =
      write_files_atomically(dir, {{"compare.json", comparison.dump(2) + "\n"},
                                   {"compare.md", reports::render_comparison_markdown(comparison)},
                                   {"compare.html", reports::render_comparison_html(comparison)}});
  if (!error_text.empty()) {
    std::cerr << "nssim compare: " << error_text << "\n";
    return kExitBadInput;
  }
  print_summary(comparison);
  std::cout << "report: " << dir << "/compare.html" << std::endl;
  return 0;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<CompareOptions>();
  CLI::App* command = app.add_subcommand(
      "compare", "Run one scenario under two settings and compare the runs side by side");
  command->add_option("scenario", options->scenario, "Scenario JSON file")->required();
  command
      ->add_option("--a", options->a,
                   "Setting of side A: profile=4.9|5.x or PATH=VALUE (as run --set)")
      ->allow_extra_args(false);
  command->add_option("--b", options->b, "Setting of side B, as --a")->allow_extra_args(false);
  command->add_option("--seed", options->seed, "Seed of both runs (overrides the scenario's)")
      ->check(seed_text());
  command->add_option("--out", options->out, "Output folder (default out/compare-<name>)")
      ->check(non_empty_text());
  command->add_option("--label-a", options->label_a, "Name of side A (default: its settings)")
      ->check(non_empty_text());
  command->add_option("--label-b", options->label_b, "Name of side B (default: its settings)")
      ->check(non_empty_text());
  command
      ->add_option("--seeds", options->seeds,
                   "N or A..B: run both sides over these seeds and judge against seed noise")
      ->check(non_empty_text());
  command->add_option("-j,--jobs", options->jobs, "Runs at a time with --seeds (default: cores)")
      ->check(whole_number(1, kMaxJobs));
  add_total_cpu_limit_option(*command, options->total_cpu_limit);
  command->callback([options, &exit_code] { exit_code = run_compare(*options); });
}

}  // namespace nssim::cli

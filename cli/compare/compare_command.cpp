// File: `nssim compare SCENARIO --a NAME=VALUE... --b NAME=VALUE...`: the same scenario and seed
// under two settings, each run as its own `nssim run` child (one simulation per process), then one
// comparison of their reports as compare.json, compare.md and compare.html. Both sides are loaded
// here first, so a bad setting is reported before anything runs or is written.
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/flag_checks.h"
#include "cli/posix/child_runs.h"
#include "cli/posix/output_dir.h"
#include "cli/posix/staged_folder.h"
#include "cli/refusal.h"
#include "cli/sweep/sweep_command.h"
#include "reports/compare/compare_report.h"
#include "reports/compare/compare_seeds.h"
#include "sim/scenario/scenario_loader.h"

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
// --set NAME=VALUE.
void parse_side(const std::vector<std::string>& settings, Side& side) {
  for (const auto& setting : settings) {
    const std::size_t equals = setting.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw Refusal{side.flag + ": expected NAME=VALUE, got '" + setting + "'"};
    }
    const std::string name = setting.substr(0, equals);
    const std::string value = setting.substr(equals + 1);
    if (name == "profile") {
      if (side.load.profile) throw Refusal{side.flag + ": profile is given twice"};
      side.load.profile = core::parse_profile(value);
      if (!side.load.profile) {
        throw Refusal{side.flag + ": profile: expected 4.9 or 5.x, got '" + value + "'"};
      }
      side.run_args.insert(side.run_args.end(), {"--profile", value});
      side.profile = value;
    } else {
      side.load.set.push_back(setting);
      side.run_args.insert(side.run_args.end(), {"--set", setting});
    }
    side.settings.push_back(setting);
  }
}

std::string default_label(const std::vector<std::string>& settings) {
  std::string label;
  for (const auto& setting : settings) label += (label.empty() ? "" : " ") + setting;
  return label.empty() ? "as written" : label;
}

// Parses one side and loads the scenario with it, as `nssim run` will; returns its name.
std::string prepare_side(const CompareOptions& options, const std::vector<std::string>& settings,
                         const std::string& label, Side& side) {
  parse_side(settings, side);
  side.load.seed = options.seed;
  side.label = label.empty() ? default_label(settings) : label;
  return in_context(settings.empty() ? "" : side.flag + ": ",
                    [&] { return sim::load_scenario_file(options.scenario, side.load).name; });
}

sim::TotalCost total_cost_of(const Side& a, const Side& b) {
  sim::TotalCost total;  // both sides' runs together
  for (const Side* side : {&a, &b}) {
    add_sweep_cost(total, side->sweep, shard_range(1, 1, side->sweep.plan.run_count()));
  }
  return total;
}

// With --seeds: loads each side's sweep and checks their runs' whole cost, before any folder is
// made.
void load_side_sweeps(const CompareOptions& options, Side& a, Side& b) {
  for (Side* side : {&a, &b}) {
    side->sweep = in_context(side->flag + ": ", [&] {
      return load_sweep({options.scenario, options.seeds, {}, side->load.set, side->profile, ""},
                        nssim_version());
    });
  }
  in_context(options.scenario + ": ", [&] {
    check_total_cost(total_cost_of(a, b), jobs_of(options), options.total_cpu_limit);
  });
}

// Prepares both sides and names their folders; returns the output folder.
std::string prepare(const CompareOptions& options, Side& a, Side& b) {
  if (options.a.empty() && options.b.empty()) throw Refusal{"give at least one of --a and --b"};
  if (!options.seeds.empty() && options.seed) {
    throw Refusal{"give --seed (one run a side) or --seeds, not both"};
  }
  if (!options.seeds.empty()) {
    load_sweep({options.scenario, options.seeds, {}, {}, "", ""}, nssim_version());
  }
  prepare_side(options, options.a, options.label_a, a);
  const std::string scenario_name = prepare_side(options, options.b, options.label_b, b);
  if (!options.seeds.empty()) load_side_sweeps(options, a, b);
  const std::string dir = options.out.empty() ? "out/compare-" + scenario_name : options.out;
  a.dir = (fs::path(dir) / "a").string();
  b.dir = (fs::path(dir) / "b").string();
  return dir;
}

// The comparison's group in --out; the sides' folders, each written as a group of its own
// before the comparison, are kept across its swap.
StagedFolder prepare_compare_folder(const std::string& dir) {
  return in_context("--out: ", [&] {
    return StagedFolder::prepare("compare", dir, {"compare.json", "compare.md", "compare.html"},
                                 {"a", "b"});
  });
}

// Each side's folder for its `nssim run` child, which opens its stdout.txt and stderr.txt there.
void make_side_folders(const Side& a, const Side& b) {
  for (const Side* side : {&a, &b}) {
    in_context("--out: ", [&] { make_output_dir(side->dir); });
    std::error_code ignored;
    fs::remove(side->dir + "/report.json", ignored);  // never read a previous run's report
  }
}

ChildSpec child_spec(const CompareOptions& options, const Side& side) {
  ChildSpec spec{{"run", options.scenario, "--out", side.dir},
                 side.dir + "/stdout.txt",
                 side.dir + "/stderr.txt"};
  if (options.seed) spec.args.insert(spec.args.end(), {"--seed", std::to_string(*options.seed)});
  spec.args.insert(spec.args.end(), side.run_args.begin(), side.run_args.end());
  return spec;
}

// The side's report after its run.
nlohmann::json read_side_report(const Side& side, const ChildOutcome& child) {
  const bool exited = child.spawn_error.empty() && child.signal == 0;
  if (exited && child.exit_code == kExitBadInput) {
    const std::string line = first_line_of_file(side.dir + "/stderr.txt");
    throw Refusal{side.flag + ": " + (line.empty() ? "nssim run: exit 2 with no message" : line)};
  }
  if (!exited || (child.exit_code != 0 && child.exit_code != kExitExpectationFailed)) {
    throw Refusal{side.flag + ": nssim run: " + describe_outcome(child) + " (see " + side.dir +
                  "/stderr.txt)"};
  }
  return in_context(side.flag + ": ", [&] { return read_child_report(side.dir); });
}

// A setting's value as a person writes it: strings without quotes.
std::string plain(const nlohmann::json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

// The biggest changes, one line each by `format`, leaving out the headline's figures (and their
// copies): the answer was said first.
void print_changes(const nlohmann::json& comparison,
                   std::string (*format)(const nlohmann::json& row)) {
  std::set<std::string> said;
  for (const auto& entry : comparison["headline"]) said.insert(entry["figure"].get<std::string>());
  const auto already_said = [&said](const nlohmann::json& change) {
    if (said.count(change["figure"].get<std::string>()) != 0) return true;
    for (const auto& copy : change.value("copies", nlohmann::json::array())) {
      if (said.count(copy.get<std::string>()) != 0) return true;
    }
    return false;
  };
  std::size_t printed = 0;
  std::size_t left = 0;
  for (const auto& change : comparison["changes"]) {
    if (already_said(change)) continue;
    if (printed == kChangesPrinted) {
      ++left;
      continue;
    }
    std::cout << "  " << format(change) << "\n";
    ++printed;
  }
  if (left > 0) std::cout << "  ... and " << left << " more\n";
}

void print_summary(const nlohmann::json& comparison) {
  // The answer first, each headline figure once (reports/README.md "compare.json").
  for (const auto& entry : comparison["headline"]) {
    std::cout << reports::format_headline(entry) << "\n";
  }
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
  print_changes(comparison, reports::format_change);
}

// One side over the seeds, in forked runs, into its folder as a sweep.
reports::SeedSide run_side_over_seeds(const CompareOptions& options, const Side& side,
                                      StagedFolder& folder) {
  return in_context(side.flag + ": ", [&] {
    const LoadedSweep& sweep = side.sweep;
    auto records =
        run_sweep_range(sweep, shard_range(1, 1, sweep.plan.run_count()), jobs_of(options));
    nlohmann::json document = write_sweep_documents(folder, sweep.plan, records);
    return reports::SeedSide{side.label, side.settings, std::move(document), std::move(records)};
  });
}

void print_seed_summary(const nlohmann::json& comparison) {
  // The answer first, each headline figure once (reports/README.md "compare --seeds").
  for (const auto& entry : comparison["headline"]) {
    std::cout << reports::format_headline(entry) << "\n";
  }
  for (std::size_t i = 0; i < 2; ++i) {
    std::cout << (i == 0 ? "A: " : "B: ") << comparison["sides"][i]["label"].get<std::string>()
              << "\n";
  }
  std::cout << "method: " << comparison["method"]["text"].get<std::string>() << "\n";
  const auto& changes = comparison["changes"];
  if (changes.empty()) std::cout << "no change beyond seed noise and big enough to matter\n";
  if (!changes.empty()) {
    std::cout << "what changed beyond seed noise and enough to matter, biggest moves first:\n";
  }
  print_changes(comparison, reports::format_seed_change);
}

int run_compare_over_seeds(const CompareOptions& options, const Side& a, const Side& b,
                           const std::string& dir, StagedFolder& staged) {
  StagedFolder folder_a =
      in_context("--out: ", [&] { return prepare_sweep_folder("compare --seeds", a.dir); });
  StagedFolder folder_b =
      in_context("--out: ", [&] { return prepare_sweep_folder("compare --seeds", b.dir); });
  std::cout << total_cost_line(total_cost_of(a, b), jobs_of(options)) << std::endl;
  const reports::SeedSide side_a = run_side_over_seeds(options, a, folder_a);
  const reports::SeedSide side_b = run_side_over_seeds(options, b, folder_b);
  const nlohmann::json comparison = reports::build_seed_comparison(side_a, side_b);
  staged.commit({{"compare.json", comparison.dump(2) + "\n"},
                 {"compare.md", reports::render_seed_comparison_markdown(comparison)},
                 {"compare.html", reports::render_seed_comparison_html(comparison)}});
  print_seed_summary(comparison);
  std::cout << "report: " << dir << "/compare.html" << std::endl;
  return 0;
}

int run_compare(const CompareOptions& options) {
  Side a;
  a.flag = "--a";
  Side b;
  b.flag = "--b";
  const std::string dir = prepare(options, a, b);
  StagedFolder staged = prepare_compare_folder(dir);
  if (!options.seeds.empty()) return run_compare_over_seeds(options, a, b, dir, staged);
  make_side_folders(a, b);
  const auto outcomes = run_children({child_spec(options, a), child_spec(options, b)}, 2, {});
  const nlohmann::json report_a = read_side_report(a, outcomes[0]);
  const nlohmann::json report_b = read_side_report(b, outcomes[1]);
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
  staged.commit({{"compare.json", comparison.dump(2) + "\n"},
                 {"compare.md", reports::render_comparison_markdown(comparison)},
                 {"compare.html", reports::render_comparison_html(comparison)}});
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
  run_refusing(*command, exit_code, [options] { return run_compare(*options); });
}

}  // namespace nssim::cli

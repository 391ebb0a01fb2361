// File: the nssim executable: a CLI11 app whose subcommands register themselves (commands.h).
// Parse errors are one line on stderr and exit code 2 (an unknown command named, with the nearest
// one); --help prints usage and exits 0, a bare `nssim` prints it on stderr and exits 2.
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "sim/scenario/scenario_json.h"

namespace {

// A first argument that is no option and names no subcommand: CLI11 would say only "A
// subcommand is required", and with --help after it print the top help and exit 0, as if the
// command had been understood. Named here, with the nearest command, whatever follows it.
std::optional<std::string> unknown_command(CLI::App& app, int argc, char** argv) {
  if (argc < 2 || argv[1][0] == '-') return std::nullopt;
  const std::string given = argv[1];
  std::vector<std::string> names;
  for (const CLI::App* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    if (command->get_name() == given) return std::nullopt;
    names.push_back(command->get_name());
  }
  std::string known;
  for (const std::string& name : names) known += (known.empty() ? "" : ", ") + name;
  const auto near = nssim::sim::detail::closest_name(given, names);
  return "unknown command '" + given + "'" + (near ? " (did you mean " + *near + "?)" : "") +
         "; the commands are " + known + " (nssim --help)";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"nssim: a RocketMQ NameServer core (4.9.x and 5.x behaviour) and its simulator"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("nssim ") + nssim::cli::nssim_version());
  int exit_code = 0;
  nssim::cli::add_replay_command(app, exit_code);
  nssim::cli::add_serve_command(app, exit_code);
  nssim::cli::add_run_command(app, exit_code);
  nssim::cli::add_check_command(app, exit_code);
  nssim::cli::add_compare_command(app, exit_code);
  nssim::cli::add_sweep_command(app, exit_code);
  nssim::cli::add_explore_command(app, exit_code);
  nssim::cli::add_import_command(app, exit_code);
  if (argc == 1) {  // a bare `nssim`: what it can do, rather than a one-line error
    app.name(argv[0]);
    std::cerr << app.help();
    return nssim::cli::kExitBadInput;
  }
  if (const auto unknown = unknown_command(app, argc, argv)) {
    std::cerr << "nssim: " << *unknown << "\n";
    return nssim::cli::kExitBadInput;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    if (error.get_exit_code() == 0) return app.exit(error);  // --help
    std::cerr << "nssim: " << error.what() << "\n";
    return nssim::cli::kExitBadInput;
  }
  // The subcommand has written, closed and renamed every file it makes. What a normal return
  // would still run is the static destructors of SimGrid, ns-3 (its type and log registries) and
  // the rest of the 29 libraries: they only free memory the kernel takes back anyway, and took
  // 2 ms, 5 % of `nssim run bench/scenarios/small.json`. So flush what is buffered and leave.
  std::fflush(nullptr);
  std::_Exit(exit_code);
}

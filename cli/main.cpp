// File: the nssim executable: a CLI11 app whose subcommands register themselves (commands.h).
// Parse errors are one line on stderr and exit code 2; --help prints usage and exits 0, a bare
// `nssim` prints it on stderr and exits 2.
#include <cstdio>
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"

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
  if (argc == 1) {  // a bare `nssim`: what it can do, rather than a one-line error
    app.name(argv[0]);
    std::cerr << app.help();
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

// File: `nssim replay`: feeds a JSON Lines file (or stdin) through one NameServer and prints one
// JSON line per input line. Bad flags stop it before any output; malformed lines are reported in
// place and make the exit code 2 at the end. docs/replay.md describes the format.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/flag_checks.h"
#include "cli/namesrv_options.h"
#include "cli/refusal.h"
#include "nameserver_codec/replay.h"

namespace nssim::cli {

namespace {

struct ReplayOptions {
  std::string file = "-";
  std::string profile = "5.x";
  std::vector<std::string> config;
};

int run_replay(const ReplayOptions& options) {
  NamesrvOptions namesrv = parse_namesrv_options(options.profile, options.config);

  std::ifstream file;
  std::istream* input = &std::cin;
  if (options.file != "-") {
    std::error_code ignored;
    if (std::filesystem::is_directory(options.file, ignored)) {
      throw Refusal{"'" + options.file + "' is a directory, expected a JSON Lines file"};
    }
    file.open(options.file);
    if (!file) throw Refusal{"cannot open '" + options.file + "': " + std::strerror(errno)};
    input = &file;
  }

  codec::ReplaySession session(namesrv.profile, std::move(namesrv.config));
  std::string line;
  while (std::getline(*input, line) && std::cout) {
    std::cout << session.process_line(line) << '\n';
  }
  if (input->bad()) throw Refusal{"cannot read '" + options.file + "': " + std::strerror(errno)};
  std::cout.flush();
  // A full disk or a closed pipe would otherwise lose the answers and still exit 0.
  if (!std::cout) throw Refusal{std::string("cannot write the output: ") + std::strerror(errno)};
  // Each malformed line was answered in place; the exit code still says there were some.
  return session.had_errors() ? kExitBadInput : 0;
}

}  // namespace

void add_replay_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReplayOptions>();
  CLI::App* replay = app.add_subcommand(
      "replay", "Run RocketMQ requests and channel events (JSON Lines) through one NameServer");
  replay->add_option("file", options->file, "input JSON Lines file, or - for stdin (default)");
  replay->add_option("--profile", options->profile, "upstream behaviour: 4.9 or 5.x (default)")
      ->check(non_empty_text());
  replay->add_option("--config", options->config, "set a NamesrvConfig field, NAME=VALUE")
      ->allow_extra_args(false);
  run_refusing(*replay, exit_code, [options] { return run_replay(*options); });
}

}  // namespace nssim::cli

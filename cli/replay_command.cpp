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
#include <variant>
#include <vector>

#include "commands.h"
#include "flag_checks.h"
#include "nameserver_codec/replay.h"
#include "namesrv_options.h"

namespace nssim::cli {

namespace {

struct ReplayOptions {
  std::string file = "-";
  std::string profile = "5.x";
  std::vector<std::string> config;
};

int refuse_replay(const std::string& message) {
  std::cerr << "nssim replay: " << message << "\n";
  return kExitBadInput;
}

int run_replay(const ReplayOptions& options) {
  auto parsed = parse_namesrv_options(options.profile, options.config);
  if (const auto* error = std::get_if<std::string>(&parsed)) return refuse_replay(*error);
  auto& namesrv = std::get<NamesrvOptions>(parsed);

  std::ifstream file;
  std::istream* input = &std::cin;
  if (options.file != "-") {
    std::error_code ignored;
    if (std::filesystem::is_directory(options.file, ignored)) {
      return refuse_replay("'" + options.file + "' is a directory, expected a JSON Lines file");
    }
    file.open(options.file);
    if (!file) return refuse_replay("cannot open '" + options.file + "': " + std::strerror(errno));
    input = &file;
  }

  codec::ReplaySession session(namesrv.profile, std::move(namesrv.config));
  std::string line;
  while (std::getline(*input, line) && std::cout) {
    std::cout << session.process_line(line) << '\n';
  }
  if (input->bad())
    return refuse_replay("cannot read '" + options.file + "': " + std::strerror(errno));
  std::cout.flush();
  // A full disk or a closed pipe would otherwise lose the answers and still exit 0.
  if (!std::cout)
    return refuse_replay(std::string("cannot write the output: ") + std::strerror(errno));
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
  replay->callback([options, &exit_code] { exit_code = run_replay(*options); });
}

}  // namespace nssim::cli

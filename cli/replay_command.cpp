// File: `nssim replay`: feeds a JSON Lines file (or stdin) through one NameServer and prints one
// JSON line per input line. Bad flags stop it before any output; malformed lines are reported in
// place and make the exit code 2 at the end. docs/replay.md describes the format.
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "commands.h"
#include "flag_checks.h"
#include "nameserver_codec/replay.h"
#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"

namespace nssim::cli {

namespace {

struct ReplayOptions {
  std::string file = "-";
  std::string profile = "5.x";
  std::vector<std::string> config;
};

int fail(const std::string& message) {
  std::cerr << "nssim replay: " << message << "\n";
  return kExitBadInput;
}

// --config NAME=VALUE sets an upstream NamesrvConfig field, strictly parsed.
std::optional<std::string> apply_config(core::NamesrvConfig& config, core::Profile profile,
                                        const std::string& assignment) {
  const auto equals = assignment.find('=');
  if (equals == std::string::npos || equals == 0) {
    return "--config: expected NAME=VALUE, got '" + assignment + "'";
  }
  if (auto error = core::set_namesrv_config_field(config, profile, assignment.substr(0, equals),
                                                  assignment.substr(equals + 1),
                                                  core::ConfigParse::kStrict)) {
    return "--config: " + *error;
  }
  return std::nullopt;
}

int run_replay(const ReplayOptions& options) {
  const auto profile = core::parse_profile(options.profile);
  if (!profile) return fail("--profile: expected 4.9 or 5.x, got '" + options.profile + "'");
  core::NamesrvConfig config;
  for (const auto& assignment : options.config) {
    if (auto error = apply_config(config, *profile, assignment)) return fail(*error);
  }
  if (const auto error = core::namesrv_startup_error(config)) {
    return fail("--config: " + error->first + ": " + error->second);
  }

  std::ifstream file;
  std::istream* input = &std::cin;
  if (options.file != "-") {
    std::error_code ignored;
    if (std::filesystem::is_directory(options.file, ignored)) {
      return fail("'" + options.file + "' is a directory, expected a JSON Lines file");
    }
    file.open(options.file);
    if (!file) return fail("cannot open '" + options.file + "': " + std::strerror(errno));
    input = &file;
  }

  codec::ReplaySession session(*profile, std::move(config));
  std::string line;
  while (std::getline(*input, line) && std::cout) {
    std::cout << session.process_line(line) << '\n';
  }
  if (input->bad()) return fail("cannot read '" + options.file + "': " + std::strerror(errno));
  std::cout.flush();
  // A full disk or a closed pipe would otherwise lose the answers and still exit 0.
  if (!std::cout) return fail(std::string("cannot write the output: ") + std::strerror(errno));
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

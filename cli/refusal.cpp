// File: run_refusing (see commands.h), the one place a command's Refusal becomes its stderr line
// and exit code 2.
#include "cli/refusal.h"

#include <iostream>
#include <utility>

#include "cli/commands.h"

namespace nssim::cli {

namespace {

// "nssim sweep merge": the names from the root app down to `command`.
std::string command_path(const CLI::App& command) {
  std::string path = command.get_name();
  for (const CLI::App* at = command.get_parent(); at != nullptr && at->get_parent() != nullptr;
       at = at->get_parent()) {
    path = at->get_name() + " " + path;
  }
  return "nssim " + path;
}

int refuse(const CLI::App& command, const std::string& message) {
  std::cerr << command_path(command) << ": " << message << "\n";
  return kExitBadInput;
}

}  // namespace

void run_refusing(CLI::App& command, int& exit_code, std::function<int()> body) {
  command.callback([&command, &exit_code, body = std::move(body)] {
    // A command whose subcommand ran (`sweep merge`) leaves the exit code to it.
    if (!command.get_subcommands().empty()) return;
    try {
      exit_code = body();
    } catch (const Refusal& refusal) {
      exit_code = refuse(command, refusal.message);
    } catch (const sim::ScenarioError& error) {
      exit_code = refuse(command, error.what());
    }
  });
}

}  // namespace nssim::cli

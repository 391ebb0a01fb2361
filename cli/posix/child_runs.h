// File: running `nssim` subcommands as child processes of this same executable, a bounded number
// at a time. SimGrid allows one simulation per process, so `nssim check` and `nssim compare` run
// each simulation as its own `nssim run` child, with its output captured to files.
#pragma once

#include <cstddef>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nssim::cli {

// One child: the arguments after the executable name (e.g. {"run", "x.json", "--out", "d"}) and
// the files its stdout and stderr are written to (truncated first; their folder must exist).
struct ChildSpec {
  std::vector<std::string> args;
  std::string stdout_path;
  std::string stderr_path;
};

// How a child ended. `spawn_error` is set when it could not be started (or its output files
// could not be opened); `signal` when it was killed; otherwise `exit_code` is its exit status.
struct ChildOutcome {
  int exit_code = -1;
  int signal = 0;
  std::string spawn_error;
};

// Called on the caller's thread as children start and end, in the order those things happen;
// the index is the child's position in the spec list.
struct ChildObserver {
  std::function<void(std::size_t index)> started;
  std::function<void(std::size_t index, const ChildOutcome& outcome)> finished;
};

// Runs every spec as a child of /proc/self/exe (no shell; stdin is /dev/null), starting them in
// list order with at most `parallel` (>= 1) alive at once, and waits for all of them. Outcomes
// are returned in spec order.
std::vector<ChildOutcome> run_children(const std::vector<ChildSpec>& specs, std::size_t parallel,
                                       const ChildObserver& observer);

// "exit 2", "killed by signal 9" or the spawn error: for messages about a child that failed.
std::string describe_outcome(const ChildOutcome& outcome);

// The first non-empty line of a text file (a child's one-line error), or "" if none.
std::string first_line_of_file(const std::string& path);

// The report.json a `nssim run` child wrote into `dir`; a Refusal naming the file when it cannot
// be read or is not JSON.
nlohmann::json read_child_report(const std::string& dir);

}  // namespace nssim::cli

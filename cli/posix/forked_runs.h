// File: running many simulations from one loaded process: each run is a fork of this process
// that computes one answer (a line of text) and hands it back through a pipe. SimGrid allows one
// simulation per process, and a fork skips what a fresh `nssim run` pays before simulating:
// exec, loading 29 shared libraries, and parsing and validating the scenario again.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace nssim::cli {

// What one forked run gave back: its text on success, or why it failed ("killed by signal 6",
// "exit 3", "fork: ...").
struct ForkedOutcome {
  bool ok = false;
  std::string text;
  std::string error;
};

// Runs `work(i)` for i in [0, count), each in its own child, at most `parallel` (>= 1) at once,
// started in index order. `work` runs in the child only; what it returns is the child's answer,
// and an exception it throws fails that run with its message. `finished(i, outcome)` is called in
// the parent as each run ends, in the order they end. Returns the outcomes by index.
std::vector<ForkedOutcome> run_forked(
    std::size_t count, std::size_t parallel, const std::function<std::string(std::size_t)>& work,
    const std::function<void(std::size_t, const ForkedOutcome&)>& finished);

}  // namespace nssim::cli

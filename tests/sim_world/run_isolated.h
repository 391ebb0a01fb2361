// Runs one simulation in a forked child and returns its result.json, because SimGrid allows one
// engine per process and a SimGrid abort must become a test failure, not a dead test runner.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "sim/analysis/run_analysis.h"
#include "sim/record/trace_writer.h"
#include "sim/scenario/scenario.h"
#include "sim/world/world.h"

namespace nssim::sim::testing {

// `extra` (optional) adds to the result what a test needs from the run's record beyond
// result.json (e.g. event-log details); its fields are merged into the result. With `trace`, the
// run also writes trace.jsonl as `nssim run --trace` does, and the result carries its text as
// "trace".
inline nlohmann::json run_isolated(
    const Scenario& scenario, const std::function<nlohmann::json(WorldRecord&)>& extra = nullptr,
    bool trace = false) {
  int fd[2];
  if (pipe(fd) != 0) return {{"error", "pipe failed"}};
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid == 0) {
    close(fd[0]);
    std::string out;
    try {
      std::ostringstream trace_text;
      TraceWriter writer(trace_text);
      WorldRecord record = run_world(scenario, trace ? &writer : nullptr);
      writer.finish();
      nlohmann::json result = analyze_run(scenario, record);
      if (extra) result.update(extra(record));
      if (trace) result["trace"] = trace_text.str();
      out = result.dump();
    } catch (const std::exception& e) {
      out = nlohmann::json{{"error", e.what()}}.dump();
    }
    std::size_t written = 0;
    while (written < out.size()) {
      const ssize_t n = write(fd[1], out.data() + written, out.size() - written);
      if (n <= 0) break;
      written += static_cast<std::size_t>(n);
    }
    _exit(0);
  }
  close(fd[1]);
  std::string buffer;
  char chunk[65536];
  ssize_t n;
  while ((n = read(fd[0], chunk, sizeof chunk)) > 0)
    buffer.append(chunk, static_cast<std::size_t>(n));
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || buffer.empty()) {
    return {{"error", "child died"}, {"signal", WIFSIGNALED(status) ? WTERMSIG(status) : 0}};
  }
  return nlohmann::json::parse(buffer);
}

}  // namespace nssim::sim::testing

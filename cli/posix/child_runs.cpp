// File: run_children with posix_spawn and waitpid (see child_runs.h). The parent opens each
// child's output files itself so that an unwritable file is reported by name.
#include "cli/posix/child_runs.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>

#include "cli/posix/stop_signals.h"
#include "cli/refusal.h"

extern char** environ;

namespace nssim::cli {

namespace {

// The running executable, whatever it is called on disk; resolved by the kernel in the child.
constexpr const char* kSelfExe = "/proc/self/exe";

int open_output(const std::string& path, ChildOutcome& outcome) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0 && outcome.spawn_error.empty()) {
    outcome.spawn_error = "cannot write '" + path + "': " + std::strerror(errno);
  }
  return fd;
}

// Starts one child with stdout/stderr redirected, and the signal mask and dispositions this
// process had before `stop` began; returns its pid, or -1 with spawn_error set.
pid_t spawn_child(const ChildSpec& spec, const StopSignals& stop, ChildOutcome& outcome) {
  const int out_fd = open_output(spec.stdout_path, outcome);
  const int err_fd = open_output(spec.stderr_path, outcome);
  pid_t pid = -1;
  if (out_fd >= 0 && err_fd >= 0) {
    std::vector<std::string> storage{"nssim"};
    storage.insert(storage.end(), spec.args.begin(), spec.args.end());
    std::vector<char*> argv;
    for (auto& arg : storage) argv.push_back(arg.data());
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, out_fd, STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, err_fd, STDERR_FILENO);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    posix_spawnattr_setsigmask(&attributes, &stop.mask_before());
    posix_spawnattr_setsigdefault(&attributes, &stop.handled());
    const int error = posix_spawn(&pid, kSelfExe, &actions, &attributes, argv.data(), environ);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    if (error != 0) {
      pid = -1;
      outcome.spawn_error = std::string("cannot start a child nssim: ") + std::strerror(error);
    }
  }
  if (out_fd >= 0) ::close(out_fd);
  if (err_fd >= 0) ::close(err_fd);
  return pid;
}

void record_status(int status, ChildOutcome& outcome) {
  if (WIFEXITED(status)) {
    outcome.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    outcome.signal = WTERMSIG(status);
  }
}

}  // namespace

std::vector<ChildOutcome> run_children(const std::vector<ChildSpec>& specs, std::size_t parallel,
                                       const ChildObserver& observer) {
  std::vector<ChildOutcome> outcomes(specs.size());
  std::map<pid_t, std::size_t> running;  // pid -> spec index
  std::size_t next = 0;
  const StopSignals stop;
  bool forwarded = false;
  while (true) {
    while (stop.received() == 0 && next < specs.size() && running.size() < parallel) {
      const std::size_t index = next++;
      const pid_t pid = spawn_child(specs[index], stop, outcomes[index]);
      if (pid < 0) {
        if (observer.finished) observer.finished(index, outcomes[index]);
        continue;
      }
      running[pid] = index;
      if (observer.started) observer.started(index);
    }
    if (running.empty() && (stop.received() != 0 || next == specs.size())) break;
    if (stop.received() != 0 && !forwarded) {
      for (const auto& [pid, index] : running) ::kill(pid, stop.received());
      forwarded = true;
    }
    int status = 0;
    const pid_t pid = ::waitpid(-1, &status, WNOHANG);
    if (pid == 0 || (pid < 0 && errno == EINTR)) {
      stop.wait_for_event();
      continue;
    }
    if (pid < 0) {
      // Only possible if something else reaped our children; report them rather than hang.
      const std::string error = std::string("lost track of the child: ") + std::strerror(errno);
      for (const auto& [lost_pid, index] : running) {
        outcomes[index].spawn_error = error;
        if (observer.finished) observer.finished(index, outcomes[index]);
      }
      running.clear();
      continue;
    }
    const auto found = running.find(pid);
    if (found == running.end()) continue;
    const std::size_t index = found->second;
    running.erase(found);
    record_status(status, outcomes[index]);
    if (stop.received() == 0 && observer.finished) observer.finished(index, outcomes[index]);
  }
  if (stop.received() != 0) StopSignals::stop_after_children(stop.received());
  return outcomes;
}

std::string describe_outcome(const ChildOutcome& outcome) {
  if (!outcome.spawn_error.empty()) return outcome.spawn_error;
  if (outcome.signal != 0) {
    return "killed by signal " + std::to_string(outcome.signal) + " (" +
           ::strsignal(outcome.signal) + ")";
  }
  return "exit " + std::to_string(outcome.exit_code);
}

std::string first_line_of_file(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) return line;
  }
  return "";
}

nlohmann::json read_child_report(const std::string& dir) {
  const std::string path = dir + "/report.json";
  std::ifstream in(path);
  if (!in) throw Refusal{"cannot read " + path};
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw Refusal{path + ": invalid JSON: " + error.what()};
  }
}

}  // namespace nssim::cli

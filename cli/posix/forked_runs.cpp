// File: run_forked (see forked_runs.h) with fork, one pipe per child and poll.
#include "cli/posix/forked_runs.h"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <map>
#include <stdexcept>

#include "cli/posix/stop_signals.h"

namespace nssim::cli {

namespace {

struct Child {
  std::size_t index = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string text;
};

// In the child: compute, write everything, and leave without running the parent's exit
// handlers or flushing its copies of the stdio buffers (flushed before the fork).
[[noreturn]] void child_main(int fd, std::size_t index,
                             const std::function<std::string(std::size_t)>& work) {
  int code = 0;
  std::string text;
  try {
    text = work(index);
  } catch (const std::exception& error) {
    text = error.what();
    code = 3;
  }
  const char* data = text.data();
  std::size_t left = text.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, data, left);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) _exit(4);
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  std::fflush(nullptr);
  _exit(code);
}

bool start(std::size_t index, const std::function<std::string(std::size_t)>& work,
           const StopSignals& stop, Child& child, std::string& error) {
  int fds[2];
  if (::pipe(fds) != 0) {
    error = std::string("pipe: ") + std::strerror(errno);
    return false;
  }
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) {
    error = std::string("fork: ") + std::strerror(errno);
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid == 0) {
    ::close(fds[0]);
    stop.restore_in_child();
    child_main(fds[1], index, work);
  }
  ::close(fds[1]);
  child = Child{index, pid, fds[0], {}};
  return true;
}

// Reads what is there; returns false at end of file.
bool drain(Child& child) {
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(child.fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    child.text.append(buffer, static_cast<std::size_t>(n));
    if (static_cast<std::size_t>(n) < sizeof buffer) return true;
  }
}

ForkedOutcome reap(Child& child) {
  ::close(child.fd);
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  ForkedOutcome outcome;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    outcome.ok = true;
    outcome.text = std::move(child.text);
  } else if (WIFEXITED(status)) {
    outcome.error = child.text.empty() ? "exit " + std::to_string(WEXITSTATUS(status)) : child.text;
  } else if (WIFSIGNALED(status)) {
    outcome.error = "killed by signal " + std::to_string(WTERMSIG(status)) + " (" +
                    ::strsignal(WTERMSIG(status)) + ")";
  } else {
    outcome.error = "ended in an unknown state";
  }
  return outcome;
}

}  // namespace

std::vector<ForkedOutcome> run_forked(
    std::size_t count, std::size_t parallel, const std::function<std::string(std::size_t)>& work,
    const std::function<void(std::size_t, const ForkedOutcome&)>& finished) {
  std::vector<ForkedOutcome> outcomes(count);
  std::map<int, Child> running;  // by pipe fd
  std::size_t next = 0;
  const StopSignals stop;
  bool forwarded = false;
  while (true) {
    while (stop.received() == 0 && next < count && running.size() < parallel) {
      const std::size_t index = next++;
      Child child;
      std::string error;
      if (!start(index, work, stop, child, error)) {
        outcomes[index].error = error;
        if (finished) finished(index, outcomes[index]);
        continue;
      }
      running.emplace(child.fd, std::move(child));
    }
    if (running.empty() && (stop.received() != 0 || next == count)) break;
    if (stop.received() != 0 && !forwarded) {
      for (const auto& [fd, child] : running) ::kill(child.pid, stop.received());
      forwarded = true;
    }
    std::vector<pollfd> fds;
    for (const auto& [fd, child] : running) fds.push_back({fd, POLLIN, 0});
    if (stop.poll(fds.data(), fds.size()) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("poll: ") + std::strerror(errno));
    }
    for (const auto& ready : fds) {
      if (ready.revents == 0) continue;
      Child& child = running.at(ready.fd);
      if (drain(child)) continue;
      const std::size_t index = child.index;
      outcomes[index] = reap(child);
      running.erase(ready.fd);
      if (stop.received() == 0 && finished) finished(index, outcomes[index]);
    }
  }
  if (stop.received() != 0) StopSignals::stop_after_children(stop.received());
  return outcomes;
}

}  // namespace nssim::cli

// File: ServeProcess, Client and run_nssim over POSIX sockets, pipes and poll.
#include "serve_process.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace nssim::serve_test {

namespace {

bool wait_readable(int fd, int timeout_ms) {
  pollfd waiting{fd, POLLIN, 0};
  return ::poll(&waiting, 1, timeout_ms) > 0;
}

std::vector<char*> argv_of(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (auto& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

ServeProcess::ServeProcess(const std::vector<std::string>& args, const ServeSpawn& spawn) {
  int out[2];
  if (::pipe(out) != 0) throw std::runtime_error("pipe failed");
  std::vector<std::string> command = {NSSIM_EXECUTABLE, "serve", "--listen", spawn.listen};
  command.insert(command.end(), args.begin(), args.end());
  pid_ = ::fork();
  if (pid_ == 0) {
    if (spawn.max_open_files > 0) {
      const rlimit files{static_cast<rlim_t>(spawn.max_open_files),
                         static_cast<rlim_t>(spawn.max_open_files)};
      if (::setrlimit(RLIMIT_NOFILE, &files) != 0) std::_Exit(126);
    }
    if (!spawn.stderr_path.empty()) {
      const int err = ::open(spawn.stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err < 0) std::_Exit(126);
      ::dup2(err, STDERR_FILENO);
      ::close(err);
    }
    ::dup2(out[1], STDOUT_FILENO);
    ::close(out[0]);
    ::close(out[1]);
    auto argv = argv_of(command);
    ::execv(argv[0], argv.data());
    std::_Exit(127);
  }
  ::close(out[1]);
  stdout_fd_ = out[0];
  // The start-up line: "nssim serve: listening on 127.0.0.1:PORT (profile P)".
  std::string line;
  char c = 0;
  while (line.find('\n') == std::string::npos && wait_readable(stdout_fd_, kSafetyTimeoutMs) &&
         ::read(stdout_fd_, &c, 1) == 1) {
    line += c;
  }
  const std::string marker = "listening on 127.0.0.1:";
  const auto at = line.find(marker);
  if (at == std::string::npos)
    throw std::runtime_error("no start-up line from nssim serve: " + line);
  port_ = std::atoi(line.c_str() + at + marker.size());
  // Nothing more is read until stop(): a test passing --log keeps its log under the pipe's
  // 64 KiB, or the server would block writing it.
}

int ServeProcess::stop() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int status = 0;
  // Wait on the pipe's end (the process closes stdout as it exits), then reap.
  char buffer[4096];
  ssize_t n = 0;
  while (wait_readable(stdout_fd_, kSafetyTimeoutMs) &&
         (n = ::read(stdout_fd_, buffer, sizeof buffer)) > 0) {
    output_.append(buffer, static_cast<std::size_t>(n));
  }
  rusage usage{};
  const pid_t reaped = ::wait4(pid_, &status, 0, &usage);
  cpu_seconds_ = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                 static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  pid_ = -1;
  ::close(stdout_fd_);
  return reaped > 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

ServeProcess::~ServeProcess() {
  if (pid_ > 0) stop();
}

Client::Client(int port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0) {
    throw std::runtime_error("cannot connect to nssim serve");
  }
}

Client::~Client() {
  if (fd_ >= 0) ::close(fd_);
}

void Client::send_bytes(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const auto n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) throw std::runtime_error("send failed");
    sent += static_cast<std::size_t>(n);
  }
}

void Client::send(const codec::RemotingHeader& header, const std::string& body) {
  send_bytes(codec::encode_frame(header, body));
}

codec::RemotingFrame Client::receive() {
  for (;;) {
    auto next = decoder_.next();
    if (auto* frame = std::get_if<codec::RemotingFrame>(&next)) return *frame;
    if (auto* error = std::get_if<codec::FrameError>(&next)) {
      ADD_FAILURE() << "bad frame from nssim serve: " << error->message;
      return {};
    }
    char buffer[65536];
    if (!wait_readable(fd_, kSafetyTimeoutMs)) {
      ADD_FAILURE() << "no answer from nssim serve within the safety timeout";
      return {};
    }
    const auto n = ::recv(fd_, buffer, sizeof buffer, 0);
    if (n <= 0) {
      ADD_FAILURE() << "nssim serve closed the connection";
      return {};
    }
    decoder_.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
  }
}

bool Client::wait_closed_by_server() {
  char buffer[4096];
  return decoder_.buffered() == 0 && wait_readable(fd_, kSafetyTimeoutMs) &&
         ::recv(fd_, buffer, sizeof buffer, 0) == 0;
}

void Client::reset() {
  const linger abort_on_close{1, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &abort_on_close, sizeof abort_on_close);
  ::close(fd_);
  fd_ = -1;
}

void Client::close_and_wait() {
  ::shutdown(fd_, SHUT_WR);
  EXPECT_TRUE(wait_closed_by_server());
  ::close(fd_);
  fd_ = -1;
}

NssimRun run_nssim(const std::vector<std::string>& args, const std::string& input) {
  char input_path[] = "/tmp/nssim-serve-test-XXXXXX";
  const int input_fd = ::mkstemp(input_path);
  ::close(input_fd);
  std::ofstream(input_path) << input;
  std::string command = std::string(NSSIM_EXECUTABLE);
  for (const auto& arg : args) command += " '" + arg + "'";
  command += std::string(" < ") + input_path + " 2>&1";
  NssimRun run;
  if (FILE* pipe = ::popen(command.c_str(), "r")) {
    char buffer[4096];
    std::size_t n = 0;
    while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) run.output.append(buffer, n);
    const int status = ::pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  ::unlink(input_path);
  return run;
}

}  // namespace nssim::serve_test

// File: test support for `nssim serve`: the server as a child process on a loopback port, and a
// blocking remoting client. Every wait is on a socket or pipe event, bounded by a generous
// safety timeout so a broken server fails the test instead of hanging it.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "nameserver_codec/remoting_frame.h"

namespace nssim::serve_test {

inline constexpr int kSafetyTimeoutMs = 30000;

// How the child is started beyond its arguments.
struct ServeSpawn {
  int max_open_files = 0;   // RLIMIT_NOFILE of the child when above 0
  std::string stderr_path;  // the child's stderr goes to this file when set (else the test's)
  std::string listen = "127.0.0.1:0";
};

// `nssim serve --listen 127.0.0.1:0 ARGS...` (spawn.listen), started and its port read from the
// start-up line.
class ServeProcess {
 public:
  explicit ServeProcess(const std::vector<std::string>& args, const ServeSpawn& spawn = {});
  ~ServeProcess();  // SIGTERM, then the exit status is reaped
  ServeProcess(const ServeProcess&) = delete;
  ServeProcess& operator=(const ServeProcess&) = delete;

  int port() const { return port_; }
  // Sends SIGTERM and returns the exit code (-1 when it did not exit normally in time).
  int stop();
  // What it printed after the start-up line, complete once stop() returned.
  const std::string& output() const { return output_; }
  // User and system CPU seconds the process used, known once stop() reaped it.
  double cpu_seconds() const { return cpu_seconds_; }

 private:
  pid_t pid_ = -1;
  double cpu_seconds_ = 0;
  int stdout_fd_ = -1;
  int port_ = 0;
  std::string output_;
};

class Client {
 public:
  explicit Client(int port);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  void send_bytes(const std::string& bytes);
  void send(const codec::RemotingHeader& header, const std::string& body = "");
  // The next frame; fails the test on timeout, a close or a bad frame.
  codec::RemotingFrame receive();
  // Half-closes, then waits for the server to close its side (it has then run the close event).
  void close_and_wait();
  // Closes with a RST (SO_LINGER 0): the server's next read fails with a connection reset.
  void reset();
  // True when the server closes the connection before anything else arrives.
  bool wait_closed_by_server();

 private:
  int fd_ = -1;
  codec::FrameDecoder decoder_;
};

struct NssimRun {
  std::string output;  // stdout and stderr
  int exit_code = -1;
};

// Runs `nssim ARGS...` with `input` on stdin.
NssimRun run_nssim(const std::vector<std::string>& args, const std::string& input);

}  // namespace nssim::serve_test

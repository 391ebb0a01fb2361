// File: a blocking RocketMQ remoting client over TCP, for `nssim import`: one connection to a
// NameServer, one request at a time, each with a deadline. Asio, like the server beside it, so
// the wall clock and the sockets stay in this library.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "nameserver_codec/remoting_frame.h"

namespace nssim::serve {

// Why a connect or a request failed, in one line without the address (the caller names it).
struct RemotingClientError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class RemotingClient {
 public:
  // Connects to host:port (a name is resolved first) within `timeout`.
  RemotingClient(const std::string& host, std::uint16_t port, std::chrono::milliseconds timeout);
  ~RemotingClient();
  RemotingClient(const RemotingClient&) = delete;
  RemotingClient& operator=(const RemotingClient&) = delete;

  // Sends a request (the opaque is the client's own, counted from 1) and waits up to `timeout`
  // for the response frame with that opaque. A closed connection, a frame that does not decode
  // and a late answer are errors.
  codec::RemotingFrame invoke(codec::RemotingHeader request, std::string_view body,
                              std::chrono::milliseconds timeout);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace nssim::serve

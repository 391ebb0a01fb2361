// File: RemotingClient (see remoting_client.h).
#include "nssim_serve/remoting_client.h"

#include <array>
#include <asio.hpp>
#include <optional>
#include <variant>

namespace nssim::serve {

struct RemotingClient::State {
  asio::io_context io;
  asio::ip::tcp::socket socket{io};
  codec::FrameDecoder decoder;
  int next_opaque = 1;

  // Runs the io_context until `done` or the deadline; false on the deadline.
  bool run_until(const bool& done, std::chrono::milliseconds timeout) {
    io.restart();
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!done) {
      const auto left = deadline - std::chrono::steady_clock::now();
      if (left <= std::chrono::steady_clock::duration::zero()) break;
      if (io.run_one_for(left) == 0 && io.stopped()) io.restart();
    }
    if (done) return true;
    asio::error_code ignored;
    socket.cancel(ignored);
    io.restart();
    io.poll();  // let the cancelled handlers run before the next operation
    return false;
  }
};

RemotingClient::RemotingClient(const std::string& host, std::uint16_t port,
                               std::chrono::milliseconds timeout)
    : state_(std::make_unique<State>()) {
  asio::error_code error;
  asio::ip::tcp::resolver resolver(state_->io);
  const auto endpoints = resolver.resolve(host, std::to_string(port), error);
  if (error) throw RemotingClientError("cannot resolve the host: " + error.message());
  bool done = false;
  asio::error_code connect_error;
  asio::async_connect(state_->socket, endpoints,
                      [&](const asio::error_code& e, const asio::ip::tcp::endpoint&) {
                        connect_error = e;
                        done = true;
                      });
  if (!state_->run_until(done, timeout)) {
    throw RemotingClientError("no connection within " + std::to_string(timeout.count()) + " ms");
  }
  if (connect_error) throw RemotingClientError("connect: " + connect_error.message());
}

RemotingClient::~RemotingClient() = default;

codec::RemotingFrame RemotingClient::invoke(codec::RemotingHeader request, std::string_view body,
                                            std::chrono::milliseconds timeout) {
  State& state = *state_;
  request.opaque = state.next_opaque++;
  const std::string bytes = codec::encode_frame(request, body);
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  const auto left = [&deadline] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                 std::chrono::steady_clock::now());
  };
  bool written = false;
  asio::error_code write_error;
  asio::async_write(state.socket, asio::buffer(bytes), [&](const asio::error_code& e, std::size_t) {
    write_error = e;
    written = true;
  });
  const std::string late = "no answer within " + std::to_string(timeout.count()) + " ms";
  if (!state.run_until(written, left())) throw RemotingClientError(late);
  if (write_error) throw RemotingClientError("send: " + write_error.message());
  std::array<char, 65536> buffer{};
  for (;;) {
    auto next = state.decoder.next();
    if (auto* frame = std::get_if<codec::RemotingFrame>(&next)) {
      const bool response = (frame->header.flag & codec::kFlagResponse) != 0;
      if (response && frame->header.opaque == request.opaque) return std::move(*frame);
      continue;  // a request from the server, or an older answer: not ours
    }
    if (auto* bad = std::get_if<codec::FrameError>(&next)) {
      throw RemotingClientError("not a RocketMQ remoting answer: " + bad->message);
    }
    bool read = false;
    asio::error_code read_error;
    std::size_t count = 0;
    state.socket.async_read_some(asio::buffer(buffer),
                                 [&](const asio::error_code& e, std::size_t n) {
                                   read_error = e;
                                   count = n;
                                   read = true;
                                 });
    if (!state.run_until(read, left())) throw RemotingClientError(late);
    if (read_error == asio::error::eof) {
      throw RemotingClientError("the connection was closed before the answer");
    }
    if (read_error) throw RemotingClientError("receive: " + read_error.message());
    state.decoder.feed(std::string_view(buffer.data(), count));
  }
}

}  // namespace nssim::serve

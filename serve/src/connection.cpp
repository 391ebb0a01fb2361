// File: one connection's reads, frames, answers, idle timer and close events.
#include "serve/src/connection.h"

#include <utility>

#include "nameserver_codec/remoting_handler.h"
#include "nssim_serve/log_text.h"

namespace nssim::serve {

Connection::Connection(ConnectionHost& server, asio::ip::tcp::socket socket, std::uint64_t id)
    : server_(server), socket_(std::move(socket)), id_(id), idle_timer_(socket_.get_executor()) {
  std::error_code ignored;
  peer_ = endpoint_text(socket_.remote_endpoint(ignored));
}

void Connection::start() {
  server_.log("connect #" + std::to_string(id_) + " " + peer_);
  touch();
  read();
}

void Connection::read() {
  socket_.async_read_some(
      asio::buffer(read_buffer_),
      [self = shared_from_this()](std::error_code error, std::size_t count) {
        if (self->closed_) return;
        if (error == asio::error::eof) {
          self->close_with_events("closed by the peer", core::RemovalPath::kChannelClose);
        } else if (error) {
          // Java: NettyConnectManageHandler#exceptionCaught, then close.
          self->close_with_events(error.message(), core::RemovalPath::kChannelException);
        } else {
          self->on_bytes(count);
        }
      });
}

void Connection::on_bytes(std::size_t count) {
  touch();
  decoder_.feed(std::string_view(read_buffer_.data(), count));
  for (;;) {
    auto next = decoder_.next();
    if (std::holds_alternative<std::monostate>(next)) break;
    if (auto* error = std::get_if<codec::FrameError>(&next)) {
      // Java: NettyDecoder logs the decode exception and closes the channel.
      close_with_events("bad frame: " + error->message, core::RemovalPath::kChannelClose);
      return;
    }
    const auto& frame = std::get<codec::RemotingFrame>(next);
    const auto handled =
        codec::handle_frame(server_.name_server(), frame, channel(), server_.now_ms());
    server_.drain_core();
    server_.log("request #" + std::to_string(id_) + " code=" + std::to_string(frame.header.code) +
                " opaque=" + std::to_string(frame.header.opaque) + " -> " +
                (handled.response_code ? "code=" + std::to_string(*handled.response_code)
                                       : std::string("no response")));
    if (handled.response_frame) write(*handled.response_frame);
  }
  read();
}

void Connection::write(std::string frame) {
  outgoing_.push_back(std::move(frame));
  if (outgoing_.size() == 1) write_next();
}

void Connection::write_next() {
  asio::async_write(socket_, asio::buffer(outgoing_.front()),
                    [self = shared_from_this()](std::error_code error, std::size_t) {
                      if (self->closed_) return;
                      if (error) {
                        self->close_with_events(error.message(),
                                                core::RemovalPath::kChannelException);
                        return;
                      }
                      self->touch();
                      self->outgoing_.pop_front();
                      if (!self->outgoing_.empty()) self->write_next();
                    });
}

void Connection::touch() {
  if (server_.idle_seconds() <= 0) return;
  idle_timer_.expires_after(std::chrono::seconds(server_.idle_seconds()));
  idle_timer_.async_wait([self = shared_from_this()](std::error_code error) {
    if (!error && !self->closed_) self->on_idle();
  });
}

// Java: IdleStateHandler fires ALL_IDLE; NettyConnectManageHandler#userEventTriggered closes the
// channel and reports IDLE, and the close that follows reports CLOSE.
void Connection::on_idle() {
  close_with_events("idle for " + std::to_string(server_.idle_seconds()) + " s",
                    core::RemovalPath::kChannelIdle);
}

void Connection::close_with_events(const std::string& why, core::RemovalPath first) {
  auto& name_server = server_.name_server();
  std::vector<core::BrokerRemoval> removals;
  if (first != core::RemovalPath::kChannelClose) {
    removals = name_server.channel_destroyed(channel(), peer_, first);
  }
  for (auto& removal :
       name_server.channel_destroyed(channel(), peer_, core::RemovalPath::kChannelClose)) {
    removals.push_back(std::move(removal));
  }
  for (auto& removal : server_.drain_core()) removals.push_back(std::move(removal));
  const char* event = first == core::RemovalPath::kChannelIdle        ? "idle"
                      : first == core::RemovalPath::kChannelException ? "exception"
                                                                      : "close";
  server_.log(std::string(event) + " #" + std::to_string(id_) + " (" + why +
              ") removed=" + removed_text(removals));
  close_quietly();
  server_.forget(id_);
}

void Connection::close_quietly() {
  if (closed_) return;
  closed_ = true;
  idle_timer_.cancel();
  std::error_code ignored;
  socket_.shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
  socket_.close(ignored);
}

}  // namespace nssim::serve

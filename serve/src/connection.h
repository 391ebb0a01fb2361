// File: Connection, one accepted socket as a core channel (Java: a Netty channel with
// NettyDecoder, IdleStateHandler and NettyConnectManageHandler). Private to the serve library.
#pragma once

#include <array>
#include <asio.hpp>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>

#include "nameserver_codec/remoting_frame.h"
#include "nameserver_core/ids.h"
#include "nameserver_core/route_info_manager.h"
#include "nssim_serve/connection_host.h"

namespace nssim::serve {

class Connection : public std::enable_shared_from_this<Connection> {
 public:
  Connection(ConnectionHost& server, asio::ip::tcp::socket socket, std::uint64_t id);

  void start();

  // Closes the socket without telling the core: the scan's closeChannel already ran the CLOSE
  // event, and at stop nothing is told.
  void close_quietly();

  core::ConnectionId channel() const { return core::ConnectionId{id_}; }

 private:
  void read();
  void on_bytes(std::size_t count);
  void write(std::string frame);
  void write_next();
  void touch();  // a read or a write: the all-idle timer starts again
  void on_idle();
  // Java: BrokerHousekeepingService, then the socket closes. `first` is kChannelIdle or
  // kChannelException when Netty fires that event before the CLOSE.
  void close_with_events(const std::string& why, core::RemovalPath first);

  ConnectionHost& server_;
  asio::ip::tcp::socket socket_;
  std::uint64_t id_;
  std::string peer_;
  asio::steady_timer idle_timer_;
  codec::FrameDecoder decoder_;
  std::array<char, 65536> read_buffer_{};
  std::deque<std::string> outgoing_;
  bool closed_ = false;
};

}  // namespace nssim::serve

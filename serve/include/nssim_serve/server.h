// File: Server, one NameServer core behind a TCP listener speaking RocketMQ remoting (Java:
// NamesrvController with its NettyRemotingServer). Single-threaded: every handler runs on the
// io_context the server is given.
#pragma once

#include <asio.hpp>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "nameserver_core/name_server.h"
#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"
#include "nssim_serve/connection_host.h"

namespace nssim::serve {

class Connection;

struct ServeOptions {
  core::Profile profile = core::Profile::kV5;
  core::NamesrvConfig config;
  // Java: NettyServerConfig#serverChannelMaxIdleTimeSeconds, the IdleStateHandler's all-idle
  // time; 0 or less turns idle closing off, as Netty does.
  int server_channel_max_idle_time_seconds = 120;
  std::ostream* log = nullptr;     // one line per connection event and request, when set
  std::ostream* errors = nullptr;  // a failing accept, once per episode, when set
};

// How long the listener rests after a failed accept (Netty: ServerBootstrapAcceptor's 1 s).
inline constexpr std::chrono::seconds kAcceptRetryDelay{1};

// Milliseconds since the server started on the steady clock: the time every core call gets.
// It is the only wall clock in nssim; the simulator's clock stands in the same place.
class SteadyWallClock {
 public:
  std::int64_t now_ms() const {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                 start_)
        .count();
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

class Server final : public ConnectionHost {
 public:
  // Binds and listens at once; throws asio::system_error when the address cannot be bound.
  Server(asio::io_context& io, const asio::ip::tcp::endpoint& listen, ServeOptions options);
  ~Server();

  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  asio::ip::tcp::endpoint local_endpoint() const { return acceptor_.local_endpoint(); }

  // Closes the listener, every connection and the timers; io_context::run then returns.
  void stop();

  // ConnectionHost: what its connections call back.
  core::NameServer& name_server() override { return name_server_; }
  std::int64_t now_ms() const override { return clock_.now_ms(); }
  void log(const std::string& line) override;
  int idle_seconds() const override { return options_.server_channel_max_idle_time_seconds; }
  void forget(std::uint64_t id) override;
  std::vector<core::BrokerRemoval> drain_core() override;

 private:
  void accept();
  void rest_after_failed_accept(const std::error_code& error);
  void schedule_scan(std::chrono::steady_clock::time_point at);
  void run_scan();

  ServeOptions options_;
  SteadyWallClock clock_;
  core::NameServer name_server_;
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer scan_timer_;
  asio::steady_timer accept_retry_timer_;
  bool accept_failing_ = false;  // since the last accept that succeeded
  std::chrono::steady_clock::time_point next_scan_;
  std::map<std::uint64_t, std::shared_ptr<Connection>> connections_;
  std::uint64_t next_id_ = 1;
  bool stopped_ = false;
};

}  // namespace nssim::serve

// File: the listener, the scan schedule and the connection table of `nssim serve`.
#include "nssim_serve/server.h"

#include <utility>

#include "nssim_serve/log_text.h"
#include "serve/src/connection.h"

namespace nssim::serve {

namespace {

// Java 4.9.8 NamesrvController#initialize: scanNotActiveBroker at a fixed rate, 5 s after start
// and every 10 s. 5.3.3 NamesrvController#startScheduleService: 5 ms after start and every
// scanNotActiveBrokerInterval ms (5000 by default).
std::chrono::milliseconds first_scan_delay(core::Profile profile) {
  return profile == core::Profile::kV4_9 ? std::chrono::milliseconds(5000)
                                         : std::chrono::milliseconds(5);
}

std::chrono::milliseconds scan_period(core::Profile profile, const core::NamesrvConfig& config) {
  return profile == core::Profile::kV4_9
             ? std::chrono::milliseconds(10000)
             : std::chrono::milliseconds(config.scan_not_active_broker_interval);
}

}  // namespace

Server::Server(asio::io_context& io, const asio::ip::tcp::endpoint& listen, ServeOptions options)
    : options_(std::move(options)),
      name_server_(options_.profile, options_.config, clock_.now_ms()),
      acceptor_(io),
      scan_timer_(io),
      accept_retry_timer_(io) {
  acceptor_.open(listen.protocol());
  acceptor_.set_option(asio::ip::tcp::acceptor::reuse_address(true));
  acceptor_.bind(listen);
  acceptor_.listen();
  accept();
  next_scan_ = std::chrono::steady_clock::now() + first_scan_delay(options_.profile);
  schedule_scan(next_scan_);
}

Server::~Server() { stop(); }

void Server::log(const std::string& line) {
  if (options_.log != nullptr) *options_.log << line << std::endl;
}

void Server::accept() {
  acceptor_.async_accept([this](std::error_code error, asio::ip::tcp::socket socket) {
    if (stopped_) return;
    if (error) {
      rest_after_failed_accept(error);
      return;
    }
    accept_failing_ = false;
    const std::uint64_t id = next_id_++;
    auto connection = std::make_shared<Connection>(*this, std::move(socket), id);
    connections_[id] = connection;
    connection->start();
    accept();
  });
}

// Netty: ServerBootstrap$ServerBootstrapAcceptor#exceptionCaught turns autoRead off for 1 s.
// Accepting again at once would spin: out of descriptors (EMFILE), every accept fails while the
// connection it cannot take stays queued. Open connections are served meanwhile.
void Server::rest_after_failed_accept(const std::error_code& error) {
  if (!accept_failing_ && options_.errors != nullptr) {
    *options_.errors << "nssim serve: accept failed: " << error.message() << "; retrying in "
                     << kAcceptRetryDelay.count() << " s" << std::endl;
  }
  accept_failing_ = true;
  accept_retry_timer_.expires_after(kAcceptRetryDelay);
  accept_retry_timer_.async_wait([this](std::error_code cancelled) {
    if (cancelled || stopped_) return;
    accept();
  });
}

void Server::forget(std::uint64_t id) { connections_.erase(id); }

std::vector<core::BrokerRemoval> Server::drain_core() {
  name_server_.take_min_broker_id_notices();
  return name_server_.process_pending_unregistrations();
}

void Server::schedule_scan(std::chrono::steady_clock::time_point at) {
  scan_timer_.expires_at(at);
  scan_timer_.async_wait([this](std::error_code error) {
    if (error || stopped_) return;
    run_scan();
    // A fixed rate, as scheduleAtFixedRate: from the planned time, not from when this one ran.
    next_scan_ += scan_period(options_.profile, options_.config);
    schedule_scan(next_scan_);
  });
}

// Java: RouteInfoManager#scanNotActiveBroker; the channels it closes through
// RemotingHelper#closeChannel have had their CLOSE event in the core already.
void Server::run_scan() {
  core::ScanOutcome outcome = name_server_.scan(now_ms());
  for (auto& removal : drain_core()) outcome.removals.push_back(std::move(removal));
  if (outcome.expired.empty() && outcome.removals.empty()) return;
  std::string closed;
  for (const auto channel : outcome.channels_closed) {
    closed += (closed.empty() ? "#" : ", #") + std::to_string(channel.value);
    auto found = connections_.find(channel.value);
    if (found == connections_.end()) continue;
    found->second->close_quietly();
    connections_.erase(found);
  }
  log("scan expired=" + std::to_string(outcome.expired.size()) + " closed=[" + closed +
      "] removed=" + removed_text(outcome.removals));
}

void Server::stop() {
  if (stopped_) return;
  stopped_ = true;
  std::error_code ignored;
  acceptor_.close(ignored);
  scan_timer_.cancel();
  accept_retry_timer_.cancel();
  for (auto& [id, connection] : connections_) connection->close_quietly();
  connections_.clear();
}

}  // namespace nssim::serve

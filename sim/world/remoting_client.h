// File: the client side of RocketMQ remoting as brokers and producers use it towards the
// NameServers (Java: NettyRemotingClient): one channel per server address, created on demand
// with a connect timeout, sync requests with a timeout that closes the channel, oneway requests,
// and pending requests failed at once when the channel closes (failFast).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "nameserver_core/profile.h"
#include "nameserver_core/remoting.h"
#include "sim/network/network_history.h"
#include "sim/world/envelope.h"

namespace nssim::sim {

class Net;

// Why an invocation produced no response.
enum class InvokeFailure {
  kNone,
  kConnectTimeout,  // RemotingConnectException after connectTimeoutMillis without an answer
  kConnectRefused,  // RemotingConnectException after one round trip (RST)
  kTimeout,         // RemotingTimeoutException: no response within the timeout
  kSendFailed,      // RemotingSendRequestException: the connection was reset
  kChannelClosed,   // the channel closed while waiting (failFast)
};
const char* invoke_failure_name(InvokeFailure failure);

class RemotingClient {
 public:
  using Callback = std::function<void(InvokeFailure, const core::RemotingResponse*)>;
  using Schedule = std::function<void(std::int64_t t_ms, std::function<void()>)>;
  // Told when a channel opens (to incarnation `server_epoch` of `server`) or closes (nullopt).
  using ChannelListener =
      std::function<void(NodeId server, std::optional<std::uint32_t> server_epoch)>;

  RemotingClient(Net& net, NodeId self, std::uint32_t epoch, core::Profile profile,
                 std::int64_t connect_timeout_ms, bool close_socket_if_timeout, Schedule schedule);

  // Java: invokeSync / invokeOneway. `callback` runs once, at the simulated instant the caller
  // would return (never for oneway requests that were sent).
  void invoke(NodeId server, std::shared_ptr<const core::RemotingRequest> request,
              std::uint64_t size_bytes, std::int64_t timeout_ms, bool oneway, Callback callback);
  // Responses and FINs addressed to this client's connections; false if not ours.
  bool on_envelope(const Envelope& envelope);
  // Java: isChannelOK for the sticky NameServer choice.
  bool channel_ok(NodeId server) const;
  // Closes every channel (BrokerOuterAPI#shutdown).
  void close_all();
  void set_channel_listener(ChannelListener listener) { listener_ = std::move(listener); }

 private:
  struct Waiting {
    std::shared_ptr<const core::RemotingRequest> request;
    std::uint64_t size_bytes;
    std::int64_t begin_ms;
    std::int64_t timeout_ms;
    bool oneway;
    Callback callback;
  };
  struct Channel {
    std::uint64_t conn = 0;     // 0 while connecting
    std::uint64_t attempt = 0;  // the connect in progress; a late answer to an older one is ignored
    std::vector<Waiting> waiting;
  };
  struct Pending {
    std::uint64_t conn;
    NodeId server;
    std::int64_t timeout_ms;
    std::int64_t left_ms;
    Callback callback;
  };

  void connect(NodeId server);
  void send_syn(NodeId server, std::uint64_t attempt, std::int64_t begin_ms, std::size_t syn);
  void finish_connect(NodeId server, std::uint64_t attempt, std::uint32_t server_epoch);
  void fail_waiting(NodeId server, std::uint64_t attempt, InvokeFailure failure);
  void send_on_channel(NodeId server, Waiting waiting);
  void on_timeout(std::uint64_t opaque);
  void drop_channel(NodeId server);

  Net& net_;
  NodeId self_;
  std::uint32_t epoch_;
  core::Profile profile_;
  std::int64_t connect_timeout_ms_;
  bool close_socket_if_timeout_;
  Schedule schedule_;
  ChannelListener listener_;
  std::map<NodeId, Channel> channels_;
  std::map<std::uint64_t, Pending> pending_;
  std::uint64_t next_opaque_ = 1;
  std::uint64_t next_attempt_ = 1;
};

}  // namespace nssim::sim

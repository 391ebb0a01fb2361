// File: RemotingClient (see remoting_client.h). The TCP handshake costs one round trip and is
// judged by NetworkHistory when each SYN leaves, with the kernel's SYN retransmissions.
#include "sim/world/remoting_client.h"

#include <cmath>
#include <utility>

#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace {
// Java 5.x: NettyRemotingClient.MIN_CLOSE_TIMEOUT_MILLIS.
constexpr std::int64_t kMinCloseTimeoutMillis = 100;
}  // namespace

const char* invoke_failure_name(InvokeFailure failure) {
  switch (failure) {
    case InvokeFailure::kNone:
      return "none";
    case InvokeFailure::kConnectTimeout:
      return "connect_timeout";
    case InvokeFailure::kConnectRefused:
      return "connect_refused";
    case InvokeFailure::kTimeout:
      return "request_timeout";
    case InvokeFailure::kSendFailed:
      return "connection_reset";
    case InvokeFailure::kChannelClosed:
      return "channel_closed";
  }
  return "unknown";
}

RemotingClient::RemotingClient(Net& net, NodeId self, std::uint32_t epoch, core::Profile profile,
                               std::int64_t connect_timeout_ms, bool close_socket_if_timeout,
                               Schedule schedule)
    : net_(net),
      self_(self),
      epoch_(epoch),
      profile_(profile),
      connect_timeout_ms_(connect_timeout_ms),
      close_socket_if_timeout_(close_socket_if_timeout),
      schedule_(std::move(schedule)) {}

void RemotingClient::invoke(NodeId server, std::shared_ptr<const core::RemotingRequest> request,
                            std::uint64_t size_bytes, std::int64_t timeout_ms, bool oneway,
                            Callback callback) {
  Waiting waiting{std::move(request), size_bytes, now_ms(),
                  timeout_ms,         oneway,     std::move(callback)};
  auto found = channels_.find(server);
  if (found != channels_.end() && found->second.conn != 0) {
    send_on_channel(server, std::move(waiting));
    return;
  }
  Channel& channel = channels_[server];
  channel.waiting.push_back(std::move(waiting));
  if (channel.waiting.size() == 1) connect(server);
}

// Java: NettyRemotingClient#createChannel — a connect that waits up to connectTimeoutMillis.
// Each SYN (the first, then the kernel's retransmissions) is judged when it leaves; an answer
// comes back one round trip later.
void RemotingClient::connect(NodeId server) {
  const std::uint64_t attempt = next_attempt_++;
  channels_.at(server).attempt = attempt;
  send_syn(server, attempt, now_ms(), 0);
}

void RemotingClient::send_syn(NodeId server, std::uint64_t attempt, std::int64_t begin_ms,
                              std::size_t syn) {
  const std::int64_t now = now_ms();
  const std::int64_t deadline = begin_ms + connect_timeout_ms_;
  const auto rtt = std::llround(std::ceil(net_.round_trip_ms(self_, server)));
  const Delivery outcome = net_.history().connect(self_, server, now);
  // An answer that would come after connectTimeoutMillis is not waited for: the call fails with
  // RemotingConnectException at the deadline (channelFuture.awaitUninterruptibly timed out).
  // Deviation: upstream keeps the ChannelWrapper, and a later call may use the connection once
  // the handshake completes; here the late connection is abandoned and the next call connects
  // afresh, which costs that call one more round trip.
  if (outcome != Delivery::kDropped && now + rtt > deadline) {
    schedule_(deadline, [this, server, attempt] {
      fail_waiting(server, attempt, InvokeFailure::kConnectTimeout);
    });
    return;
  }
  switch (outcome) {
    case Delivery::kDelivered: {
      const std::uint32_t server_epoch = net_.history().state_at(server, now).epoch;
      schedule_(now + rtt, [this, server, attempt, server_epoch] {
        finish_connect(server, attempt, server_epoch);
      });
      return;
    }
    case Delivery::kRefused:
      schedule_(now + rtt, [this, server, attempt] {
        fail_waiting(server, attempt, InvokeFailure::kConnectRefused);
      });
      return;
    case Delivery::kDropped:
      break;
  }
  const std::size_t next = syn + 1;
  const std::size_t retransmits = std::size(kSynRetransmitOffsetsMs);
  if (next < retransmits && kSynRetransmitOffsetsMs[next] < connect_timeout_ms_) {
    schedule_(begin_ms + kSynRetransmitOffsetsMs[next], [this, server, attempt, begin_ms, next] {
      send_syn(server, attempt, begin_ms, next);
    });
  } else {
    schedule_(deadline, [this, server, attempt] {
      fail_waiting(server, attempt, InvokeFailure::kConnectTimeout);
    });
  }
}

void RemotingClient::finish_connect(NodeId server, std::uint64_t attempt,
                                    std::uint32_t server_epoch) {
  auto found = channels_.find(server);
  if (found == channels_.end() || found->second.conn != 0 || found->second.attempt != attempt)
    return;
  found->second.conn = net_.open_connection(self_, epoch_, server, server_epoch);
  if (listener_) listener_(server, server_epoch);
  auto waiting = std::exchange(found->second.waiting, {});
  for (auto& w : waiting) send_on_channel(server, std::move(w));
}

void RemotingClient::fail_waiting(NodeId server, std::uint64_t attempt, InvokeFailure failure) {
  auto found = channels_.find(server);
  if (found == channels_.end() || found->second.conn != 0 || found->second.attempt != attempt)
    return;
  auto waiting = std::move(found->second.waiting);
  channels_.erase(found);
  for (auto& w : waiting) {
    if (!w.oneway) w.callback(failure, nullptr);
  }
}

// Java: NettyRemotingClient#invokeSync / invokeOneway on an active channel.
void RemotingClient::send_on_channel(NodeId server, Waiting waiting) {
  const std::int64_t now = now_ms();
  const std::int64_t left = waiting.timeout_ms - (now - waiting.begin_ms);
  if (!waiting.oneway && left <= 0) {  // "invokeSync call the addr timeout"
    waiting.callback(InvokeFailure::kTimeout, nullptr);
    return;
  }
  const Channel& channel = channels_.at(server);
  auto envelope = std::make_unique<Envelope>();
  envelope->kind = Envelope::Kind::kRequest;
  envelope->from = self_;
  envelope->to = server;
  envelope->to_epoch = net_.connection(channel.conn).server_epoch;
  envelope->conn = channel.conn;
  envelope->opaque = next_opaque_++;
  envelope->oneway = waiting.oneway;
  envelope->request = waiting.request;
  const std::uint64_t opaque = envelope->opaque;
  const Delivery delivery = net_.send(std::move(envelope), waiting.size_bytes);
  if (waiting.oneway) return;
  if (delivery == Delivery::kRefused) {  // the peer's kernel resets the connection
    const auto rtt = std::llround(std::ceil(net_.round_trip_ms(self_, server)));
    schedule_(now + rtt, [this, server, callback = std::move(waiting.callback)] {
      drop_channel(server);
      callback(InvokeFailure::kSendFailed, nullptr);
    });
    return;
  }
  pending_.emplace(
      opaque, Pending{channel.conn, server, waiting.timeout_ms, left, std::move(waiting.callback)});
  schedule_(now + left, [this, opaque] { on_timeout(opaque); });
}

void RemotingClient::on_timeout(std::uint64_t opaque) {
  auto found = pending_.find(opaque);
  if (found == pending_.end()) return;
  Pending pending = std::move(found->second);
  pending_.erase(found);
  // Java 5.x keeps a channel whose time left was small; 4.9 always closes it.
  const bool should_close = profile_ == core::Profile::kV4_9 ||
                            pending.left_ms > kMinCloseTimeoutMillis ||
                            pending.left_ms > pending.timeout_ms / 4;
  if (close_socket_if_timeout_ && should_close) drop_channel(pending.server);
  pending.callback(InvokeFailure::kTimeout, nullptr);
}

bool RemotingClient::on_envelope(const Envelope& envelope) {
  if (envelope.kind == Envelope::Kind::kResponse) {
    auto found = pending_.find(envelope.opaque);
    if (found == pending_.end() || found->second.conn != envelope.conn) return false;
    Pending pending = std::move(found->second);
    pending_.erase(found);
    pending.callback(InvokeFailure::kNone, envelope.response.get());
    return true;
  }
  if (envelope.kind != Envelope::Kind::kFin) return false;
  for (auto& [server, channel] : channels_) {
    if (channel.conn == envelope.conn) {
      drop_channel(server);
      return true;
    }
  }
  return false;
}

bool RemotingClient::channel_ok(NodeId server) const {
  auto found = channels_.find(server);
  return found != channels_.end() && found->second.conn != 0 &&
         net_.is_open(found->second.conn, self_);
}

void RemotingClient::close_all() {
  std::vector<NodeId> servers;
  for (const auto& [server, channel] : channels_) servers.push_back(server);
  for (NodeId server : servers) drop_channel(server);
}

// Closes a channel and fails what waits on it (Java: closeChannel, then failFast).
void RemotingClient::drop_channel(NodeId server) {
  auto found = channels_.find(server);
  if (found == channels_.end()) return;
  const std::uint64_t conn = found->second.conn;
  if (conn == 0) return;  // still connecting: the connect outcome decides
  channels_.erase(found);
  net_.close(conn, self_);  // a FIN goes out only if the peer's end is still open
  if (listener_) listener_(server, std::nullopt);
  std::vector<Callback> failed;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.conn == conn) {
      failed.push_back(std::move(it->second.callback));
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  for (auto& callback : failed) callback(InvokeFailure::kChannelClosed, nullptr);
}

}  // namespace nssim::sim

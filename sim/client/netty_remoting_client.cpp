// File: NettyRemotingClient's channel table, connects, invokeSync's outcome and closeChannel, and
// its NameServer channels.
#include "sim/client/netty_remoting_client.h"

#include <utility>

#include "common/invariant.h"

namespace nssim::sim {

namespace {

// Java (5.x): NettyRemotingClient.MIN_CLOSE_TIMEOUT_MILLIS.
constexpr std::int64_t kMinCloseTimeoutMillis = 100;

}  // namespace

NettyRemotingClient::NettyRemotingClient(core::Profile profile, NodeId self,
                                         const NetworkHistory& network,
                                         const AddressBook& addresses, Config config,
                                         NameServerClient nameservers)
    : profile_(profile),
      self_(self),
      network_(network),
      addresses_(addresses),
      config_(config),
      nameservers_(std::move(nameservers)) {}

std::uint32_t NettyRemotingClient::address_id(const std::string& address) {
  const std::uint32_t addr = address_ids_.intern(address);
  if (address_entries_.size() <= addr) address_entries_.resize(addr + 1);
  return addr;
}

NodeId NettyRemotingClient::node_of(std::uint32_t addr) {
  std::optional<NodeId>& node = address_entries_[addr].node;
  if (!node) {
    const auto it = addresses_.find(address_ids_.name(addr));
    NSSIM_CHECK(it != addresses_.end(), "a broker address missing from the AddressBook");
    node = it->second;
  }
  return *node;
}

ConnectResult NettyRemotingClient::connect(NodeId node, std::int64_t t_ms) const {
  // Both profiles wait the whole connect timeout for a silent host, whatever the caller's budget.
  ConnectResult result = network_.connect_within(self_, node, t_ms, config_.connect_timeout_millis);
  if (result.outcome == Delivery::kDropped) result.at_ms += kTimedWaitOverrunMs;
  return result;
}

NettyRemotingClient::ChannelPick NettyRemotingClient::get_and_create_channel_slow(
    std::uint32_t addr, std::int64_t t_ms) {
  // No channel, or an open one on a network that changed since its round trip was taken.
  if (const std::uint64_t existing = address_entries_[addr].channel; existing != 0) {
    Channel& channel = channel_at(existing);
    if (!network_.client_sees_close(self_, channel.node, channel.epoch, channel.opened_ms, t_ms)) {
      return {existing, &channel, false};
    }
    close_channel(existing);
    forget_channel_if_idle(existing);
  }
  const std::uint64_t channel_id = channels_.emplace();
  Channel& channel = channel_at(channel_id);
  channel.addr = addr;
  channel.node = node_of(addr);
  channel.connect = connect(channel.node, t_ms);
  address_entries_[addr].channel = channel_id;
  return {channel_id, &channel, true};
}

NettyRemotingClient::InvokeResult NettyRemotingClient::invoke_on_channel(
    NodeId node, std::uint32_t epoch, std::int64_t begin_ms, std::int64_t timeout_ms,
    std::int64_t t_ms, std::int64_t bytes, SteadyRoundTrip* steady) const {
  const std::int64_t cost = t_ms - begin_ms;
  const bool v4_9 = profile_ == core::Profile::kV4_9;
  const bool close_if_timeout = config_.client_close_socket_if_timeout;
  // "invokeSync call the addr[...] timeout": 4.9 `timeoutMillis < costTime` (and the catch
  // closes the channel), 5.x `left <= 0` (its close condition is then false).
  if (v4_9 ? timeout_ms < cost : timeout_ms - cost <= 0) {
    return {t_ms, SendCause::kRequestTimeout, v4_9 && close_if_timeout};
  }
  const std::int64_t left = timeout_ms - cost;
  const std::int64_t deadline = t_ms + left;
  Exchange result;
  if (steady != nullptr && steady->change_count == network_.change_count() &&
      steady->epoch == epoch && steady->bytes == bytes) {
    result = steady->exchange(t_ms, deadline);
  } else {
    result = network_.exchange(self_, node, epoch, t_ms, deadline, bytes);
    if (steady != nullptr) {
      *steady =
          network_.steady_round_trip(self_, node, epoch, t_ms, bytes).value_or(SteadyRoundTrip{});
    }
  }
  switch (result.outcome) {
    case ExchangeOutcome::kAnswered:
      return {result.at_ms, SendCause::kOk, /*close=*/false, result.processed_ms};
    case ExchangeOutcome::kReset:
      // exceptionCaught closes the channel; the request fails fast.
      return {result.at_ms, SendCause::kConnectionReset, /*close=*/true};
    case ExchangeOutcome::kClosed:
      if (!v4_9) {
        // 5.x channelInactive -> closeChannel -> failFast: the request fails with the FIN.
        return {result.at_ms, SendCause::kConnectionReset, /*close=*/true};
      }
      // 4.9: a FIN closes the channel without failFast: the request waits for its timeout.
      return {deadline + kTimedWaitOverrunMs, SendCause::kRequestTimeout, close_if_timeout};
    case ExchangeOutcome::kSilent:
      break;
  }
  NSSIM_CHECK(result.outcome == ExchangeOutcome::kSilent, "unknown exchange outcome");
  // clientCloseSocketIfTimeout; 5.x closes only if left > 100 ms or left > timeout / 4.
  const bool close =
      close_if_timeout && (v4_9 || left > kMinCloseTimeoutMillis || left > timeout_ms / 4);
  return {deadline + kTimedWaitOverrunMs, SendCause::kRequestTimeout, close, result.processed_ms};
}

void NettyRemotingClient::close_channel(std::uint64_t channel_id) {
  Channel& channel = channel_at(channel_id);
  channel.closed = true;
  // Java: closeChannel removes the table entry only if it still holds this channel.
  if (std::uint64_t& entry = address_entries_[channel.addr].channel; entry == channel_id) {
    entry = 0;
  }
}

// Deviation: the NameServer's own idle close (serverChannelMaxIdleTimeSeconds, 120 s by default)
// of a client channel is not seen; a client that polls every pollNameServerInterval (30 s by
// default) keeps its channel active, as every shipped scenario does.
std::optional<std::uint32_t> NettyRemotingClient::open_nameserver_channel(NodeId nameserver,
                                                                          std::int64_t t_ms) const {
  const auto found = nameservers_.channels.find(nameserver);
  if (found == nameservers_.channels.end() || !found->second.epoch) return std::nullopt;
  const NameServerClient::Channel& channel = found->second;
  if (network_.client_sees_close(self_, nameserver, *channel.epoch, channel.since_ms, t_ms)) {
    return std::nullopt;
  }
  return channel.epoch;
}

}  // namespace nssim::sim

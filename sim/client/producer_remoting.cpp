// File: the producer's NettyRemotingClient as the send path uses it: one channel per broker
// address, shared by concurrent sends; connects (joined by every send that finds one running);
// invokeSync's budget check, timeouts and channel closes; failFast of the requests pending on a
// channel that is closed.
#include <algorithm>
#include <utility>

#include "sim/client/producer_model_impl.h"

namespace nssim::sim {

namespace {

// Java (5.x): NettyRemotingClient.MIN_CLOSE_TIMEOUT_MILLIS.
constexpr std::int64_t kMinCloseTimeoutMillis = 100;

}  // namespace

NodeId ProducerModel::Impl::node_of(std::uint32_t addr) {
  std::optional<NodeId>& node = address_entries[addr].node;
  if (!node) {
    const auto it = addresses.find(address_ids.name(addr));
    if (it == addresses.end()) producer_model_fail("a broker address missing from the AddressBook");
    node = it->second;
  }
  return *node;
}

// Java: NettyRemotingClient#getAndCreateChannel / #createChannel. A channel whose FIN the client
// has received is inactive: it leaves the table then (4.9 runs no failFast for it; 5.x's
// channelInactive does, which the requests' own plans already account for).
void ProducerModel::Impl::invoke_sync(std::uint64_t id, std::int64_t t_ms) {
  Send& send = send_at(id);
  if (const std::uint64_t existing = address_entries[send.addr].channel; existing != 0) {
    Channel& channel = channel_at(existing);
    // A steady round trip means the incarnation is still running: no FIN to look for.
    if (channel.connected && !channel.steady_now(network) &&
        network.client_sees_close(self, channel.node, channel.epoch, channel.opened_ms, t_ms)) {
      close_channel(existing, t_ms, /*fail_fast=*/false);
    } else if (channel.connected) {
      send_request(id, existing, channel, t_ms);
      return;
    } else {
      // A connect is running: wait on its future (4.9 for at most connectTimeoutMillis, which
      // the running connect never exceeds).
      channel.waiting.push_back(id);
      send.channel = existing;
      return;
    }
  }
  const std::uint64_t channel_id = channels.emplace();
  Channel& channel = channel_at(channel_id);
  channel.addr = send.addr;
  channel.node = node_of(send.addr);
  // Both profiles wait the whole connect timeout for a silent host, whatever the send's budget.
  channel.connect =
      network.connect_within(self, channel.node, t_ms, spec.config.connect_timeout_millis);
  if (channel.connect.outcome == Delivery::kDropped) {
    channel.connect.at_ms += kTimedWaitOverrunMs;
  }
  channel.waiting.push_back(id);
  address_entries[send.addr].channel = channel_id;
  send.channel = channel_id;
  schedule(channel.connect.at_ms, EventKind::kConnectDone, channel_id);
}

void ProducerModel::Impl::on_connect_done(std::uint64_t channel_id, std::int64_t t_ms) {
  Channel& channel = channel_at(channel_id);
  const std::vector<std::uint64_t> waiting = std::exchange(channel.waiting, {});
  const Delivery outcome = channel.connect.outcome;
  if (outcome == Delivery::kDelivered) {
    channel.connected = true;
    channel.epoch = channel.connect.epoch;
    channel.opened_ms = t_ms;
  } else {
    close_channel(channel_id, t_ms, /*fail_fast=*/false);
  }
  for (std::uint64_t id : waiting) {
    if (outcome != Delivery::kDelivered) {
      // RemotingConnectException: refused after one round trip, or the connect timeout.
      complete_attempt(
          id, t_ms,
          outcome == Delivery::kRefused ? SendCause::kConnectRefused : SendCause::kConnectTimeout);
    } else {
      // Every waiter wakes with the fresh channel; if one of them closes it (4.9's budget check),
      // the others' requests fail fast when that close runs.
      send_request(id, channel_id, channel, t_ms);
    }
  }
}

ProducerModel::Impl::InvokeResult ProducerModel::Impl::invoke_on_channel(
    NodeId node, std::uint32_t epoch, std::int64_t begin_ms, std::int64_t timeout_ms,
    std::int64_t t_ms, std::int64_t bytes, SteadyRoundTrip* steady) const {
  const std::int64_t cost = t_ms - begin_ms;
  const bool v4_9 = profile == core::Profile::kV4_9;
  const bool close_if_timeout = spec.config.client_close_socket_if_timeout;
  // "invokeSync call the addr[...] timeout": 4.9 `timeoutMillis < costTime` (and the catch
  // closes the channel), 5.x `left <= 0` (its close condition is then false).
  if (v4_9 ? timeout_ms < cost : timeout_ms - cost <= 0) {
    return {t_ms, SendCause::kRequestTimeout, v4_9 && close_if_timeout};
  }
  const std::int64_t left = timeout_ms - cost;
  const std::int64_t deadline = t_ms + left;
  Exchange result;
  if (steady != nullptr && steady->change_count == network.change_count() &&
      steady->epoch == epoch && steady->bytes == bytes) {
    result = steady->exchange(t_ms, deadline);
  } else {
    result = network.exchange(self, node, epoch, t_ms, deadline, bytes);
    if (steady != nullptr) {
      *steady =
          network.steady_round_trip(self, node, epoch, t_ms, bytes).value_or(SteadyRoundTrip{});
    }
  }
  switch (result.outcome) {
    case ExchangeOutcome::kAnswered:
      return {result.at_ms, SendCause::kOk, /*close=*/false};
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
    case ExchangeOutcome::kSilent: {
      // clientCloseSocketIfTimeout; 5.x closes only if left > 100 ms or left > timeout / 4.
      const bool close =
          close_if_timeout && (v4_9 || left > kMinCloseTimeoutMillis || left > timeout_ms / 4);
      return {deadline + kTimedWaitOverrunMs, SendCause::kRequestTimeout, close};
    }
  }
  producer_model_fail("unknown exchange outcome");
}

void ProducerModel::Impl::send_request(std::uint64_t id, std::uint64_t channel_id, Channel& channel,
                                       std::int64_t t_ms) {
  Send& send = send_at(id);
  const InvokeResult result =
      invoke_on_channel(channel.node, channel.epoch, send.attempt_begin_ms, send.attempt_timeout_ms,
                        t_ms, spec.message_size_bytes, &channel.steady);
  plan(id, channel_id, channel, result.end_ms, result.cause, result.close);
}

void ProducerModel::Impl::plan(std::uint64_t id, std::uint64_t channel_id, Channel& channel,
                               std::int64_t end_ms, SendCause cause, bool close) {
  Send& send = send_at(id);
  send.channel = channel_id;
  send.planned_end_ms = end_ms;
  send.planned_cause = cause;
  send.planned_close = close;
  ++send.token;
  auto& pending = channel.pending;
  if (const auto p = std::lower_bound(pending.begin(), pending.end(), id);
      p == pending.end() || *p != id) {
    pending.insert(p, id);
  }
  schedule(end_ms, EventKind::kAttemptDone, id, send.token);
}

void ProducerModel::Impl::on_attempt_done(std::uint64_t id, std::uint64_t token,
                                          std::int64_t t_ms) {
  Send* found = find_send(id);
  if (found == nullptr || found->token != token) return;  // replaced by a failFast
  Send& send = *found;
  const std::uint64_t channel_id = send.channel;
  const SendCause cause = send.planned_cause;
  if (Channel* channel = channels.find(channel_id)) {
    auto& pending = channel->pending;
    if (const auto p = std::lower_bound(pending.begin(), pending.end(), id);
        p != pending.end() && *p == id) {
      pending.erase(p);
    }
    if (send.planned_close) {
      close_channel(channel_id, t_ms, /*fail_fast=*/true);
    } else {
      forget_channel_if_idle(channel_id);
    }
  }
  complete_attempt(id, t_ms, cause);
}

void ProducerModel::Impl::close_channel(std::uint64_t channel_id, std::int64_t t_ms,
                                        bool fail_fast) {
  Channel& channel = channel_at(channel_id);
  channel.closed = true;
  // Java: closeChannel removes the table entry only if it still holds this channel.
  if (std::uint64_t& entry = address_entries[channel.addr].channel; entry == channel_id) {
    entry = 0;
  }
  if (fail_fast) {
    // requestFail: RemotingSendRequestException in each waiting invokeSync, now.
    for (std::uint64_t other : channel.pending) {
      Send& send = send_at(other);
      if (send.planned_end_ms > t_ms) {
        send.planned_end_ms = t_ms;
        send.planned_cause = SendCause::kConnectionReset;
        send.planned_close = false;
        ++send.token;
        schedule(t_ms, EventKind::kAttemptDone, other, send.token);
      }
    }
  }
  forget_channel_if_idle(channel_id);
}

void ProducerModel::Impl::forget_channel_if_idle(std::uint64_t channel_id) {
  const Channel* channel = channels.find(channel_id);
  if (channel != nullptr && channel->closed && channel->pending.empty() &&
      channel->waiting.empty()) {
    channels.erase(channel_id);
  }
}

}  // namespace nssim::sim

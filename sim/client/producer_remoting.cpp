// File: requests over the client's NettyRemotingClient (netty_remoting_client.h), a send's and
// the scheduled heartbeat's (client_heartbeat.cpp): each waits for a running connect or starts
// one, its request is planned on the channel, and a channel that is closed fails the requests
// pending on it (failFast).
#include <utility>

#include "common/invariant.h"
#include "sim/client/producer_model_impl.h"

namespace nssim::sim {

// Java: NettyRemotingClient#invokeSync up to the channel: getAndCreateChannel.
void ProducerModel::Impl::invoke_sync(SendRef ref, std::int64_t t_ms) {
  Send& send = ref.send;
  const NettyRemotingClient::ChannelPick pick =
      client.remoting.get_and_create_channel(send.addr, t_ms);
  Channel& channel = *pick.channel;
  if (channel.connected) {
    send_request(ref, pick.id, channel, t_ms);
    return;
  }
  channel.waiting.push_back(send.id);
  send.channel = pick.id;
  if (pick.created) schedule(channel.connect.at_ms, EventKind::kConnectDone, pick.id);
}

void ProducerModel::Impl::on_connect_done(std::uint64_t channel_id, std::int64_t t_ms) {
  Channel& channel = client.remoting.channel_at(channel_id);
  NSSIM_CHECK(!channel.connected, "a channel's connect ended twice");
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
      const SendCause cause =
          outcome == Delivery::kRefused ? SendCause::kConnectRefused : SendCause::kConnectTimeout;
      if (id == kHeartbeatCaller) {
        end_heartbeat(t_ms, cause);
      } else {
        complete_attempt(send_ref(id), t_ms, cause);
      }
    } else if (id == kHeartbeatCaller) {
      send_heartbeat_request(channel_id, channel, t_ms);
    } else {
      // Every waiter wakes with the fresh channel; if one of them closes it (4.9's budget check),
      // the others' requests fail fast when that close runs.
      send_request(send_ref(id), channel_id, channel, t_ms);
    }
  }
}

void ProducerModel::Impl::send_request(SendRef ref, std::uint64_t channel_id, Channel& channel,
                                       std::int64_t t_ms) {
  auto [producer, send] = ref;
  const InvokeResult result = client.remoting.invoke_on_channel(
      channel.node, channel.epoch, send.attempt_begin_ms, send.attempt_timeout_ms, t_ms,
      producer.spec.message_size_bytes, &channel.steady);
  send.planned_processed_ms = result.processed_ms;
  plan(send, channel_id, channel, result.end_ms, result.cause, result.close);
}

void ProducerModel::Impl::plan(Send& send, std::uint64_t channel_id, Channel& channel,
                               std::int64_t end_ms, SendCause cause, bool close) {
  send.channel = channel_id;
  send.planned_end_ms = end_ms;
  send.planned_cause = cause;
  send.planned_close = close;
  ++send.token;
  channel.add_pending(send.id);
  schedule(end_ms, EventKind::kAttemptDone, send.id, send.token);
}

void ProducerModel::Impl::on_attempt_done(std::uint64_t id, std::uint64_t token,
                                          std::int64_t t_ms) {
  Producer& producer = producer_of(id);
  Send* found = producer.impl.find_send(id);
  if (found == nullptr || found->token != token) return;  // replaced by a failFast
  Send& send = *found;
  const std::uint64_t channel_id = send.channel;
  const SendCause cause = send.planned_cause;
  if (Channel* channel = client.remoting.find_channel(channel_id)) {
    channel->remove_pending(id);
    if (send.planned_close) {
      close_channel(channel_id, t_ms, /*fail_fast=*/true);
    } else if (channel->closed) {
      // Only a closed channel is forgotten; checked here, the common open one skips the look-up.
      client.remoting.forget_channel_if_idle(channel_id);
    }
  }
  complete_attempt({producer, send}, t_ms, cause);
}

void ProducerModel::Impl::close_channel(std::uint64_t channel_id, std::int64_t t_ms,
                                        bool fail_fast) {
  NettyRemotingClient& remoting = client.remoting;
  remoting.close_channel(channel_id);
  if (fail_fast) {
    // requestFail: RemotingSendRequestException in each waiting invokeSync, now.
    for (std::uint64_t other : remoting.channel_at(channel_id).pending) {
      if (other == kHeartbeatCaller) {
        fail_heartbeat_fast(t_ms);
        continue;
      }
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
  remoting.forget_channel_if_idle(channel_id);
}

}  // namespace nssim::sim

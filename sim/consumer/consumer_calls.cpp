// File: a consumer instance's remoting: its channels to brokers (NettyRemotingClient, shared
// with the producer model), invokeSync and invokeOneway to a broker with the broker's side run
// when it processes the request, closeChannel with failFast, and the route query to the
// NameServers with its answer applied to the instance's tables.
#include <algorithm>

#include "common/invariant.h"
#include "sim/client/allocate_message_queue.h"
#include "sim/client/producer_model.h"
#include "sim/consumer/consumer_engine.h"
#include "sim/nameserver/route_data_changed.h"

namespace nssim::sim {

namespace {

// The size of a consumer's requests to a broker (header, group, topic; a heartbeat's body with
// one subscription): small against any link, as upstream's are.
constexpr std::int64_t kConsumerRequestBytes = 256;
// Java: PermName.PERM_READ.
constexpr int kPermRead = 1 << 2;
// How long a oneway's bytes are retransmitted before the model gives them up.
constexpr std::int64_t kOnewayRetransmitMs = 30000;

}  // namespace

std::optional<std::size_t> ConsumerEngine::broker_at(const std::string& address) const {
  const auto found = broker_by_address_.find(address);
  if (found == broker_by_address_.end()) return std::nullopt;
  return found->second;
}

// Java: NettyRemotingClient#getAndCreateChannel. A connect that ended in failure leaves a dead
// channel: the next caller after its end closes it and connects again.
ConsumerEngine::ChannelUse ConsumerEngine::acquire_channel(std::size_t i,
                                                           const std::string& address,
                                                           std::int64_t t_ms) {
  NettyRemotingClient& remoting = instances_[i]->remoting;
  const std::uint32_t addr = remoting.address_id(address);
  NettyRemotingClient::ChannelPick pick = remoting.get_and_create_channel(addr, t_ms);
  if (!pick.channel->connected && pick.channel->connect.outcome != Delivery::kDelivered &&
      !pick.created && t_ms >= pick.channel->connect.at_ms) {
    remoting.close_channel(pick.id);
    remoting.forget_channel_if_idle(pick.id);
    pick = remoting.get_and_create_channel(addr, t_ms);
  }
  NettyRemotingClient::Channel& channel = *pick.channel;
  if (pick.created && channel.connect.outcome == Delivery::kDelivered &&
      inputs_.scenario.profile == core::Profile::kV5) {
    on_channel_active(i, address, channel.connect.at_ms);
  }
  if (!channel.connected) {
    if (channel.connect.outcome != Delivery::kDelivered) {
      const SendCause cause = channel.connect.outcome == Delivery::kRefused
                                  ? SendCause::kConnectRefused
                                  : SendCause::kConnectTimeout;
      return {channel.connect.at_ms, cause, pick.id, channel.node, 0};
    }
    channel.connected = true;
    channel.epoch = channel.connect.epoch;
    channel.opened_ms = channel.connect.at_ms;
  }
  return {std::max(t_ms, channel.opened_ms), SendCause::kOk, pick.id, channel.node, channel.epoch};
}

void ConsumerEngine::sync_call(
    std::size_t i, const std::string& address, std::int64_t t_ms, std::int64_t timeout_ms,
    std::function<void(BrokerSide&, std::uint64_t, std::int64_t)> processed, Then then) {
  Instance& instance = *instances_[i];
  const ChannelUse use = acquire_channel(i, address, t_ms);
  if (use.cause != SendCause::kOk) {
    const CallResult result{use.ready_ms, use.cause, std::nullopt};
    on_instance(i, use.ready_ms, [this, then = std::move(then), result](Instance&) {
      CallResult seen = result;
      seen.end_ms = now_ms_;  // later than planned when a pause of the process delayed it
      then(seen);
    });
    return;
  }
  const NettyRemotingClient::InvokeResult invoked = instance.remoting.invoke_on_channel(
      use.node, use.epoch, t_ms, timeout_ms, use.ready_ms, kConsumerRequestBytes);
  if (const auto at = invoked.processed(); at && processed) {
    if (const auto b = broker_at(address)) {
      const std::uint64_t channel = use.channel;
      on_broker(*b, use.epoch, *at,
                [this, i, channel, at = *at, processed = std::move(processed)](BrokerSide& side) {
                  touch(side, i, channel, at);
                  processed(side, channel, at);
                });
    }
  }
  const CallResult result{invoked.end_ms, invoked.cause, invoked.processed()};
  const bool close = invoked.close;
  const std::uint64_t channel = use.channel;
  on_instance(i, invoked.end_ms,
              [this, i, result, close, channel, then = std::move(then)](Instance&) {
                if (close) close_client_channel(i, channel, result.end_ms);
                CallResult seen = result;
                seen.end_ms = now_ms_;  // later than planned when a pause delayed it
                then(seen);
              });
}

std::int64_t ConsumerEngine::oneway_call(
    Instance& instance, std::size_t i, const std::string& address, std::int64_t t_ms,
    std::function<void(BrokerSide&, std::uint64_t, std::int64_t)> processed) {
  // Java: invokeOneway -> getAndCreateChannel: 4.9 waits for a running connect (up to
  // connectTimeoutMillis) on the calling thread; 5.x sends from the connect future's listener.
  const bool waits = inputs_.scenario.profile == core::Profile::kV4_9;
  const ChannelUse use = acquire_channel(i, address, t_ms);
  if (use.cause != SendCause::kOk) return waits ? use.ready_ms : t_ms;
  const auto b = broker_at(address);
  if (b) {
    if (const auto at =
            network_.request_arrival(instance.node, use.node, use.epoch, use.ready_ms,
                                     use.ready_ms + kOnewayRetransmitMs, kConsumerRequestBytes)) {
      const std::uint64_t channel = use.channel;
      on_broker(*b, use.epoch, *at,
                [this, i, channel, at = *at, processed = std::move(processed)](BrokerSide& side) {
                  touch(side, i, channel, at);
                  processed(side, channel, at);
                });
    }
  }
  return waits ? use.ready_ms : t_ms;
}

// Java: NettyRemotingClient#closeChannel then NettyRemotingAbstract#failFast: the pulls waiting
// on the channel fail now; the broker sees the FIN if it can (doChannelCloseEvent).
void ConsumerEngine::close_client_channel(std::size_t i, std::uint64_t channel_id,
                                          std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  NettyRemotingClient::Channel* channel = instance.remoting.find_channel(channel_id);
  if (channel == nullptr || channel->closed) return;
  instance.remoting.close_channel(channel_id);
  const std::vector<std::uint64_t> pending = channel->pending;
  channel->pending.clear();
  const NodeId node = channel->node;
  const std::uint32_t epoch = channel->epoch;
  const bool connected = channel->connected;
  instance.remoting.forget_channel_if_idle(channel_id);
  for (const std::uint64_t id : pending) {
    const auto found = instance.pulls.find(id);
    if (found == instance.pulls.end() || found->second.done) continue;
    found->second.done = true;
    if (const auto held = found->second.held.lock()) {
      pull_failed(i, held, found->second.sent_ms, t_ms, "channel_closed");
    }
    instance.pulls.erase(found);
  }
  const auto b = broker_of_node_.find(node);
  if (!connected || b == broker_of_node_.end()) return;
  if (network_.deliver(instance.node, node, epoch, t_ms) != Delivery::kDelivered) return;
  const std::int64_t arrival = t_ms + network_.transit_ms(instance.node, node, t_ms);
  on_broker(b->second, epoch, arrival, [this, i, channel_id, arrival](BrokerSide& side) {
    remove_channel(side, i, channel_id, arrival, "channel_close", true);
  });
}

// Java: MQClientInstance#updateTopicRouteInfoFromNameServer(topic) with
// MQClientAPIImpl#getTopicRouteInfoFromNameServer to the chosen NameServer, evaluated at once:
// the consumer instance's route calls come from one thread at a time (the scheduler's poll, the
// starting thread before it), so lockNamesrv never makes one wait. The NameServer choice and
// its channel rules are NettyRemotingClient's, as for the producer model's route queries
// (sim/client/producer_route_query.cpp): 4.9 tries every address in one call while connects
// fail, 5.x one.
void ConsumerEngine::route_query(std::size_t i, const std::string& topic, std::int64_t t_ms,
                                 std::function<void(Instance&, bool, std::int64_t)> then) {
  Instance& instance = *instances_[i];
  NettyRemotingClient& remoting = instance.remoting;
  NameServerSelector& selector = remoting.nameservers().selector;
  const std::int64_t timeout = spec_of(instance).config.mq_client_api_timeout;
  std::optional<core::TopicRouteData> answer;
  bool answered = false;
  std::int64_t end = t_ms;
  std::size_t tries = inputs_.scenario.profile == core::Profile::kV4_9 ? selector.size() : 1;
  while (tries > 0 && selector.size() > 0) {
    const std::int64_t now = end;
    const NodeId nameserver = selector.choose([&remoting, now](NodeId ns) {
      return remoting.open_nameserver_channel(ns, now).has_value();
    });
    std::optional<std::uint32_t> epoch = remoting.open_nameserver_channel(nameserver, now);
    if (!epoch) {
      const ConnectResult connect = remoting.connect(nameserver, now);
      end = connect.at_ms;
      if (connect.outcome != Delivery::kDelivered) {
        --tries;
        continue;
      }
      remoting.nameservers().channels[nameserver] =
          NameServerClient::Channel{connect.at_ms, connect.epoch};
      epoch = connect.epoch;
    }
    const NettyRemotingClient::InvokeResult invoked =
        remoting.invoke_on_channel(nameserver, *epoch, t_ms, timeout, end, kRouteRequestBytes);
    end = invoked.end_ms;
    if (invoked.cause == SendCause::kOk) {
      const auto processed = network_.request_arrival(instance.node, nameserver, *epoch, end,
                                                      t_ms + timeout, kRouteRequestBytes);
      NSSIM_CHECK(processed.has_value(), "an answered route request was never processed");
      if (const core::TopicRouteData* route =
              inputs_.routes.answer_at(nameserver, topic, *processed)) {
        answer = *route;
      }
      answered = true;
    } else if (invoked.close) {
      remoting.nameservers().channels[nameserver] = NameServerClient::Channel{end, std::nullopt};
    }
    break;
  }
  on_instance(
      i, end,
      [this, topic, answer = std::move(answer), answered, then = std::move(then)](Instance& self) {
        // Any non-SUCCESS answer (TOPIC_NOT_EXIST) keeps the cached route.
        if (answer) apply_route(self, topic, *answer);
        then(self, answered, now_ms_);
      });
}

// Java: updateTopicRouteInfoFromNameServer once the answer changed the route: brokerAddrTable
// takes every BrokerData's addresses, and the consumer's topicSubscribeInfoTable the readable
// queues (MQClientInstance#topicRouteData2TopicSubscribeInfo), replaced wholesale.
void ConsumerEngine::apply_route(Instance& instance, const std::string& topic,
                                 const core::TopicRouteData& route) {
  const auto cached = instance.routes.find(topic);
  const core::TopicRouteData* old = cached == instance.routes.end() ? nullptr : &cached->second;
  if (!topic_route_data_changed(old, route, inputs_.scenario.profile)) return;
  for (const core::BrokerData& broker : route.broker_datas) {
    instance.broker_addr_table[broker.broker_name] = broker.broker_addrs;
  }
  std::vector<MessageQueue> readable;
  for (const core::QueueData& queue : route.queue_datas) {
    if ((queue.perm & kPermRead) == 0) continue;
    for (int id = 0; id < queue.read_queue_nums; ++id) readable.push_back({queue.broker_name, id});
  }
  std::sort(readable.begin(), readable.end(), message_queue_less);
  instance.subscribe_info[topic] = std::move(readable);
  instance.routes[topic] = route;
}

}  // namespace nssim::sim

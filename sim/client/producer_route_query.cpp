// File: the synchronous route query of a send without usable publish info:
// DefaultMQProducerImpl#tryToFindTopicPublishInfo,
// MQClientInstance#updateTopicRouteInfoFromNameServer with lockNamesrv,
// MQClientAPIImpl#getTopicRouteInfoFromNameServer and NettyRemotingClient's invokeSync(null, ...)
// to the chosen NameServer. The model runs behind the simulated present, so the query is no SimGrid
// message: it is judged against NetworkHistory like an attempt, and the NameServer's answer is read
// from RouteHistory at the instant the NameServer processes it.
#include <algorithm>

#include "sim/client/producer_model_impl.h"

namespace nssim::sim {

namespace {

// Java: MQClientInstance.LOCK_TIMEOUT_MILLIS.
constexpr std::int64_t kLockTimeoutMillis = 3000;
// Java: DefaultMQProducer#defaultTopicQueueNums, upstream's default (nssim has no setting for it).
constexpr int kDefaultTopicQueueNums = 4;

// Java: the isDefault branch of updateTopicRouteInfoFromNameServer: the default topic's route, with
// read and write queue numbers set to min(defaultTopicQueueNums, readQueueNums). It becomes the
// topic's route. Deviation: upstream's broker auto-creates the topic when such a send arrives
// (autoCreateTopicEnable) and registers it with the NameServers later; the model's brokers answer
// every send alike and register no new topic, so the route stays TBW102's until a poll or query
// finds the topic itself.
core::TopicRouteData default_topic_route(core::TopicRouteData route) {
  for (core::QueueData& data : route.queue_datas) {
    const int queue_nums = std::min(kDefaultTopicQueueNums, data.read_queue_nums);
    data.read_queue_nums = queue_nums;
    data.write_queue_nums = queue_nums;
  }
  return route;
}

}  // namespace

// Java: DefaultMQProducerImpl#tryToFindTopicPublishInfo. Upstream first puts an empty
// TopicPublishInfo in the table (putIfAbsent); the model leaves the slot empty, which every reader
// treats alike (not ok, no route info).
void ProducerModel::Impl::try_to_find_topic_publish_info(std::uint64_t id, std::int64_t t_ms) {
  send_at(id).query_default = false;
  lock_namesrv(id, t_ms);
}

// Java: lockNamesrv.tryLock(LOCK_TIMEOUT_MILLIS). Concurrent sends without a route queue on it in
// arrival order and each asks in turn, so a burst makes one query at a time. A waiter whose
// deadline passes gives up kTimedWaitOverrunMs later (a timed wait is seen after its deadline) and
// the update returns false. Simplified: the route poll of the actor takes lockNamesrv upstream
// too, but the model cannot see it (the poll runs in the simulated present); and the woken waiter
// takes the lock at the release, where a non-fair ReentrantLock may let a newly arriving sender
// barge in first.
void ProducerModel::Impl::lock_namesrv(std::uint64_t id, std::int64_t t_ms) {
  if (!namesrv_locked) {
    namesrv_locked = true;
    update_topic_route_info(id, t_ms);
    return;
  }
  namesrv_lock_waiters.emplace_back(id, t_ms + kLockTimeoutMillis);
  schedule(t_ms + kLockTimeoutMillis + kTimedWaitOverrunMs, EventKind::kLockTimeout, id,
           send_at(id).token);
}

void ProducerModel::Impl::on_lock_timeout(std::uint64_t id, std::uint64_t token,
                                          std::int64_t t_ms) {
  const Send* send = find_send(id);
  if (send == nullptr || send->token != token) return;  // it got the lock
  std::erase_if(namesrv_lock_waiters, [id](const auto& waiter) { return waiter.first == id; });
  on_update_skipped(id, t_ms);  // "updateTopicRouteInfoFromNameServer tryLock timeout"
}

void ProducerModel::Impl::unlock_namesrv(std::int64_t t_ms) {
  namesrv_locked = false;
  for (auto it = namesrv_lock_waiters.begin(); it != namesrv_lock_waiters.end(); ++it) {
    if (it->second < t_ms) continue;  // its tryLock has timed out; its expiry runs now
    const std::uint64_t id = it->first;
    namesrv_lock_waiters.erase(it);
    namesrv_locked = true;
    ++send_at(id).token;  // cancels its lock timeout
    update_topic_route_info(id, t_ms);
    return;
  }
}

// The rest of tryToFindTopicPublishInfo after an update that returned false without asking: with
// no route info yet, the default topic is tried next, with its own tryLock.
void ProducerModel::Impl::on_update_skipped(std::uint64_t id, std::int64_t t_ms) {
  Send& send = send_at(id);
  if (!send.query_default && !info_by_slot[send.topic_slot]) {
    send.query_default = true;
    lock_namesrv(id, t_ms);
    return;
  }
  start_with_publish_info(id, t_ms);
}

// Java: MQClientAPIImpl#getTopicRouteInfoFromNameServer with mqClientApiTimeout, under the lock.
// 4.9's getAndCreateNameserverChannel tries every address in one call when connects fail; 5.x
// tries one and fails the call (the next call moves on), as the actor's route poll does.
void ProducerModel::Impl::update_topic_route_info(std::uint64_t id, std::int64_t t_ms) {
  Send& send = send_at(id);
  send.query_begin_ms = t_ms;
  send.query_tries_left =
      profile == core::Profile::kV4_9 ? nameserver_choice(t_ms).selector.size() : 1;
  get_and_create_nameserver_channel(id, t_ms);
}

NameServerClientHistory::Choice ProducerModel::Impl::nameserver_choice(std::int64_t t_ms) const {
  const NameServerClientHistory::Choice& recorded = sources.nameservers.choice_at(t_ms);
  if (own_nameserver_choice && own_nameserver_choice->since_ms >= recorded.since_ms) {
    return *own_nameserver_choice;
  }
  return recorded;
}

// The latest of what the actor recorded and what this model's queries did, if it is an open
// channel whose close (a FIN) the client has not seen by t_ms.
std::optional<std::uint32_t> ProducerModel::Impl::open_nameserver_channel(NodeId nameserver,
                                                                          std::int64_t t_ms) const {
  std::optional<NameServerClientHistory::ChannelState> state =
      sources.nameservers.channel_at(nameserver, t_ms);
  if (const auto own = own_nameserver_channels.find(nameserver);
      own != own_nameserver_channels.end() && (!state || own->second.since_ms >= state->since_ms)) {
    state = own->second;
  }
  if (!state || !state->epoch) return std::nullopt;
  if (network.client_sees_close(self, nameserver, *state->epoch, state->since_ms, t_ms)) {
    return std::nullopt;
  }
  return state->epoch;
}

// Java: NettyRemotingClient#getAndCreateNameserverChannel: the chosen NameServer while its
// channel is OK, else the next one, whose channel is created. Deviation: the choice and channels
// this query makes are the model's own from then on (the actor's later records win over them); the
// actor's route poll, which runs ahead in the simulated present, never sees them, so it may choose
// or connect differently than a client sharing one NettyRemotingClient would.
void ProducerModel::Impl::get_and_create_nameserver_channel(std::uint64_t id, std::int64_t t_ms) {
  Send& send = send_at(id);
  NameServerClientHistory::Choice choice = nameserver_choice(t_ms);
  if (choice.selector.size() == 0) {
    // No address: invokeSync finds no channel (RemotingConnectException).
    plan_query(id, InvokeResult{t_ms, SendCause::kConnectRefused, /*close=*/false});
    return;
  }
  const auto channel_ok = [this, t_ms](NodeId ns) {
    return open_nameserver_channel(ns, t_ms).has_value();
  };
  const std::optional<NodeId> chosen = choice.selector.chosen();
  const bool keeps_chosen = chosen && channel_ok(*chosen);
  const NodeId nameserver = choice.selector.choose(channel_ok);
  if (!keeps_chosen) own_nameserver_choice = NameServerClientHistory::Choice{t_ms, choice.selector};
  send.query_nameserver = nameserver;
  if (const auto epoch = open_nameserver_channel(nameserver, t_ms)) {
    send_route_request(id, *epoch, t_ms);
    return;
  }
  // Java: createChannel: both profiles wait the whole connect timeout for a silent host.
  send.query_connect =
      network.connect_within(self, nameserver, t_ms, spec.config.connect_timeout_millis);
  if (send.query_connect.outcome == Delivery::kDropped) {
    send.query_connect.at_ms += kTimedWaitOverrunMs;
  }
  ++send.token;
  schedule(send.query_connect.at_ms, EventKind::kQueryConnectDone, id, send.token);
}

void ProducerModel::Impl::on_query_connect_done(std::uint64_t id, std::uint64_t token,
                                                std::int64_t t_ms) {
  Send* found = find_send(id);
  if (found == nullptr || found->token != token) return;
  Send& send = *found;
  if (send.query_connect.outcome == Delivery::kDelivered) {
    own_nameserver_channels[send.query_nameserver] =
        NameServerClientHistory::ChannelState{t_ms, send.query_connect.epoch};
    send_route_request(id, send.query_connect.epoch, t_ms);
    return;
  }
  // 4.9: createChannel returned null and the loop goes on to the next address (whose choice
  // moves on, as this one's channel is not OK); 5.x and the last address: RemotingConnectException.
  if (--send.query_tries_left > 0) {
    get_and_create_nameserver_channel(id, t_ms);
    return;
  }
  plan_query(id, InvokeResult{t_ms,
                              send.query_connect.outcome == Delivery::kRefused
                                  ? SendCause::kConnectRefused
                                  : SendCause::kConnectTimeout,
                              /*close=*/false});
}

// Java: invokeSync once it has the channel, with the time spent since beginStartTime counted
// against mqClientApiTimeout. Deviation: like a send's, the response is taken to carry no payload
// (NetworkHistory#exchange), where the actor's poll sends the route's estimated size.
void ProducerModel::Impl::send_route_request(std::uint64_t id, std::uint32_t epoch,
                                             std::int64_t t_ms) {
  Send& send = send_at(id);
  const NodeId nameserver = send.query_nameserver;
  const std::int64_t timeout = spec.config.mq_client_api_timeout;
  const InvokeResult result =
      invoke_on_channel(nameserver, epoch, send.query_begin_ms, timeout, t_ms, kRouteRequestBytes);
  if (result.cause == SendCause::kOk) {
    const std::int64_t deadline = send.query_begin_ms + timeout;
    const auto processed =
        network.request_arrival(self, nameserver, epoch, t_ms, deadline, kRouteRequestBytes);
    if (!processed) producer_model_fail("an answered route request was never processed");
    send.query_processed_ms = *processed;
  }
  plan_query(id, result);
}

void ProducerModel::Impl::plan_query(std::uint64_t id, const InvokeResult& result) {
  Send& send = send_at(id);
  send.planned_end_ms = result.end_ms;
  send.planned_cause = result.cause;
  send.planned_close = result.close;
  ++send.token;
  schedule(result.end_ms, EventKind::kQueryDone, id, send.token);
}

// The query as trace.jsonl shows it: the NameServer asked last, when the send began asking, how
// it ended.
RouteQuery ProducerModel::Impl::traced_query(const Send& send, std::string outcome) const {
  return RouteQuery{network.name(send.query_nameserver), send.query_begin_ms, std::move(outcome)};
}

// The request ended: apply the answer as a polled one, release lockNamesrv, and go on with the rest
// of tryToFindTopicPublishInfo.
void ProducerModel::Impl::on_query_done(std::uint64_t id, std::uint64_t token, std::int64_t t_ms) {
  Send* found = find_send(id);
  if (found == nullptr || found->token != token) return;
  Send& send = *found;
  if (send.planned_cause != SendCause::kOk) {
    if (send.planned_close) {
      own_nameserver_channels[send.query_nameserver] =
          NameServerClientHistory::ChannelState{t_ms, std::nullopt};
    }
    // Java: updateTopicRouteInfoFromNameServer rethrows a RemotingException as
    // IllegalStateException, which leaves tryToFindTopicPublishInfo and the send at once (no
    // default-topic query). Reported as kNoRoute: the send failed for want of a route, and
    // SendCause has no NameServer-side cause.
    report_route_update(send.record.topic, traced_query(send, send_cause_name(send.planned_cause)),
                        t_ms, {}, {});
    unlock_namesrv(t_ms);
    finish_send(id, t_ms, SendCause::kNoRoute);
    return;
  }
  const std::string& topic = send.record.topic;
  const std::string asked = send.query_default ? std::string(kAutoCreateTopicKeyTopic) : topic;
  if (const core::TopicRouteData* answer =
          sources.routes.answer_at(send.query_nameserver, asked, send.query_processed_ms)) {
    on_route_answer(topic, send.query_default ? default_topic_route(*answer) : *answer, t_ms,
                    traced_query(send, "ok"));
  } else {
    report_route_update(topic, traced_query(send, "topic_not_exist"), t_ms, {}, {});
  }
  // Any other answer (TOPIC_NOT_EXIST...) is an MQClientException the update catches: false.
  if (!send.query_default && !info_by_slot[send.topic_slot]) {
    // No route info yet: the default topic next. The non-fair lockNamesrv goes back to this
    // thread, which asks again at once, before a woken waiter runs.
    send.query_default = true;
    update_topic_route_info(id, t_ms);
    return;
  }
  unlock_namesrv(t_ms);
  start_with_publish_info(id, t_ms);
}

}  // namespace nssim::sim

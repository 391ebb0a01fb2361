// File: the synchronous route queries of a client:
// MQClientInstance#updateTopicRouteInfoFromNameServer with lockNamesrv,
// MQClientAPIImpl#getTopicRouteInfoFromNameServer and NettyRemotingClient's invokeSync(null, ...)
// to the chosen NameServer, for a send without usable publish info
// (DefaultMQProducerImpl#tryToFindTopicPublishInfo) and for the scheduled poll
// (producer_route_poll.cpp). The model runs behind the simulated present, so a query is no SimGrid
// message: it is judged against NetworkHistory like an attempt, and the NameServer's answer is read
// from RouteHistory at the instant the NameServer processes it.
#include <algorithm>

#include "common/invariant.h"
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

// Java: lockNamesrv.tryLock(LOCK_TIMEOUT_MILLIS). The poll and concurrent sends without a route
// queue on it in arrival order and each asks in turn, so a burst makes one query at a time. A
// waiter whose deadline passes gives up kTimedWaitOverrunMs later (a timed wait is seen after its
// deadline) and the update returns false. Simplified: the woken waiter takes the lock at the
// release, where a non-fair ReentrantLock may let a newly arriving caller barge in first.
void ProducerModel::Impl::lock_namesrv(std::uint64_t caller, std::int64_t t_ms) {
  if (client.try_lock_namesrv()) {
    on_namesrv_locked(caller, t_ms);
    return;
  }
  const std::int64_t deadline = t_ms + kLockTimeoutMillis;
  client.wait_for_namesrv(caller, deadline);
  schedule(deadline + kTimedWaitOverrunMs, EventKind::kLockTimeout, caller,
           static_cast<std::uint64_t>(deadline));
}

void ProducerModel::Impl::on_lock_timeout(std::uint64_t caller, std::int64_t deadline_ms,
                                          std::int64_t t_ms) {
  if (!client.drop_namesrv_waiter(caller, deadline_ms)) return;  // it got the lock
  if (caller == kHeartbeatCaller) {
    // cleanOfflineBroker's tryLock returned false: nothing is cleaned; the heartbeats go on.
    send_heartbeat_to_all_broker(t_ms);
    return;
  }
  on_update_skipped(caller, t_ms);  // "updateTopicRouteInfoFromNameServer tryLock timeout"
}

void ProducerModel::Impl::unlock_namesrv(std::int64_t t_ms) {
  if (const auto caller = client.unlock_namesrv(t_ms)) on_namesrv_locked(*caller, t_ms);
}

void ProducerModel::Impl::on_namesrv_locked(std::uint64_t caller, std::int64_t t_ms) {
  if (caller == kHeartbeatCaller) {
    clean_offline_broker(t_ms);
    return;
  }
  update_topic_route_info(caller, t_ms);
}

// The update returned false without asking. The poll goes on with its next topic; a send with no
// route info yet tries the default topic next, with its own tryLock.
void ProducerModel::Impl::on_update_skipped(std::uint64_t caller, std::int64_t t_ms) {
  if (caller == kRoutePollCaller) {
    on_poll_topic_done(t_ms);
    return;
  }
  const SendRef ref = send_ref(caller);
  if (!ref.send.query_default && !ref.producer.impl.info_by_slot[ref.send.topic_slot]) {
    ref.send.query_default = true;
    lock_namesrv(caller, t_ms);
    return;
  }
  start_with_publish_info(ref, t_ms);
}

const std::string& ProducerModel::Impl::route_call_topic(std::uint64_t caller) {
  if (caller == kRoutePollCaller) return poll_topics[poll.position];
  return producer_of(caller).spec.topics[send_at(caller).topic_position];
}

// Java: MQClientAPIImpl#getTopicRouteInfoFromNameServer with mqClientApiTimeout, under the lock.
// 4.9's getAndCreateNameserverChannel tries every address in one call when connects fail; 5.x
// tries one and fails the call (the next call moves on).
void ProducerModel::Impl::update_topic_route_info(std::uint64_t caller, std::int64_t t_ms) {
  RouteCall& call = client.route_call;
  call = RouteCall{};
  call.caller = caller;
  call.is_default = caller != kRoutePollCaller && send_at(caller).query_default;
  call.begin_ms = t_ms;
  call.tries_left =
      profile == core::Profile::kV4_9 ? client.remoting.nameservers().selector.size() : 1;
  get_and_create_nameserver_channel(t_ms);
}

// Java: NettyRemotingClient#getAndCreateNameserverChannel: the chosen NameServer while its
// channel is OK, else the next one, whose channel is created.
void ProducerModel::Impl::get_and_create_nameserver_channel(std::int64_t t_ms) {
  RouteCall& call = client.route_call;
  NettyRemotingClient& remoting = client.remoting;
  NameServerSelector& selector = remoting.nameservers().selector;
  if (selector.size() == 0) {
    // No address: invokeSync finds no channel (RemotingConnectException).
    plan_query(InvokeResult{t_ms, SendCause::kConnectRefused, /*close=*/false});
    return;
  }
  const NodeId nameserver = selector.choose([&remoting, t_ms](NodeId ns) {
    return remoting.open_nameserver_channel(ns, t_ms).has_value();
  });
  call.nameserver = nameserver;
  if (const auto epoch = remoting.open_nameserver_channel(nameserver, t_ms)) {
    send_route_request(*epoch, t_ms);
    return;
  }
  call.connect = remoting.connect(nameserver, t_ms);
  schedule(call.connect.at_ms, EventKind::kQueryConnectDone);
}

void ProducerModel::Impl::on_query_connect_done(std::int64_t t_ms) {
  RouteCall& call = client.route_call;
  if (call.connect.outcome == Delivery::kDelivered) {
    client.remoting.nameservers().channels[call.nameserver] =
        NameServerClient::Channel{t_ms, call.connect.epoch};
    send_route_request(call.connect.epoch, t_ms);
    return;
  }
  // 4.9: createChannel returned null and the loop goes on to the next address (whose choice
  // moves on, as this one's channel is not OK); 5.x and the last address: RemotingConnectException.
  if (--call.tries_left > 0) {
    get_and_create_nameserver_channel(t_ms);
    return;
  }
  plan_query(InvokeResult{t_ms,
                          call.connect.outcome == Delivery::kRefused ? SendCause::kConnectRefused
                                                                     : SendCause::kConnectTimeout,
                          /*close=*/false});
}

// Java: invokeSync once it has the channel, with the time spent since beginStartTime counted
// against mqClientApiTimeout. Deviation: like a send's, the response is taken to carry no payload
// (NetworkHistory#exchange), where upstream's carries the route (a few hundred bytes per group).
void ProducerModel::Impl::send_route_request(std::uint32_t epoch, std::int64_t t_ms) {
  RouteCall& call = client.route_call;
  const std::int64_t timeout = client_spec.config.mq_client_api_timeout;
  const InvokeResult result = client.remoting.invoke_on_channel(
      call.nameserver, epoch, call.begin_ms, timeout, t_ms, kRouteRequestBytes);
  if (result.cause == SendCause::kOk) {
    const auto processed = network.request_arrival(self, call.nameserver, epoch, t_ms,
                                                   call.begin_ms + timeout, kRouteRequestBytes);
    NSSIM_CHECK(processed.has_value(), "an answered route request was never processed");
    call.processed_ms = *processed;
  }
  plan_query(result);
}

void ProducerModel::Impl::plan_query(const InvokeResult& result) {
  client.route_call.planned = result;
  schedule(result.end_ms, EventKind::kQueryDone);
}

// The query as trace.jsonl shows it: the NameServer asked last, when the call began, how it ended;
// and, when it was answered, when that NameServer served it.
RouteQuery ProducerModel::Impl::traced_query(std::string outcome) const {
  const RouteCall& call = client.route_call;
  std::optional<std::int64_t> served;
  if (call.planned.cause == SendCause::kOk) served = call.processed_ms;
  return RouteQuery{network.name(call.nameserver), call.begin_ms, std::move(outcome), served};
}

// The request ended: apply the answer, release lockNamesrv, and go on with the caller: the rest of
// tryToFindTopicPublishInfo, or the poll's next topic.
void ProducerModel::Impl::on_query_done(std::int64_t t_ms) {
  const RouteCall& call = client.route_call;
  const std::uint64_t caller = call.caller;
  const std::string& topic = route_call_topic(caller);
  if (call.planned.cause != SendCause::kOk) {
    if (call.planned.close) {
      client.remoting.nameservers().channels[call.nameserver] =
          NameServerClient::Channel{t_ms, std::nullopt};
    }
    // Java: updateTopicRouteInfoFromNameServer rethrows a RemotingException as
    // IllegalStateException: it ends the poll's round, and leaves tryToFindTopicPublishInfo and
    // the send at once (no default-topic query). The send is reported as kNoRoute: it failed for
    // want of a route, and SendCause has no NameServer-side cause.
    const char* cause = send_cause_name(call.planned.cause);
    report_route_update(topic, traced_query(cause), t_ms, {}, {});
    unlock_namesrv(t_ms);
    if (caller == kRoutePollCaller) {
      on_poll_failed(t_ms, topic, cause);
    } else {
      finish_send(send_ref(caller), t_ms, SendCause::kNoRoute);
    }
    return;
  }
  const bool is_default = call.is_default;
  static const std::string kDefaultTopic(kAutoCreateTopicKeyTopic);
  const std::string& asked = is_default ? kDefaultTopic : topic;
  if (const core::TopicRouteData* answer =
          routes.answer_at(call.nameserver, asked, call.processed_ms)) {
    if (is_default) {
      const core::TopicRouteData route = default_topic_route(*answer);
      on_route_answer(topic, &route, t_ms, traced_query("ok"));
    } else {
      on_route_answer(topic, answer, t_ms, traced_query("ok"));
    }
  } else {
    report_route_update(topic, traced_query("topic_not_exist"), t_ms, {}, {});
  }
  // Any other answer (TOPIC_NOT_EXIST...) is an MQClientException the update catches: false.
  if (caller == kRoutePollCaller) {
    unlock_namesrv(t_ms);
    on_poll_topic_done(t_ms);
    return;
  }
  const SendRef ref = send_ref(caller);
  if (!ref.send.query_default && !ref.producer.impl.info_by_slot[ref.send.topic_slot]) {
    // No route info yet: the default topic next. The non-fair lockNamesrv goes back to this
    // thread, which asks again at once, before a woken waiter runs.
    ref.send.query_default = true;
    update_topic_route_info(caller, t_ms);
    return;
  }
  unlock_namesrv(t_ms);
  start_with_publish_info(ref, t_ms);
}

}  // namespace nssim::sim

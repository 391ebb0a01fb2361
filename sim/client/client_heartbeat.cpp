// File: the scheduler thread's heartbeat run (MQClientInstance#startScheduledTask's task
// cleanOfflineBroker + sendHeartbeatToAllBrokerWithLock): the broker address table cleaned under
// lockNamesrv, then one HEART_BEAT request to each master, one after another, over the client's
// own channels (producer_remoting.cpp), each holding the thread until it ends.
#include "common/invariant.h"
#include "nameserver_core/ids.h"
#include "sim/client/producer_model_impl.h"

namespace nssim::sim {

namespace {

// The HEART_BEAT request: its header and a HeartbeatData body with the clientID and one
// ProducerData (the group name), JSON-encoded: a few hundred bytes.
constexpr std::int64_t kHeartbeatRequestBytes = 320;

}  // namespace

// Java: MQClientInstance#cleanOfflineBroker first takes lockNamesrv with
// tryLock(LOCK_TIMEOUT_MILLIS), so a send's or the poll's route query in flight delays the run,
// and one that holds it past 3 s leaves the table uncleaned this time.
void ProducerModel::Impl::on_heartbeat_run(std::int64_t t_ms) {
  lock_namesrv(kHeartbeatCaller, t_ms);
}

void ProducerModel::Impl::clean_offline_broker(std::int64_t t_ms) {
  client.clean_offline_broker();
  unlock_namesrv(t_ms);
  send_heartbeat_to_all_broker(t_ms);
}

// Java: MQClientInstance#sendHeartbeatToAllBrokerWithLock -> sendHeartbeatToAllBroker. The
// instance has only producers, so only broker id 0 (MixAll.MASTER_ID) of each entry. Deviations:
// upstream walks brokerAddrTable (a ConcurrentHashMap) in hash order and sees entries a route
// answer puts meanwhile; the model walks the masters sorted by broker name, as the run began.
// lockHeartbeat is always free here: the run is its only taker the model has (5.x's
// heartbeat on a new channel, from the NettyEventExecutor, is not modelled).
void ProducerModel::Impl::send_heartbeat_to_all_broker(std::int64_t t_ms) {
  heartbeat.targets.clear();
  heartbeat.position = 0;
  for (const auto& [broker_name, addrs] : client.broker_addr_table) {
    const auto master = addrs.find(core::kMasterId);
    if (master == addrs.end()) continue;
    heartbeat.targets.push_back(
        {client.broker_ids.intern(broker_name), client.remoting.address_id(master->second)});
  }
  send_next_heartbeat(t_ms);
}

// Java: MQClientAPIImpl#sendHeartbeat -> NettyRemotingClient#invokeSync(addr, HEART_BEAT,
// mqClientApiTimeout) up to the channel: getAndCreateChannel, whose connect a send may already
// have started (the heartbeat then waits on it).
void ProducerModel::Impl::send_next_heartbeat(std::int64_t t_ms) {
  if (heartbeat.position == heartbeat.targets.size()) {
    end_scheduled_run(t_ms);
    return;
  }
  heartbeat.begin_ms = t_ms;
  heartbeat.planned = InvokeResult{};  // a failed connect ends it without a request
  const NettyRemotingClient::ChannelPick pick =
      client.remoting.get_and_create_channel(heartbeat.targets[heartbeat.position].addr, t_ms);
  Channel& channel = *pick.channel;
  heartbeat.channel = pick.id;
  if (channel.connected) {
    send_heartbeat_request(pick.id, channel, t_ms);
    return;
  }
  channel.waiting.push_back(kHeartbeatCaller);
  if (pick.created) schedule(channel.connect.at_ms, EventKind::kConnectDone, pick.id);
}

// invokeSync on the channel, judged as a send's request: the time its connect took counts against
// mqClientApiTimeout, a silent broker costs the rest of it, and a timeout closes the channel as
// clientCloseSocketIfTimeout says (4.9 always, 5.x only with more than 100 ms left), failing the
// sends pending on it.
void ProducerModel::Impl::send_heartbeat_request(std::uint64_t channel_id, Channel& channel,
                                                 std::int64_t t_ms) {
  heartbeat.channel = channel_id;
  heartbeat.planned = client.remoting.invoke_on_channel(
      channel.node, channel.epoch, heartbeat.begin_ms, client_spec.config.mq_client_api_timeout,
      t_ms, kHeartbeatRequestBytes, &channel.heartbeat_steady);
  channel.add_pending(kHeartbeatCaller);
  schedule(heartbeat.planned.end_ms, EventKind::kHeartbeatDone, ++heartbeat.token);
}

void ProducerModel::Impl::on_heartbeat_done(std::uint64_t token, std::int64_t t_ms) {
  if (token != heartbeat.token) return;  // replaced by a failFast
  if (Channel* channel = client.remoting.find_channel(heartbeat.channel)) {
    channel->remove_pending(kHeartbeatCaller);
    if (heartbeat.planned.close) {
      close_channel(heartbeat.channel, t_ms, /*fail_fast=*/true);
    } else if (channel->closed) {
      client.remoting.forget_channel_if_idle(heartbeat.channel);
    }
  }
  end_heartbeat(t_ms, heartbeat.planned.cause);
}

// NettyRemotingAbstract#failFast: the heartbeat's invokeSync throws RemotingSendRequestException
// now, unless it was to end now anyway.
void ProducerModel::Impl::fail_heartbeat_fast(std::int64_t t_ms) {
  if (heartbeat.planned.end_ms <= t_ms) return;
  // The broker may have processed it already; only its response is lost.
  const std::int64_t processed = processed_by(heartbeat.planned.processed_ms, t_ms)
                                     ? heartbeat.planned.processed_ms
                                     : kNotProcessed;
  heartbeat.planned = InvokeResult{t_ms, SendCause::kConnectionReset, /*close=*/false, processed};
  schedule(t_ms, EventKind::kHeartbeatDone, ++heartbeat.token);
}

// The request ended (answered, or invokeSync threw, which sendHeartbeatToAllBroker logs): the
// next master.
void ProducerModel::Impl::end_heartbeat(std::int64_t t_ms, SendCause cause) {
  const HeartbeatRun::Target& target = heartbeat.targets[heartbeat.position];
  observer.on_heartbeat(HeartbeatRecord{client.broker_ids.name(target.broker), core::kMasterId,
                                        client.remoting.address(target.addr), heartbeat.begin_ms,
                                        t_ms, cause, heartbeat.channel,
                                        heartbeat.planned.processed(), heartbeat.planned.close});
  ++heartbeat.position;
  send_next_heartbeat(t_ms);
}

}  // namespace nssim::sim

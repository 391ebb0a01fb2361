// File: NameServer, one RocketMQ NameServer as a pure state machine: typed requests in, typed
// responses out, plus the channel events and the periodic scan. It stands for NamesrvController
// with DefaultRequestProcessor, ClientRequestProcessor (5.x), ZoneRouteRPCHook (5.x) and
// BrokerHousekeepingService, for 4.9.8 or 5.3.3 behaviour. Not thread-safe: callers serialize.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "nameserver_core/ids.h"
#include "nameserver_core/kv_config_manager.h"
#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"
#include "nameserver_core/remoting.h"
#include "nameserver_core/route_info_manager.h"

namespace nssim::core {

// What one scan did: the expired live entries, the channels it closed (each once, in order), and
// every broker removal it caused, including the close path and, for 5.x, the drained batch.
struct ScanOutcome {
  std::vector<BrokerAddrInfo> expired;
  std::vector<ConnectionId> channels_closed;
  std::vector<BrokerRemoval> removals;
};

class NameServer {
 public:
  // `start_time_ms` is when the NameServer started (Java: ClientRequestProcessor's
  // startupTimeMillis, which needWaitForService counts from). The request processor's config
  // black list is fixed here from `config`, as Java's DefaultRequestProcessor constructor does.
  NameServer(Profile profile, NamesrvConfig config, std::int64_t start_time_ms);

  // RouteInfoManager keeps a reference to config_, so the object never moves.
  NameServer(const NameServer&) = delete;
  NameServer& operator=(const NameServer&) = delete;
  NameServer(NameServer&&) = delete;
  NameServer& operator=(NameServer&&) = delete;

  // Java: NettyRemotingAbstract#processRequestCommand with the NameServer's processors. The
  // request is handled even when it is oneway; nullopt means no response is written: a oneway
  // request, or (4.9) a code the processor does not know, which Java answers with nothing.
  std::optional<RemotingResponse> process(const RemotingRequest& request, ConnectionId channel,
                                          std::int64_t now_ms);

  // Java: the scanNotActiveBroker task, followed by what its RemotingHelper#closeChannel calls
  // cause (a CLOSE event per channel, each a BrokerHousekeepingService#onChannelClose) and, for
  // 5.x, a drain of the unregister batch queue.
  ScanOutcome scan(std::int64_t now_ms);

  // Java: BrokerHousekeepingService#onChannelClose / onChannelIdle / onChannelException.
  // `remote_addr` is the socket's peer address, which 4.9 falls back to when no live entry uses
  // the channel. 4.9 removes at once and returns the removals; 5.x queues them (see below). An
  // idle or exception close is followed by a CLOSE event, which the caller reports as a second
  // call with RemovalPath::kChannelClose, as Netty does.
  std::vector<BrokerRemoval> channel_destroyed(ConnectionId channel, const std::string& remote_addr,
                                               RemovalPath path);

  // Java 5.x: one run of BatchUnregistrationService over everything queued so far.
  std::vector<BrokerRemoval> process_pending_unregistrations();

  // Removals the last processed request made inline: 4.9's UNREGISTER_BROKER (5.x queues its
  // removals for process_pending_unregistrations instead).
  std::vector<BrokerRemoval> take_request_removals();

  // Java 5.x: NOTIFY_MIN_BROKER_ID_CHANGE requests the NameServer would send (oneway).
  std::vector<MinBrokerIdChangeNotice> take_min_broker_id_notices();

  Profile profile() const { return profile_; }
  std::int64_t start_time_ms() const { return start_time_ms_; }
  const NamesrvConfig& config() const { return config_; }
  const RouteInfoManager& route_info_manager() const { return route_info_manager_; }
  RouteInfoManager& route_info_manager() { return route_info_manager_; }
  const KvConfigManager& kv_config_manager() const { return kv_config_manager_; }
  KvConfigManager& kv_config_manager() { return kv_config_manager_; }

 private:
  std::optional<RemotingResponse> dispatch(const RemotingRequest& request, ConnectionId channel,
                                           std::int64_t now_ms);

  // KV configuration (processor_kv.cpp).
  RemotingResponse put_kv_config(const RemotingRequest& request);
  RemotingResponse get_kv_config(const RemotingRequest& request) const;
  RemotingResponse delete_kv_config(const RemotingRequest& request);
  RemotingResponse get_kv_list_by_namespace(const RemotingRequest& request) const;
  std::optional<KvTable> order_topic_config_for_broker() const;

  // Broker traffic (processor_broker.cpp).
  RemotingResponse register_broker(const RemotingRequest& request, ConnectionId channel,
                                   std::int64_t now_ms);
  RemotingResponse unregister_broker(const RemotingRequest& request);
  RemotingResponse query_broker_topic_config(const RemotingRequest& request, std::int64_t now_ms);
  RemotingResponse broker_heartbeat(const RemotingRequest& request, std::int64_t now_ms);
  RemotingResponse get_broker_member_group(const RemotingRequest& request) const;

  // Routes and topics (processor_topics.cpp).
  RemotingResponse get_route_info_by_topic(const RemotingRequest& request,
                                           std::int64_t now_ms) const;
  RemotingResponse get_broker_cluster_info() const;
  RemotingResponse operate_write_perm_of_broker(const RemotingRequest& request, bool wipe);
  RemotingResponse get_all_topic_list_from_nameserver() const;
  RemotingResponse delete_topic_in_namesrv(const RemotingRequest& request);
  RemotingResponse register_topic_to_namesrv(const RemotingRequest& request);
  RemotingResponse get_topics_by_cluster(const RemotingRequest& request) const;
  RemotingResponse get_topic_list(int code) const;

  // Configuration (processor_config.cpp).
  RemotingResponse update_config(const RemotingRequest& request);
  RemotingResponse get_config() const;

  Profile profile_;
  NamesrvConfig config_;  // declared before route_info_manager_, which refers to it
  RouteInfoManager route_info_manager_;
  KvConfigManager kv_config_manager_;
  std::int64_t start_time_ms_;
  std::set<std::string> config_black_list_;
  std::vector<BrokerRemoval> request_removals_;
};

}  // namespace nssim::core

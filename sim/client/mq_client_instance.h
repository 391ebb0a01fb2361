// File: a client's MQClientInstance as the model keeps it: the route cache (topicRouteTable), the
// broker address table, the publish infos built from the routes, lockNamesrv with its waiters and
// the one route call its holder makes, and the client's NettyRemotingClient (its
// MQClientAPIImpl's). State and table rules only: the clients that use it (a producer today) drive
// the calls, so a consumer can share the instance and its channels, as upstream's clients of one
// instanceName do. Deviation: upstream keeps the publish infos in each producer
// (DefaultMQProducerImpl# topicPublishInfoTable, which updateTopicRouteInfoFromNameServer fills);
// here they are the instance's, as only producers read them.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "common/invariant.h"
#include "nameserver_core/profile.h"
#include "nameserver_core/route_types.h"
#include "sim/client/netty_remoting_client.h"
#include "sim/client/producer_ids.h"
#include "sim/client/publish_info.h"

namespace nssim::sim {

// Java: MQClientInstance (topicRouteTable, brokerAddrTable, lockNamesrv,
// updateTopicRouteInfoFromNameServer, findBrokerAddressInPublish, cleanOfflineBroker).
struct MQClientInstance {
  MQClientInstance(core::Profile profile, NettyRemotingClient remoting);

  // A publish info and the broker id of each of its queues, in message_queue_list order, so that
  // a selected queue leads to its broker, address and channel through vectors.
  // Sends hold one by a plain pointer and a count kept here (one thread: no atomic reference
  // count per send); one replaced while sends still hold it waits in retired_infos.
  struct PublishEntry {
    TopicPublishInfo info;
    std::vector<std::uint32_t> queue_brokers;
    std::set<std::string> brokers;  // info.brokers(), built once: a route answer reads it twice
    int sends = 0;                  // sends holding it
    bool retired = false;           // no longer in the tables
    std::uint64_t serial = 0;       // from 1, in creation order: whose sendWhichQueue a value is
  };
  // What a route answer did to the tables: the new publish info (null: nothing changed) and
  // the groups it gained and lost writable queues on, sorted.
  struct RouteApplied {
    std::shared_ptr<PublishEntry> info;
    std::vector<std::string> gained;
    std::vector<std::string> lost;
  };
  // Java: MQClientInstance#updateTopicRouteInfoFromNameServer from the answer on: a route that
  // changed (topicRouteDataChanged), or any route while the publish info is missing or not ok
  // (isNeedUpdateTopicRouteInfo), replaces the tables' entries.
  RouteApplied apply_route(const std::string& topic, const core::TopicRouteData& route);
  // Java: MQClientInstance#findBrokerAddressInPublish: brokerId 0 only, from a broker id to the
  // master's address id.
  std::optional<std::uint32_t> find_broker_address_in_publish(std::uint32_t broker) const {
    return broker < master_of_broker.size() ? master_of_broker[broker] : std::nullopt;
  }
  // Java: MQClientInstance#cleanOfflineBroker once it holds lockNamesrv: every address of
  // broker_addr_table that no BrokerData of any cached route names leaves it (whether the broker
  // is alive or not), and so does a broker name left with none. master_of_broker follows.
  void clean_offline_broker();
  // A send lets go of the publish info it held; a retired one is dropped with its last holder.
  void let_go(PublishEntry* entry) {
    if (entry == nullptr) return;
    NSSIM_CHECK(entry->sends > 0, "a publish info let go by a send that did not hold it");
    if (--entry->sends == 0 && entry->retired) drop_retired(entry);
  }

  // lockNamesrv: tryLock without waiting; a caller that must wait queues with its deadline; a
  // waiter whose wait timed out leaves (false: it already has the lock); unlock hands the lock
  // to the first waiter still waiting at t_ms, whose id it returns.
  bool try_lock_namesrv();
  void wait_for_namesrv(std::uint64_t caller, std::int64_t deadline_ms);
  bool drop_namesrv_waiter(std::uint64_t caller, std::int64_t deadline_ms);
  std::optional<std::uint64_t> unlock_namesrv(std::int64_t t_ms);

  // The one GET_ROUTEINFO_BY_TOPIC call in flight: lockNamesrv's holder makes it, so there is at
  // most one per client.
  struct RouteCall {
    std::uint64_t caller = 0;
    bool is_default = false;        // a send's second update, for the default topic TBW102
    std::int64_t begin_ms = 0;      // invokeSync's beginStartTime
    std::size_t tries_left = 0;     // addresses getAndCreateNameserverChannel may still try
    NodeId nameserver = 0;          // the NameServer it connects to or asks
    ConnectResult connect;          // the running connect's outcome
    std::int64_t processed_ms = 0;  // when the NameServer processes an answered request
    NettyRemotingClient::InvokeResult planned;  // how the request ends
  };

  core::Profile profile;
  NettyRemotingClient remoting;
  std::map<std::string, core::TopicRouteData> topic_route_table;
  std::map<std::string, std::map<std::int64_t, std::string>> broker_addr_table;
  std::map<std::string, std::shared_ptr<PublishEntry>> topic_publish_info_table;
  // Broker names met in routes, and by broker id the master's address id (brokerId 0), mirrored
  // from broker_addr_table.
  NameIds broker_ids;
  std::vector<std::optional<std::uint32_t>> master_of_broker;
  RouteCall route_call;

 private:
  // Mirrors a route's BrokerData into master_of_broker, giving its name and master ids.
  void note_master_address(const core::BrokerData& broker);
  // The publish info with its queues' broker ids.
  std::shared_ptr<PublishEntry> publish_entry(TopicPublishInfo info);
  // The tables dropped `entry`: it lives on while sends hold it.
  void retire_info(std::shared_ptr<PublishEntry> entry);
  void drop_retired(const PublishEntry* entry);

  std::vector<std::shared_ptr<PublishEntry>> retired_infos_;  // replaced, still held by sends
  // A route was applied since the last clean_offline_broker, which may have something to remove.
  bool clean_pending_ = false;
  std::uint64_t next_info_serial_ = 1;
  // lockNamesrv and the callers waiting for it, in order, each with its tryLock deadline.
  bool namesrv_locked_ = false;
  std::deque<std::pair<std::uint64_t, std::int64_t>> namesrv_lock_waiters_;
};

}  // namespace nssim::sim

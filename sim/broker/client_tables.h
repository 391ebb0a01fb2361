// File: a broker's tables of the clients that heartbeat it: ProducerManager's groupChannelTable,
// ConsumerManager's channel tables, filled by ClientManageProcessor#heartBeat and emptied by the
// housekeeping scan (ClientHousekeepingService) and the channel events (close, idle, exception).
// Pure rules: whoever replays a broker's incarnation calls them in time order.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace nssim::sim {

// Java: ProducerManager.CHANNEL_EXPIRED_TIMEOUT (1000 * 120, both lines) and ConsumerManager's
// (4.9 a constant of the same value; 5.x BrokerConfig#channelExpiredTimeout, default 1000 * 120).
inline constexpr std::int64_t kChannelExpiredTimeoutMs = 120'000;
// Java: ClientHousekeepingService#start, scheduleAtFixedRate(scanExceptionChannel, 1000 * 10,
// 1000 * 10) from BrokerController#start (both lines).
inline constexpr std::int64_t kHousekeepingFirstDelayMs = 10'000;
inline constexpr std::int64_t kHousekeepingPeriodMs = 10'000;
// Java: NettyServerConfig.serverChannelMaxIdleTimeSeconds (120, both lines): the server's
// IdleStateHandler(0, 0, it) fires ALL_IDLE once that long passed without a read or a write,
// and NettyConnectManageHandler closes the channel (ClientHousekeepingService#onChannelIdle).
// The broker's own NettyServerConfig: the scenario's serverChannelMaxIdleTimeSeconds is the
// NameServers'.
inline constexpr std::int64_t kServerChannelMaxIdleTimeSeconds = 120;

// A broker-side channel: one client connection, named by whoever replays (a small number).
using BrokerChannel = std::uint64_t;

// Java: ClientChannelInfo, what the tables keep of a channel.
struct ClientChannelInfo {
  std::string client_id;
  std::int64_t last_update_ms = 0;  // lastUpdateTimestamp
};

// One entry a rule took out of a table.
struct RemovedChannel {
  std::string group;
  BrokerChannel channel = 0;
  ClientChannelInfo info;
};

// Java: ProducerManager (groupChannelTable: group -> channel -> ClientChannelInfo).
class ProducerManager {
 public:
  // Java: registerProducer: a new channel enters with the heartbeat's instant (the
  // ClientChannelInfo built by heartBeat), a known one has lastUpdateTimestamp refreshed.
  void register_producer(const std::string& group, BrokerChannel channel,
                         const std::string& client_id, std::int64_t now_ms);
  // Java: doChannelCloseEvent: the channel leaves every group.
  std::vector<RemovedChannel> do_channel_close_event(BrokerChannel channel);
  // Java: scanNotActiveChannel: `now - lastUpdateTimestamp > CHANNEL_EXPIRED_TIMEOUT` (strict)
  // removes the entry (and closes the channel, whose close event then finds nothing).
  std::vector<RemovedChannel> scan_not_active_channel(std::int64_t now_ms);
  // Every (group, channel) entry.
  std::size_t entry_count() const;
  const std::map<std::string, std::map<BrokerChannel, ClientChannelInfo>>& group_channel_table()
      const {
    return group_channel_table_;
  }

 private:
  std::map<std::string, std::map<BrokerChannel, ClientChannelInfo>> group_channel_table_;
};

// Java: ConsumerManager (consumerTable: group -> ConsumerGroupInfo.channelInfoTable), only what
// the heartbeat, the scan and the channel events do to the channels: subscriptions, CHANGE
// notifications and the consumer list come with the consumers.
class ConsumerManager {
 public:
  // Java: registerConsumer's r1 (ConsumerGroupInfo#updateChannel): true when the channel is new
  // to the group; either way its lastUpdateTimestamp becomes now.
  bool register_consumer(const std::string& group, BrokerChannel channel,
                         const std::string& client_id, std::int64_t now_ms);
  // Java: doChannelCloseEvent; a group left without channels goes (UNREGISTER).
  std::vector<RemovedChannel> do_channel_close_event(BrokerChannel channel);
  // Java: scanNotActiveChannel, the same strict rule as the producers'; empty groups go.
  std::vector<RemovedChannel> scan_not_active_channel(std::int64_t now_ms);
  std::size_t entry_count() const;
  // Java: ConsumerManager#findConsumerGroupInfo then ConsumerGroupInfo#getAllClientId, what
  // GET_CONSUMER_LIST_BY_GROUP answers: the clientId of every channel of the group, one per
  // channel (a client with two channels is listed twice, apache/rocketmq #7870); empty when the
  // broker knows no channel of the group (the processor answers SYSTEM_ERROR "no consumer for
  // this group"). Deviation: upstream lists them in its ConcurrentHashMap's order of the
  // Channel keys; the model in the order of its channel numbers (the client sorts them anyway).
  std::vector<std::string> all_client_ids(const std::string& group) const;
  // The channels of the group, which a CHANGE notifies (DefaultConsumerIdsChangeListener sends
  // NOTIFY_CONSUMER_IDS_CHANGED to each).
  std::vector<BrokerChannel> channels_of(const std::string& group) const;

 private:
  std::map<std::string, std::map<BrokerChannel, ClientChannelInfo>> consumer_table_;
};

// Java: HeartbeatData, what the broker reads of it: the clientID and the groups of the client's
// consumers and producers.
struct HeartbeatData {
  std::string client_id;
  std::set<std::string> consumer_groups;
  std::set<std::string> producer_groups;
};

// One broker incarnation's client tables (BrokerController's ProducerManager and ConsumerManager)
// with the processor and the housekeeping service that change them. A restart starts a new one:
// the tables live in memory only.
struct BrokerClientTables {
  ProducerManager producers;
  ConsumerManager consumers;

  // Java: ClientManageProcessor#heartBeat (the consumers first, then the producers). 5.x's
  // heartBeatV2 (a heartbeat with a fingerprint) is not taken: clients send none unless
  // ClientConfig#useHeartbeatV2, false by default.
  void heart_beat(const HeartbeatData& data, BrokerChannel channel, std::int64_t now_ms);
  // Java: ClientHousekeepingService#onChannelClose / onChannelIdle / onChannelException: the
  // producers' entries the channel had.
  std::vector<RemovedChannel> on_channel_close(BrokerChannel channel);
  // Java: ClientHousekeepingService#scanExceptionChannel (producers, then consumers): the
  // producers' entries the scan removed.
  std::vector<RemovedChannel> scan_exception_channel(std::int64_t now_ms);
};

// The instant of the housekeeping scan's k-th run (k >= 0) in an incarnation started at
// started_ms: scheduleAtFixedRate's first delay, then one period each.
constexpr std::int64_t housekeeping_scan_at(std::int64_t started_ms, std::int64_t k) {
  return started_ms + kHousekeepingFirstDelayMs + k * kHousekeepingPeriodMs;
}

}  // namespace nssim::sim

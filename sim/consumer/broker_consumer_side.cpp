// File: a broker's consumer side as the consumers meet it: ConsumerManager's table of group
// channels from heartbeats (ClientManageProcessor#heartBeat), its removals (doChannelCloseEvent
// on a close or an idle channel, with NOTIFY_CONSUMER_IDS_CHANGED; scanNotActiveChannel's expiry,
// without), GET_CONSUMER_LIST_BY_GROUP, and the scheduled consumer offset flush.
#include <algorithm>

#include "sim/broker/client_tables.h"
#include "sim/consumer/consumer_engine.h"

namespace nssim::sim {

namespace {

constexpr std::int64_t kServerChannelMaxIdleMs = kServerChannelMaxIdleTimeSeconds * 1000;

}  // namespace

// Java: ConsumerManager#registerConsumer -> ConsumerGroupInfo#updateChannel: a new channel is a
// CHANGE (DefaultConsumerIdsChangeListener notifies the group); every heartbeat refreshes
// lastUpdateTimestamp; ConsumerGroupInfo#updateSubscription keeps one subscription per topic for
// the whole group and replaces it only by a newer subVersion.
void ConsumerEngine::register_heartbeat(BrokerSide& broker, std::size_t i, std::uint64_t channel,
                                        std::int64_t t_ms) {
  const Instance& instance = *instances_[i];
  const ConsumerSpec& spec = spec_of(instance);
  auto& channels = broker.groups[spec.group];
  const auto [entry, added] = channels.try_emplace({i, channel});
  entry->second.client_id = instance.client_id;
  entry->second.last_update_ms = t_ms;
  entry->second.last_io_ms = std::max(entry->second.last_io_ms, t_ms);
  for (const auto& [topic, version] : instance.sub_version) {
    std::int64_t& kept = broker.sub_versions[{spec.group, topic}];
    kept = std::max(kept, version);
  }
  if (!added) return;
  broker.lists.erase(spec.group);
  arm_idle_check(broker_of_node_.at(broker.node), i, channel, t_ms + kServerChannelMaxIdleMs);
  notify_group(broker, spec.group, t_ms);
}

void ConsumerEngine::touch(BrokerSide& broker, std::size_t i, std::uint64_t channel,
                           std::int64_t t_ms) {
  const auto group = broker.groups.find(spec_of(*instances_[i]).group);
  if (group == broker.groups.end()) return;
  if (const auto entry = group->second.find({i, channel}); entry != group->second.end()) {
    entry->second.last_io_ms = std::max(entry->second.last_io_ms, t_ms);
  }
}

void ConsumerEngine::remove_channel(BrokerSide& broker, std::size_t i, std::uint64_t channel,
                                    std::int64_t t_ms, const char* how, bool notify) {
  const std::string& group = spec_of(*instances_[i]).group;
  const auto channels = broker.groups.find(group);
  if (channels == broker.groups.end() || channels->second.erase({i, channel}) == 0) return;
  broker.lists.erase(group);
  const TopologyNode& node = inputs_.topology.nodes[static_cast<std::size_t>(broker.node)];
  record_.removals.push_back({node.name, static_cast<std::uint32_t>(i), t_ms, how, notify});
  if (notify) notify_group(broker, group, t_ms);
}

// Java: DefaultConsumerIdsChangeListener#handle(CHANGE): a oneway NOTIFY_CONSUMER_IDS_CHANGED
// to every channel of the group; the client's ClientRemotingProcessor calls
// rebalanceImmediately.
void ConsumerEngine::notify_group(BrokerSide& broker, const std::string& group, std::int64_t t_ms) {
  const auto channels = broker.groups.find(group);
  if (channels == broker.groups.end()) return;
  for (auto& [key, entry] : channels->second) {
    const std::size_t i = key.first;
    const Instance& instance = *instances_[i];
    if (network_.deliver(broker.node, instance.node, instance.epoch, t_ms) !=
        Delivery::kDelivered) {
      continue;
    }
    entry.last_io_ms = std::max(entry.last_io_ms, t_ms);
    const std::int64_t arrival = t_ms + network_.transit_ms(broker.node, instance.node, t_ms);
    on_instance(i, arrival, [this, i](Instance& self) {
      self.rebalance.wakeup(now_ms_);
      rebalance_wait(self, i);
    });
  }
}

// Java: IdleStateHandler(0, 0, serverChannelMaxIdleTimeSeconds) -> ClientHousekeepingService#
// onChannelIdle -> doChannelCloseEvent: removed, with a CHANGE.
void ConsumerEngine::arm_idle_check(std::size_t b, std::size_t i, std::uint64_t channel,
                                    std::int64_t t_ms) {
  on_broker(b, brokers_[b].epoch, t_ms, [this, b, i, channel, t_ms](BrokerSide& broker) {
    const auto group = broker.groups.find(spec_of(*instances_[i]).group);
    if (group == broker.groups.end()) return;
    const auto entry = group->second.find({i, channel});
    if (entry == group->second.end()) return;
    const std::int64_t idle_at = entry->second.last_io_ms + kServerChannelMaxIdleMs;
    if (idle_at > t_ms) {
      arm_idle_check(b, i, channel, idle_at);
      return;
    }
    remove_channel(broker, i, channel, t_ms, "idle_close", true);
  });
}

// Java: ConsumerManager#scanNotActiveChannel every 10 s (ClientHousekeepingService): a channel
// silent for more than channelExpiredTimeout is closed and removed, with no CHANGE sent (spec 4).
void ConsumerEngine::scan_not_active(std::size_t b, std::uint32_t epoch, std::int64_t t_ms) {
  on_broker(b, epoch, t_ms, [this, b, epoch](BrokerSide& broker) {
    const std::int64_t now = now_ms_;
    std::vector<std::pair<std::size_t, std::uint64_t>> expired;
    for (const auto& [group, channels] : broker.groups) {
      for (const auto& [key, entry] : channels) {
        if (now - entry.last_update_ms > kChannelExpiredTimeoutMs) expired.push_back(key);
      }
    }
    for (const auto& [i, channel] : expired) {
      remove_channel(broker, i, channel, now, "expiry_scan", false);
    }
    scan_not_active(b, epoch, now + kHousekeepingPeriodMs);
  });
}

void ConsumerEngine::flush_offsets(std::size_t b, std::uint32_t epoch, std::int64_t t_ms) {
  on_broker(b, epoch, t_ms, [this, b, epoch](BrokerSide& broker) {
    broker.offsets.persist();
    flush_offsets(b, epoch, now_ms_ + kFlushConsumerOffsetIntervalMs);
  });
}

// Java: ConsumerManageProcessor#getConsumerListByGroup: the group's clientIds, one per channel.
std::shared_ptr<const std::vector<std::string>> ConsumerEngine::consumer_list(
    BrokerSide& broker, const std::string& group) const {
  auto& cached = broker.lists[group];
  if (cached) return cached;
  std::vector<std::string> ids;
  if (const auto channels = broker.groups.find(group); channels != broker.groups.end()) {
    for (const auto& [key, entry] : channels->second) ids.push_back(entry.client_id);
  }
  std::sort(ids.begin(), ids.end());
  cached = std::make_shared<const std::vector<std::string>>(std::move(ids));
  return cached;
}

}  // namespace nssim::sim

// File: the indexes RouteInfoManager keeps beside its tables, and the only writes to
// brokerLiveTable: live keys by channel and by expiry deadline, and groups by broker address.
// They answer what Java finds by walking a whole table, and each gives the entry that walk would
// meet first (our tables are ordered, so "first" is table order).
#include <algorithm>

#include "nameserver_core/route_info_manager.h"

namespace nssim::core {

// Java: lastUpdateTimestamp + timeout (4.9: the fixed BROKER_CHANNEL_EXPIRED_TIME). Java's long
// addition wraps, and so does this one.
std::int64_t RouteInfoManager::expiry_deadline(const BrokerLiveInfo& live) const {
  const std::int64_t timeout_ms = profile_ == Profile::kV4_9 ? kDefaultBrokerChannelExpiredTimeMs
                                                             : live.heartbeat_timeout_millis;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(live.last_update_timestamp) +
                                   static_cast<std::uint64_t>(timeout_ms));
}

void RouteInfoManager::index_live(const BrokerAddrInfo& key, const BrokerLiveInfo& live) {
  live_keys_by_channel_[live.channel].insert(key);
  live_keys_by_deadline_.emplace(expiry_deadline(live), key);
}

void RouteInfoManager::unindex_live(const BrokerAddrInfo& key, const BrokerLiveInfo& live) {
  auto on_channel = live_keys_by_channel_.find(live.channel);
  on_channel->second.erase(key);
  if (on_channel->second.empty()) live_keys_by_channel_.erase(on_channel);
  live_keys_by_deadline_.erase({expiry_deadline(live), key});
}

void RouteInfoManager::put_live(const BrokerAddrInfo& key, BrokerLiveInfo live) {
  auto [slot, inserted] = broker_live_table_.try_emplace(key, live);
  if (!inserted) {
    unindex_live(key, slot->second);
    slot->second = std::move(live);
  }
  index_live(key, slot->second);
}

bool RouteInfoManager::erase_live(const BrokerAddrInfo& key) {
  auto live = broker_live_table_.find(key);
  if (live == broker_live_table_.end()) return false;
  unindex_live(key, live->second);
  broker_live_table_.erase(live);
  return true;
}

void RouteInfoManager::touch_live(const BrokerAddrInfo& key, std::int64_t now_ms) {
  auto live = broker_live_table_.find(key);
  if (live == broker_live_table_.end()) return;
  live_keys_by_deadline_.erase({expiry_deadline(live->second), key});
  live->second.last_update_timestamp = now_ms;
  live_keys_by_deadline_.emplace(expiry_deadline(live->second), key);
}

// Java: the brokerLiveTable walk of onChannelDestroy, which takes the first entry on the channel.
const BrokerAddrInfo* RouteInfoManager::first_live_key_on(ConnectionId channel) const {
  auto on_channel = live_keys_by_channel_.find(channel);
  return on_channel == live_keys_by_channel_.end() ? nullptr : &*on_channel->second.begin();
}

// Java: the brokerLiveTable walk of scanNotActiveBroker; expired means deadline < now (strict).
// The deadline index finds them without visiting the live ones; they are handed back in table
// order, the order the walk meets them.
std::vector<BrokerAddrInfo> RouteInfoManager::expired_live_keys(std::int64_t now_ms) const {
  std::vector<BrokerAddrInfo> expired;
  for (auto it = live_keys_by_deadline_.begin();
       it != live_keys_by_deadline_.end() && it->first < now_ms; ++it) {
    expired.push_back(it->second);
  }
  std::sort(expired.begin(), expired.end());
  return expired;
}

// Brings groups_by_addr_ up to date after `group`'s address map gained or lost `broker_addr`.
void RouteInfoManager::reindex_broker_addr(const std::string& group, const BrokerData* broker_data,
                                           const std::string& broker_addr) {
  bool listed = false;
  if (broker_data != nullptr) {
    for (const auto& [id, addr] : broker_data->broker_addrs) listed = listed || addr == broker_addr;
  }
  if (listed) {
    groups_by_addr_[broker_addr].insert(group);
    return;
  }
  auto groups = groups_by_addr_.find(broker_addr);
  if (groups == groups_by_addr_.end()) return;
  groups->second.erase(group);
  if (groups->second.empty()) groups_by_addr_.erase(groups);
}

// The groups listing `broker_addr`, in brokerAddrTable order.
const std::set<std::string>& RouteInfoManager::groups_listing(
    const std::string& broker_addr) const {
  static const std::set<std::string> kNone;
  auto groups = groups_by_addr_.find(broker_addr);
  return groups == groups_by_addr_.end() ? kNone : groups->second;
}

}  // namespace nssim::core

// File: how the NameServer notices dead brokers: scanNotActiveBroker (expiry by timestamp) and
// onChannelDestroy (connection closed, idle or failed). 4.9 removes at once; 5.x queues an
// unregister request for the batch service.
#include <iterator>
#include <map>
#include <utility>

#include "nameserver_core/route_info_manager.h"

namespace nssim::core {

ScanResult RouteInfoManager::scan_not_active_broker(std::int64_t now_ms) {
  ScanResult result;
  if (profile_ == Profile::kV4_9) {
    // Java 4.9.8: scanNotActiveBroker. The entry is removed first, then onChannelDestroy runs with
    // the address as remoteAddr, so the channel lookup only finds another entry on that channel.
    // Deviation: Java iterates a HashMap and would throw ConcurrentModificationException (ending
    // all future scans) if that lookup removed another entry; here the scan goes on.
    for (auto it = broker_live_table_.begin(); it != broker_live_table_.end();) {
      if (it->second.last_update_timestamp + kDefaultBrokerChannelExpiredTimeMs >= now_ms) {
        ++it;
        continue;
      }
      const BrokerAddrInfo key = it->first;
      const ConnectionId channel = it->second.channel;
      result.channels_to_close.push_back(channel);
      result.expired.push_back(key);
      broker_live_table_.erase(it);
      bool reported = false;
      for (auto& removal : on_channel_destroy(channel, key.broker_addr, RemovalPath::kScanExpiry)) {
        if (removal.broker_addr == key.broker_addr) {
          removal.removed_live_entry = true;
          reported = true;
        }
        result.removals.push_back(std::move(removal));
      }
      if (!reported) {
        result.removals.push_back(
            BrokerRemoval{"", key.broker_addr, "", RemovalPath::kScanExpiry, true, false, false});
      }
      it = broker_live_table_.upper_bound(key);
    }
    return result;
  }

  // Java 5.3.3: scanNotActiveBroker. The live entry stays until the batch service runs. Java's
  // setupUnRegisterRequest walks brokerAddrTable per expired broker; the scan changes no table,
  // so the walk is done once into an index (first group in table order wins, as in the walk).
  std::map<BrokerAddrInfo, std::pair<std::string, std::int64_t>> groups_by_addr;
  bool indexed = false;
  for (const auto& [key, live] : broker_live_table_) {
    if (live.last_update_timestamp + live.heartbeat_timeout_millis >= now_ms) continue;
    result.channels_to_close.push_back(live.channel);
    result.expired.push_back(key);
    if (!indexed) {
      for (const auto& [name, data] : broker_addr_table_) {
        for (const auto& [id, addr] : data.broker_addrs) {
          groups_by_addr.emplace(BrokerAddrInfo{data.cluster, addr}, std::make_pair(name, id));
        }
      }
      indexed = true;
    }
    auto group = groups_by_addr.find(key);
    if (group == groups_by_addr.end()) continue;
    submit_unregister_broker_request(
        UnregisterBrokerRequest{key.cluster_name, key.broker_addr, group->second.first,
                                group->second.second},
        RemovalPath::kScanExpiry);
  }
  return result;
}

std::vector<BrokerRemoval> RouteInfoManager::on_channel_destroy(ConnectionId channel,
                                                                const std::string& remote_addr,
                                                                RemovalPath path) {
  const BrokerLiveTable::value_type* found = nullptr;
  for (const auto& entry : broker_live_table_) {
    if (entry.second.channel == channel) {
      found = &entry;
      break;
    }
  }

  if (profile_ == Profile::kV4_9) {
    // Java 4.9.8: onChannelDestroy(remoteAddr, channel) falls back to the socket's peer address.
    const std::string broker_addr_found = found ? found->first.broker_addr : remote_addr;
    if (broker_addr_found.empty()) return {};
    return on_channel_destroy_v4(broker_addr_found, path);
  }

  // Java 5.3.3: onChannelDestroy(Channel) submits an unregister for the live entry's group.
  if (found == nullptr) return {};
  if (auto request = setup_un_register_request(found->first)) {
    submit_unregister_broker_request(*request, path);
  }
  return {};
}

// Java 4.9.8: the write-locked half of onChannelDestroy.
std::vector<BrokerRemoval> RouteInfoManager::on_channel_destroy_v4(
    const std::string& broker_addr_found, RemovalPath path) {
  BrokerRemoval removal{"", broker_addr_found, "", path};
  removal.removed_live_entry = broker_live_table_.erase(live_key("", broker_addr_found)) != 0;
  erase_filter_servers(live_key("", broker_addr_found));

  // Java walks brokerAddrTable until the first group listing the address, and drops every group it
  // walks past that is empty, not only the one it found.
  bool remove_broker_name = false;
  for (auto it = broker_addr_table_.begin();
       it != broker_addr_table_.end() && removal.broker_name.empty();) {
    auto& addrs = it->second.broker_addrs;
    for (auto addr = addrs.begin(); addr != addrs.end(); ++addr) {
      if (addr->second == broker_addr_found) {
        removal.broker_name = it->second.broker_name;
        removal.cluster_name = it->second.cluster;
        removal.removed_addr_entry = true;
        addrs.erase(addr);
        break;
      }
    }
    if (addrs.empty()) {
      remove_broker_name = true;
      it = broker_addr_table_.erase(it);
    } else {
      ++it;
    }
  }
  if (removal.removed_addr_entry || remove_broker_name) note_broker_addr_change();

  if (!removal.broker_name.empty() && remove_broker_name) {
    for (auto it = cluster_addr_table_.begin(); it != cluster_addr_table_.end(); ++it) {
      if (it->second.erase(removal.broker_name) != 0) {
        removal.cluster_name = it->first;
        if (it->second.empty()) cluster_addr_table_.erase(it);
        note_cluster_addr_change();
        break;
      }
    }
  }
  if (remove_broker_name) {
    removal.removed_broker_name = !removal.broker_name.empty();
    remove_topic_by_broker_name(removal.broker_name);
  }
  if (!removal.removed_live_entry && !removal.removed_addr_entry) return {};
  return {removal};
}

// Java 5.3.3: setupUnRegisterRequest. The first group of the same cluster listing the address.
std::optional<UnregisterBrokerRequest> RouteInfoManager::setup_un_register_request(
    const BrokerAddrInfo& addr_info) const {
  for (const auto& [name, broker_data] : broker_addr_table_) {
    if (broker_data.cluster != addr_info.cluster_name) continue;
    for (const auto& [id, addr] : broker_data.broker_addrs) {
      if (addr == addr_info.broker_addr) {
        return UnregisterBrokerRequest{addr_info.cluster_name, addr_info.broker_addr,
                                       broker_data.broker_name, id};
      }
    }
  }
  return std::nullopt;
}

}  // namespace nssim::core

// File: how the NameServer notices dead brokers: scanNotActiveBroker (expiry by timestamp) and
// onChannelDestroy (connection closed, idle or failed). 4.9 removes at once; 5.x queues an
// unregister request for the batch service.
#include <utility>

#include "nameserver_core/route_info_manager.h"

namespace nssim::core {

ScanResult RouteInfoManager::scan_not_active_broker(std::int64_t now_ms) {
  ScanResult result;
  if (profile_ == Profile::kV4_9) {
    // Java 4.9.8: scanNotActiveBroker. The entry is removed first, then onChannelDestroy runs with
    // the address as remoteAddr, so the channel lookup only finds another entry on that channel.
    // Deviation: Java iterates a HashMap and would throw ConcurrentModificationException (ending
    // all future scans) if that lookup removed another entry; here the scan goes on, and an
    // expired entry that lookup removed is not met again, as in a walk of the table.
    // The topic table is cleaned once at the end for every removed group: nothing in the scan
    // reads it, and one pass gives the table one removeTopicByBrokerName per group would.
    std::set<std::string> groups_to_clean;
    for (const BrokerAddrInfo& key : expired_live_keys(now_ms)) {
      auto live = broker_live_table_.find(key);
      if (live == broker_live_table_.end()) continue;
      const ConnectionId channel = live->second.channel;
      result.channels_to_close.push_back(channel);
      result.expired.push_back(key);
      erase_live(key);
      bool reported = false;
      for (auto& removal : channel_destroy_v4(channel, key.broker_addr, RemovalPath::kScanExpiry,
                                              groups_to_clean)) {
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
    }
    remove_topic_by_broker_names(groups_to_clean);
    return result;
  }

  // Java 5.3.3: scanNotActiveBroker. The live entry stays until the batch service runs.
  for (const BrokerAddrInfo& key : expired_live_keys(now_ms)) {
    result.channels_to_close.push_back(broker_live_table_.at(key).channel);
    result.expired.push_back(key);
    if (auto request = setup_un_register_request(key)) {
      submit_unregister_broker_request(*request, RemovalPath::kScanExpiry);
    }
  }
  return result;
}

std::vector<BrokerRemoval> RouteInfoManager::on_channel_destroy(ConnectionId channel,
                                                                const std::string& remote_addr,
                                                                RemovalPath path) {
  if (profile_ == Profile::kV4_9) {
    std::set<std::string> groups_to_clean;
    auto removals = channel_destroy_v4(channel, remote_addr, path, groups_to_clean);
    remove_topic_by_broker_names(groups_to_clean);
    return removals;
  }

  // Java 5.3.3: onChannelDestroy(Channel) submits an unregister for the live entry's group.
  const BrokerAddrInfo* found = first_live_key_on(channel);
  if (found == nullptr) return {};
  if (auto request = setup_un_register_request(*found)) {
    submit_unregister_broker_request(*request, path);
  }
  return {};
}

// Java 4.9.8: onChannelDestroy(remoteAddr, channel) falls back to the socket's peer address.
// Groups whose topics removeTopicByBrokerName would clean are added to `groups_to_clean`.
std::vector<BrokerRemoval> RouteInfoManager::channel_destroy_v4(
    ConnectionId channel, const std::string& remote_addr, RemovalPath path,
    std::set<std::string>& groups_to_clean) {
  const BrokerAddrInfo* found = first_live_key_on(channel);
  const std::string broker_addr_found = found ? found->broker_addr : remote_addr;
  if (broker_addr_found.empty()) return {};
  return on_channel_destroy_v4(broker_addr_found, path, groups_to_clean);
}

// Java 4.9.8: the write-locked half of onChannelDestroy.
std::vector<BrokerRemoval> RouteInfoManager::on_channel_destroy_v4(
    const std::string& broker_addr_found, RemovalPath path,
    std::set<std::string>& groups_to_clean) {
  BrokerRemoval removal{"", broker_addr_found, "", path};
  removal.removed_live_entry = erase_live(live_key("", broker_addr_found));
  erase_filter_servers(live_key("", broker_addr_found));

  // Java walks brokerAddrTable until the first group listing the address (a group with an empty
  // name does not stop it) and drops every group it walks past that is empty. No 4.9 operation
  // leaves a group empty (registration lists the address it adds; unregisterBroker and this
  // method drop a group they empty), so only the groups listing the address can be dropped, and
  // the index of groups by address visits them in the walk's order.
  bool remove_broker_name = false;
  const std::set<std::string> listing = groups_listing(broker_addr_found);  // changes below
  for (const std::string& name : listing) {
    auto group = broker_addr_table_.find(name);
    auto& addrs = group->second.broker_addrs;
    for (auto addr = addrs.begin(); addr != addrs.end(); ++addr) {
      if (addr->second == broker_addr_found) {
        addrs.erase(addr);
        break;
      }
    }
    reindex_broker_addr(name, &group->second, broker_addr_found);
    removal.broker_name = group->second.broker_name;
    removal.cluster_name = group->second.cluster;
    removal.removed_addr_entry = true;
    if (addrs.empty()) {
      remove_broker_name = true;
      broker_addr_table_.erase(group);
    }
    if (!removal.broker_name.empty()) break;
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
    groups_to_clean.insert(removal.broker_name);
  }
  if (!removal.removed_live_entry && !removal.removed_addr_entry) return {};
  return {removal};
}

// Java 5.3.3: setupUnRegisterRequest. The first group of the same cluster listing the address.
std::optional<UnregisterBrokerRequest> RouteInfoManager::setup_un_register_request(
    const BrokerAddrInfo& addr_info) const {
  for (const std::string& name : groups_listing(addr_info.broker_addr)) {
    const BrokerData& broker_data = broker_addr_table_.at(name);
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

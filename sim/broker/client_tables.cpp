// File: the broker's client tables (see client_tables.h).
#include "sim/broker/client_tables.h"

#include <iterator>
#include <utility>

namespace nssim::sim {

namespace client_tables_parts {  // named: a unity batch shares file scope

using ChannelTable = std::map<BrokerChannel, ClientChannelInfo>;
using GroupTable = std::map<std::string, ChannelTable>;

// Both managers' scanNotActiveChannel: an entry goes once `now - lastUpdateTimestamp` exceeds the
// timeout, strictly, and a group left empty goes (5.x; 4.9's ProducerManager keeps the empty
// group, which holds no entry anything counts).
std::vector<RemovedChannel> remove_expired(GroupTable& table, std::int64_t now_ms) {
  std::vector<RemovedChannel> removed;
  for (auto group = table.begin(); group != table.end();) {
    ChannelTable& channels = group->second;
    for (auto entry = channels.begin(); entry != channels.end();) {
      if (now_ms - entry->second.last_update_ms > kChannelExpiredTimeoutMs) {
        removed.push_back({group->first, entry->first, std::move(entry->second)});
        entry = channels.erase(entry);
      } else {
        ++entry;
      }
    }
    group = channels.empty() ? table.erase(group) : std::next(group);
  }
  return removed;
}

// Both managers' doChannelCloseEvent: the channel out of every group; an emptied group goes.
std::vector<RemovedChannel> remove_channel(GroupTable& table, BrokerChannel channel) {
  std::vector<RemovedChannel> removed;
  for (auto group = table.begin(); group != table.end();) {
    if (const auto entry = group->second.find(channel); entry != group->second.end()) {
      removed.push_back({group->first, channel, std::move(entry->second)});
      group->second.erase(entry);
    }
    group = group->second.empty() ? table.erase(group) : std::next(group);
  }
  return removed;
}

std::size_t count_entries(const GroupTable& table) {
  std::size_t count = 0;
  for (const auto& [group, channels] : table) count += channels.size();
  return count;
}

}  // namespace client_tables_parts

void ProducerManager::register_producer(const std::string& group, BrokerChannel channel,
                                        const std::string& client_id, std::int64_t now_ms) {
  ClientChannelInfo& info = group_channel_table_[group][channel];
  if (info.client_id.empty()) info.client_id = client_id;
  info.last_update_ms = now_ms;
}

std::vector<RemovedChannel> ProducerManager::do_channel_close_event(BrokerChannel channel) {
  return client_tables_parts::remove_channel(group_channel_table_, channel);
}

std::vector<RemovedChannel> ProducerManager::scan_not_active_channel(std::int64_t now_ms) {
  return client_tables_parts::remove_expired(group_channel_table_, now_ms);
}

std::size_t ProducerManager::entry_count() const {
  return client_tables_parts::count_entries(group_channel_table_);
}

bool ConsumerManager::register_consumer(const std::string& group, BrokerChannel channel,
                                        const std::string& client_id, std::int64_t now_ms) {
  client_tables_parts::ChannelTable& channels = consumer_table_[group];
  const auto [entry, added] = channels.try_emplace(channel, ClientChannelInfo{client_id, now_ms});
  // updateChannel: a known channel with another clientId is replaced ("[BUG]" log), and the
  // timestamp is refreshed either way.
  entry->second.client_id = client_id;
  entry->second.last_update_ms = now_ms;
  return added;
}

std::vector<RemovedChannel> ConsumerManager::do_channel_close_event(BrokerChannel channel) {
  return client_tables_parts::remove_channel(consumer_table_, channel);
}

std::vector<RemovedChannel> ConsumerManager::scan_not_active_channel(std::int64_t now_ms) {
  return client_tables_parts::remove_expired(consumer_table_, now_ms);
}

std::size_t ConsumerManager::entry_count() const {
  return client_tables_parts::count_entries(consumer_table_);
}

std::vector<std::string> ConsumerManager::all_client_ids(const std::string& group) const {
  std::vector<std::string> ids;
  const auto found = consumer_table_.find(group);
  if (found == consumer_table_.end()) return ids;
  for (const auto& [channel, info] : found->second) ids.push_back(info.client_id);
  return ids;
}

std::vector<BrokerChannel> ConsumerManager::channels_of(const std::string& group) const {
  std::vector<BrokerChannel> channels;
  const auto found = consumer_table_.find(group);
  if (found == consumer_table_.end()) return channels;
  for (const auto& [channel, info] : found->second) channels.push_back(channel);
  return channels;
}

void BrokerClientTables::heart_beat(const HeartbeatData& data, BrokerChannel channel,
                                    std::int64_t now_ms) {
  for (const std::string& group : data.consumer_groups) {
    consumers.register_consumer(group, channel, data.client_id, now_ms);
  }
  for (const std::string& group : data.producer_groups) {
    producers.register_producer(group, channel, data.client_id, now_ms);
  }
}

std::vector<RemovedChannel> BrokerClientTables::on_channel_close(BrokerChannel channel) {
  consumers.do_channel_close_event(channel);
  return producers.do_channel_close_event(channel);
}

std::vector<RemovedChannel> BrokerClientTables::scan_exception_channel(std::int64_t now_ms) {
  std::vector<RemovedChannel> removed = producers.scan_not_active_channel(now_ms);
  consumers.scan_not_active_channel(now_ms);
  return removed;
}

}  // namespace nssim::sim

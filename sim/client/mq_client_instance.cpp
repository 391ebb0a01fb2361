// File: MQClientInstance's tables (routes, broker addresses, publish infos) and lockNamesrv.
#include "sim/client/mq_client_instance.h"

#include <algorithm>
#include <iterator>
#include <string_view>

#include "common/invariant.h"
#include "nameserver_core/ids.h"
#include "sim/nameserver/route_data_changed.h"

namespace nssim::sim {

namespace {

// The names in `a` that are not in `b`, sorted.
std::vector<std::string> names_missing_from(const std::set<std::string>& a,
                                            const std::set<std::string>& b) {
  std::vector<std::string> missing;
  std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(missing));
  return missing;
}

}  // namespace

MQClientInstance::MQClientInstance(core::Profile profile_in, NettyRemotingClient remoting_in)
    : profile(profile_in), remoting(std::move(remoting_in)) {}

MQClientInstance::RouteApplied MQClientInstance::apply_route(const std::string& topic,
                                                             const core::TopicRouteData& route) {
  const auto old = topic_route_table.find(topic);
  bool changed = topic_route_data_changed(old == topic_route_table.end() ? nullptr : &old->second,
                                          route, profile);
  if (!changed) {
    // Java: MQClientInstance#isNeedUpdateTopicRouteInfo /
    // DefaultMQProducerImpl#isPublishTopicNeedUpdate.
    const auto info = topic_publish_info_table.find(topic);
    changed = info == topic_publish_info_table.end() || !info->second->info.ok();
  }
  RouteApplied applied;
  if (!changed) return applied;
  // Names are added or overwritten here; only clean_offline_broker removes them.
  for (const auto& bd : route.broker_datas) {
    broker_addr_table[bd.broker_name] = bd.broker_addrs;
    note_master_address(bd);
  }
  applied.info = publish_entry(topic_route_data_to_topic_publish_info(route));
  const std::set<std::string>& after = applied.info->brokers;
  std::shared_ptr<PublishEntry>& entry = topic_publish_info_table[topic];
  if (entry != nullptr) {
    const std::set<std::string>& had = entry->brokers;
    applied.gained = names_missing_from(after, had);
    applied.lost = names_missing_from(had, after);
  } else {
    applied.gained.assign(after.begin(), after.end());
  }
  retire_info(std::exchange(entry, applied.info));
  topic_route_table[topic] = route;
  clean_pending_ = true;
  return applied;
}

void MQClientInstance::clean_offline_broker() {
  // Both tables change only in apply_route, and a clean leaves nothing the next one would remove.
  if (!clean_pending_) return;
  clean_pending_ = false;
  // Java: isBrokerAddrExistInTopicRouteTable, for every address at once: the cached routes'
  // addresses sorted once (views: the routes outlive this call), each searched.
  std::vector<std::string_view> named;
  for (const auto& [topic, route] : topic_route_table) {
    for (const core::BrokerData& bd : route.broker_datas) {
      for (const auto& [id, addr] : bd.broker_addrs) named.emplace_back(addr);
    }
  }
  std::sort(named.begin(), named.end());
  const auto is_named = [&named](const std::string& addr) {
    return std::binary_search(named.begin(), named.end(), std::string_view(addr));
  };
  for (auto broker = broker_addr_table.begin(); broker != broker_addr_table.end();) {
    std::map<std::int64_t, std::string>& addrs = broker->second;
    std::erase_if(addrs, [&is_named](const auto& entry) { return !is_named(entry.second); });
    if (!addrs.contains(core::kMasterId)) {
      if (const auto id = broker_ids.find(broker->first); id && *id < master_of_broker.size()) {
        master_of_broker[*id].reset();
      }
    }
    broker = addrs.empty() ? broker_addr_table.erase(broker) : std::next(broker);
  }
}

void MQClientInstance::note_master_address(const core::BrokerData& broker) {
  const std::uint32_t id = broker_ids.intern(broker.broker_name);
  if (master_of_broker.size() <= id) master_of_broker.resize(id + 1);
  const auto master = broker.broker_addrs.find(core::kMasterId);
  if (master == broker.broker_addrs.end()) {
    master_of_broker[id].reset();
    return;
  }
  master_of_broker[id] = remoting.address_id(master->second);
}

std::shared_ptr<MQClientInstance::PublishEntry> MQClientInstance::publish_entry(
    TopicPublishInfo info) {
  auto entry = std::make_shared<PublishEntry>(
      PublishEntry{std::move(info), {}, {}, 0, false, next_info_serial_++});
  entry->brokers = entry->info.brokers();
  entry->queue_brokers.reserve(entry->info.message_queue_list().size());
  for (const MessageQueue& mq : entry->info.message_queue_list()) {
    entry->queue_brokers.push_back(broker_ids.intern(mq.broker_name));
  }
  return entry;
}

void MQClientInstance::drop_retired(const PublishEntry* entry) {
  const auto it = std::find_if(retired_infos_.begin(), retired_infos_.end(),
                               [entry](const auto& held) { return held.get() == entry; });
  // retire_info keeps every retired entry a send still holds.
  NSSIM_CHECK(it != retired_infos_.end(), "a retired publish info missing from retired_infos");
  retired_infos_.erase(it);
}

void MQClientInstance::retire_info(std::shared_ptr<PublishEntry> entry) {
  if (entry == nullptr || entry->sends == 0) return;
  entry->retired = true;
  retired_infos_.push_back(std::move(entry));
}

bool MQClientInstance::try_lock_namesrv() {
  if (namesrv_locked_) return false;
  namesrv_locked_ = true;
  return true;
}

void MQClientInstance::wait_for_namesrv(std::uint64_t caller, std::int64_t deadline_ms) {
  namesrv_lock_waiters_.emplace_back(caller, deadline_ms);
}

bool MQClientInstance::drop_namesrv_waiter(std::uint64_t caller, std::int64_t deadline_ms) {
  const auto waiter = std::find(namesrv_lock_waiters_.begin(), namesrv_lock_waiters_.end(),
                                std::make_pair(caller, deadline_ms));
  if (waiter == namesrv_lock_waiters_.end()) return false;
  namesrv_lock_waiters_.erase(waiter);
  return true;
}

std::optional<std::uint64_t> MQClientInstance::unlock_namesrv(std::int64_t t_ms) {
  NSSIM_CHECK(namesrv_locked_, "lockNamesrv released while nobody held it");
  namesrv_locked_ = false;
  for (auto it = namesrv_lock_waiters_.begin(); it != namesrv_lock_waiters_.end(); ++it) {
    if (it->second < t_ms) continue;  // its tryLock has timed out; its expiry runs now
    const std::uint64_t caller = it->first;
    namesrv_lock_waiters_.erase(it);
    namesrv_locked_ = true;
    return caller;
  }
  return std::nullopt;
}

}  // namespace nssim::sim

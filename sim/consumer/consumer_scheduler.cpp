// File: a consumer instance's scheduler thread (MQClientInstance#startScheduledTask): the route
// poll, cleanOfflineBroker with the heartbeats to every broker address (masters and slaves: the
// instance has a consumer) and persistAllConsumerOffset, one run at a time on ClientScheduler's
// rule, each request costing the thread what the network makes it cost.
#include <memory>
#include <set>

#include "sim/consumer/consumer_engine.h"

namespace nssim::sim {

void ConsumerEngine::scheduler_idle(std::size_t i, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  const ScheduledRun run = instance.scheduler.take(t_ms);
  on_instance(i, run.start_ms, [this, i, run](Instance& self) {
    // now_ms_, not run.start_ms: a run that a pause of the process delayed starts at the resume.
    const std::int64_t start = now_ms_;
    switch (run.task) {
      case ScheduledTask::kRoutePoll:
        poll_topics(i, 0, start);
        return;
      case ScheduledTask::kHeartbeat: {
        // Java: cleanOfflineBroker: an address no cached route names leaves the table.
        std::set<std::pair<std::string, std::string>> named;
        for (const auto& [topic, route] : self.routes) {
          for (const core::BrokerData& broker : route.broker_datas) {
            for (const auto& [id, address] : broker.broker_addrs) {
              named.insert({broker.broker_name, address});
            }
          }
        }
        for (auto name = self.broker_addr_table.begin(); name != self.broker_addr_table.end();) {
          for (auto entry = name->second.begin(); entry != name->second.end();) {
            entry = named.count({name->first, entry->second}) ? std::next(entry)
                                                              : name->second.erase(entry);
          }
          name = name->second.empty() ? self.broker_addr_table.erase(name) : std::next(name);
        }
        heartbeat_all(i, start, [this, i](Instance&, std::int64_t end) { scheduler_idle(i, end); });
        return;
      }
      case ScheduledTask::kPersistConsumerOffset:
        persist_all(i, start);
        return;
    }
  });
}

// Java: updateTopicRouteInfoFromNameServer() over the subscribed topics; a call that threw
// (no answer) ends the run.
void ConsumerEngine::poll_topics(std::size_t i, std::size_t topic, std::int64_t t_ms) {
  const std::vector<std::string>& topics = spec_of(*instances_[i]).topics;
  if (topic >= topics.size()) {
    scheduler_idle(i, t_ms);
    return;
  }
  route_query(i, topics[topic], t_ms, [this, i, topic](Instance&, bool answered, std::int64_t end) {
    if (!answered) {
      scheduler_idle(i, end);
      return;
    }
    poll_topics(i, topic + 1, end);
  });
}

// Java: sendHeartbeatToAllBrokerWithLock: lockHeartbeat.tryLock (skipped when another thread
// holds it), then invokeSync HEART_BEAT to every address of brokerAddrTable in turn.
// 5.x also heartbeats a new channel on its ACTIVE event (on_channel_active), under the same lock.
void ConsumerEngine::heartbeat_all(std::size_t i, std::int64_t t_ms,
                                   std::function<void(Instance&, std::int64_t)> then) {
  Instance& instance = *instances_[i];
  if (instance.heartbeat_locked) {
    then(instance, t_ms);
    return;
  }
  instance.heartbeat_locked = true;
  auto run = std::make_shared<HeartbeatRun>();
  for (const auto& [name, ids] : instance.broker_addr_table) {
    for (const auto& [id, address] : ids) run->addresses.push_back(address);
  }
  run->then = std::move(then);
  heartbeat_step(i, std::move(run), 0, t_ms);
}

void ConsumerEngine::heartbeat_step(std::size_t i, std::shared_ptr<const HeartbeatRun> run,
                                    std::size_t k, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  if (k >= run->addresses.size()) {
    instance.heartbeat_locked = false;
    run->then(instance, t_ms);
    return;
  }
  sync_call(
      i, run->addresses[k], t_ms, spec_of(instance).config.mq_client_api_timeout,
      [this, i](BrokerSide& side, std::uint64_t channel, std::int64_t at) {
        register_heartbeat(side, i, channel, at);
      },
      [this, i, run, k](const CallResult& result) {
        heartbeat_step(i, run, k + 1, result.end_ms);
      });
}

void ConsumerEngine::on_channel_active(std::size_t i, const std::string& address,
                                       std::int64_t t_ms) {
  on_instance(i, t_ms, [this, i, address](Instance& self) {
    bool listed = false;
    for (const auto& [name, ids] : self.broker_addr_table) {
      for (const auto& [id, known] : ids) listed = listed || known == address;
    }
    if (!listed || self.heartbeat_locked) return;  // tryLock failed: the running run sends it
    self.heartbeat_locked = true;
    sync_call(
        i, address, now_ms_, spec_of(self).config.mq_client_api_timeout,
        [this, i](BrokerSide& side, std::uint64_t channel, std::int64_t at) {
          register_heartbeat(side, i, channel, at);
        },
        [this, i](const CallResult& result) {
          Instance& instance = *instances_[i];
          instance.heartbeat_locked = false;
          if (result.cause != SendCause::kOk) return;
          instance.rebalance.wakeup(now_ms_);
          rebalance_wait(instance, i);
        });
  });
}

// Java: persistAllConsumerOffset -> RemoteBrokerOffsetStore#persistAll: one oneway
// UPDATE_CONSUMER_OFFSET per queue of processQueueTable to its master. Deviation: a broker name
// missing from brokerAddrTable is skipped, where upstream first asks the NameServer again.
void ConsumerEngine::persist_all(std::size_t i, std::int64_t t_ms) {
  Instance& instance = *instances_[i];
  const std::string group = spec_of(instance).group;
  std::int64_t now = t_ms;
  for (const auto& [key, held] : instance.held) {
    const auto offset = instance.offset_table.find(key);
    if (offset == instance.offset_table.end()) continue;
    const auto name = instance.broker_addr_table.find(key.broker_name);
    if (name == instance.broker_addr_table.end() || !name->second.count(0)) continue;
    const std::int64_t value = offset->second;
    const OffsetKey offset_key{group, key.topic, key.queue_id};
    now = oneway_call(instance, i, name->second.at(0), now,
                      [offset_key, value](BrokerSide& side, std::uint64_t, std::int64_t) {
                        side.offsets.commit_offset(offset_key, value);
                      });
  }
  if (now == t_ms) {
    scheduler_idle(i, now);
    return;
  }
  on_instance(i, now, [this, i](Instance&) { scheduler_idle(i, now_ms_); });
}

}  // namespace nssim::sim

// File: a broker's consumer offsets (ConsumerOffsetManager): what consumers committed, what the
// broker flushed to disk, and what an incarnation that restarts finds.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>

namespace nssim::sim {

// Java: BrokerConfig#flushConsumerOffsetInterval (1000 * 5, both lines), the period of
// BrokerController's scheduled consumerOffsetManager.persist(), first run 1000 * 10 after the
// broker's start (BrokerController#initialize, both lines).
inline constexpr std::int64_t kFlushConsumerOffsetIntervalMs = 5000;
inline constexpr std::int64_t kFirstConsumerOffsetFlushDelayMs = 10000;

// The instant of the k-th (k >= 0) scheduled offset flush of an incarnation started at
// started_ms: scheduleAtFixedRate's first delay, then one period each.
constexpr std::int64_t consumer_offset_flush_at(std::int64_t started_ms, std::int64_t k) {
  return started_ms + kFirstConsumerOffsetFlushDelayMs + k * kFlushConsumerOffsetIntervalMs;
}

// One queue of one consumer group: offsetTable's key (topic@group, then queueId).
struct OffsetKey {
  std::string group;
  std::string topic;
  int queue_id = 0;
  friend bool operator<(const OffsetKey& a, const OffsetKey& b) {
    return std::tie(a.group, a.topic, a.queue_id) < std::tie(b.group, b.topic, b.queue_id);
  }
};

class ConsumerOffsetManager {
 public:
  // Java: ConsumerOffsetManager#commitOffset: a plain overwrite (a smaller offset is taken, with
  // a warning upstream).
  void commit_offset(const OffsetKey& key, std::int64_t offset) { table_[key] = offset; }
  // Java: ConsumerOffsetManager#queryOffset: nullopt is upstream's -1 (the group never committed
  // this queue), which QUERY_CONSUMER_OFFSET answers with QUERY_NOT_FOUND.
  std::optional<std::int64_t> query_offset(const OffsetKey& key) const;
  // Java: ConfigManager#persist, scheduled (consumer_offset_flush_at) and at a clean shutdown
  // (BrokerController#shutdown): the table as it is now is what a restart will read.
  void persist() { flushed_ = table_; }
  // A new incarnation of the broker: ConfigManager#load reads the last persisted table. After a
  // kill or a power-off that loses every commit received since the last flush (at most one
  // flush period); after a clean shutdown, none (it persisted on the way down).
  void restart() { table_ = flushed_; }

 private:
  std::map<OffsetKey, std::int64_t> table_;
  std::map<OffsetKey, std::int64_t> flushed_;
};

}  // namespace nssim::sim

// File: the thread pool a producer's sends run on, Executors#newCachedThreadPool, and what each
// of its threads keeps for itself. Upstream's round-robin indexes (TopicPublishInfo's
// sendWhichQueue, LatencyFaultToleranceImpl's whichItemWorst) are ThreadLocalIndex objects, one
// value per thread, so the queue a send picks depends on the thread that runs it.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "sim/client/publish_info.h"

namespace nssim::sim {

// Java: Executors#newCachedThreadPool's keepAliveTime: a thread idle this long ends.
inline constexpr std::int64_t kCachedThreadPoolKeepAliveMs = 60000;

// A sending thread's own values of the producer's ThreadLocalIndex objects (their
// ThreadLocal<Integer> entries), each drawn on the thread's first use.
struct SendThread {
  // By topic slot: the value of one publish info's sendWhichQueue (info_serial 0: none yet). A
  // thread runs one send at a time and a send keeps the publish info it started with, so a thread
  // only ever moves on to newer publish infos of a topic: the latest is all it can still use.
  struct IndexValue {
    std::uint64_t info_serial = 0;
    ThreadLocalIndex value{0};
  };
  std::vector<IndexValue> send_which_queue;
  // LatencyFaultToleranceImpl's whichItemWorst (4.9's pickOneAtLeast).
  std::optional<ThreadLocalIndex> which_item_worst;
};

// Java: ThreadPoolExecutor(0, Integer.MAX_VALUE, 60 s, SynchronousQueue), as newCachedThreadPool
// makes it: no queue, a new thread whenever none is idle, and any idle thread may end.
class CachedThreadPool {
 public:
  // Java: ThreadPoolExecutor#execute: SynchronousQueue#offer hands the task to the idle thread
  // that began waiting last (its non-fair TransferStack is LIFO), else addWorker starts a thread
  // with no values. A thread idle since s ended at s + keepAliveTime (its poll timed out then):
  // at that instant or later it takes nothing.
  std::uint32_t take(std::int64_t t_ms);
  // The thread's task ended at t_ms: it waits for the next one (ThreadPoolExecutor#getTask's
  // poll(keepAliveTime)).
  // Inline: it runs once per send.
  void give_back(std::uint32_t thread, std::int64_t t_ms) { idle_.emplace_back(thread, t_ms); }
  SendThread& thread(std::uint32_t id) { return threads_[id]; }
  // Threads alive as of the last take: running a task or waiting for one.
  std::size_t live_threads() const { return threads_.size() - free_ids_.size(); }

 private:
  std::vector<SendThread> threads_;      // by id; an ended thread's id goes to a new thread
  std::vector<std::uint32_t> free_ids_;  // ids of ended threads
  // Idle threads and since when, the longest idle first. A vector, not a deque: most producers
  // have one or two threads, and a deque's first block alone is 512 bytes.
  std::vector<std::pair<std::uint32_t, std::int64_t>> idle_;
};

}  // namespace nssim::sim

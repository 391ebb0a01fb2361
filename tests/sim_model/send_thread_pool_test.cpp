// CachedThreadPool: Executors#newCachedThreadPool's hand-off (the thread freed last takes the next
// task, a new one when none is idle) and its 60 s keep-alive, to the millisecond.
#include "sim/client/send_thread_pool.h"

#include <gtest/gtest.h>

namespace nssim::sim {
namespace {

TEST(CachedThreadPool, ABusyPoolStartsANewThread) {
  CachedThreadPool pool;
  const std::uint32_t first = pool.take(0);
  const std::uint32_t second = pool.take(0);
  EXPECT_NE(first, second);
  EXPECT_EQ(pool.live_threads(), 2u);
}

TEST(CachedThreadPool, TheThreadFreedLastTakesTheNextTask) {
  CachedThreadPool pool;
  const std::uint32_t a = pool.take(0);
  const std::uint32_t b = pool.take(0);
  const std::uint32_t c = pool.take(0);
  pool.give_back(a, 10);
  pool.give_back(c, 20);
  pool.give_back(b, 30);
  EXPECT_EQ(pool.take(40), b);
  EXPECT_EQ(pool.take(40), c);
  EXPECT_EQ(pool.take(40), a);
  EXPECT_EQ(pool.live_threads(), 3u);
}

TEST(CachedThreadPool, AThreadKeepsItsValuesBetweenTasks) {
  CachedThreadPool pool;
  const std::uint32_t id = pool.take(0);
  pool.thread(id).which_item_worst = ThreadLocalIndex(7);
  pool.give_back(id, 5);
  ASSERT_EQ(pool.take(6), id);
  ASSERT_TRUE(pool.thread(id).which_item_worst);
  EXPECT_EQ(pool.thread(id).which_item_worst->value(), 7);
}

// Idle since 1000: it still takes a task at 60 999 and has ended at 61 000 (its poll timed out).
TEST(CachedThreadPool, AnIdleThreadEndsAfterExactlyTheKeepAlive) {
  for (const std::int64_t at :
       {1000 + kCachedThreadPoolKeepAliveMs - 1, 1000 + kCachedThreadPoolKeepAliveMs,
        1000 + kCachedThreadPoolKeepAliveMs + 1}) {
    CachedThreadPool pool;
    const std::uint32_t id = pool.take(0);
    pool.thread(id).send_which_queue.push_back({1, ThreadLocalIndex(3)});
    pool.thread(id).which_item_worst = ThreadLocalIndex(7);
    pool.give_back(id, 1000);
    const std::uint32_t next = pool.take(at);
    const SendThread& thread = pool.thread(next);
    if (at < 1000 + kCachedThreadPoolKeepAliveMs) {
      EXPECT_EQ(thread.send_which_queue.size(), 1u) << at;
      EXPECT_TRUE(thread.which_item_worst) << at;
    } else {
      // A new thread (its id may be the old one's): no values of its own yet.
      EXPECT_TRUE(thread.send_which_queue.empty()) << at;
      EXPECT_FALSE(thread.which_item_worst) << at;
    }
    EXPECT_EQ(pool.live_threads(), 1u) << at;
  }
}

// Only threads idle for the whole keep-alive end: the one freed later still takes the task.
TEST(CachedThreadPool, OnlyThreadsIdleForTheWholeKeepAliveEnd) {
  CachedThreadPool pool;
  const std::uint32_t old_idle = pool.take(0);
  const std::uint32_t recent = pool.take(0);
  pool.give_back(old_idle, 0);
  pool.give_back(recent, 30000);
  EXPECT_EQ(pool.take(kCachedThreadPoolKeepAliveMs), recent);
  EXPECT_EQ(pool.live_threads(), 1u);
}

}  // namespace
}  // namespace nssim::sim

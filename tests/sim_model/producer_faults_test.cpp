// ProducerModel against scripted faults: power-off (the whole budget, no retry), kill (fast
// refusal, retry elsewhere), pause, one-way partitions, a FIN racing a request in flight, the
// stale route after TOPIC_NOT_EXIST, and latency fault tolerance per profile (spec 11, 14).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "producer_harness.h"
#include "sim/client/producer_model.h"
#include "sim/record/send_stats.h"

namespace nssim::sim {
namespace {

using testing::Harness;
using testing::kProfiles;
using testing::kTopic;

constexpr std::int64_t kFault = 5050;  // between two sends (every 100 ms from 1000)

TEST(ProducerFaults, PowerOffCostsTheWholeBudgetWithoutRetry) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.net.power_off(h.broker["broker-b"], kFault);
    h.start().advance_to(60000);
    const auto failed = h.failed();
    ASSERT_FALSE(failed.empty());
    for (const auto& s : failed) {
      EXPECT_EQ(s.cause, SendCause::kSendTimeoutBudget);
      ASSERT_EQ(s.attempts.size(), 1u);  // the retry's queue was selected, then the budget broke
      EXPECT_EQ(s.attempts[0].broker_name, "broker-b");
      EXPECT_EQ(s.end_ms - s.start_ms, 3001);
    }
    // The first one is a request over the open channel; later ones are connects to nowhere.
    EXPECT_EQ(failed.front().attempts[0].cause, SendCause::kRequestTimeout);
    EXPECT_EQ(failed.back().attempts[0].cause, SendCause::kConnectTimeout);
  }
}

// sendDefaultImpl selects the next queue before its budget check breaks the loop (spec 14.5): with
// one queue per group the failed send moves the index by two, so the next send lands on the dead
// group again, and every send fails.
TEST(ProducerFaults, SelectionBeforeTheBudgetCheckAdvancesTheIndex) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    for (auto& qd : h.route.queue_datas) qd.write_queue_nums = 1;
    h.spec.rate_per_s = 0.1;  // one send at a time
    h.net.power_off(h.broker["broker-b"], 45000);
    h.start().advance_to(200000);
    std::vector<std::string> first_broker;
    for (const auto& s : h.recorder.sends)
      first_broker.emplace_back(s.attempts.front().broker_name);
    ASSERT_EQ(first_broker.size(), 20u);
    const auto failed = h.failed();
    ASSERT_FALSE(failed.empty());
    // From the first failure on, every send picks broker-b and fails.
    EXPECT_EQ(failed.size(), h.started(failed.front().start_ms, 200000));
    EXPECT_LE(failed.front().start_ms, 61000);
  }
}

TEST(ProducerFaults, SendsSharingTheDeadChannelOrConnectRetryElsewhere) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.net.power_off(h.broker["broker-b"], kFault);
    h.start().advance_to(60000);
    int rescued = 0;
    for (const auto& s : h.recorder.sends) {
      if (s.cause != SendCause::kOk || s.attempts.size() < 2) continue;
      ++rescued;
      EXPECT_EQ(s.attempts[0].broker_name, "broker-b");
      // failFast when the first timeout closes the channel, or the shared connect's failure.
      EXPECT_TRUE(s.attempts[0].cause == SendCause::kConnectionReset ||
                  s.attempts[0].cause == SendCause::kConnectTimeout);
      EXPECT_LT(s.attempts[0].end_ms - s.attempts[0].start_ms, 3001);
      EXPECT_EQ(s.attempts[1].broker_name, "broker-a");
    }
    EXPECT_GT(rescued, 0);
  }
}

TEST(ProducerFaults, FailureFractionIsBelowTheDeadGroupsQueueShare) {
  Harness h(core::Profile::kV4_9);
  h.net.power_off(h.broker["broker-b"], kFault);
  h.start().advance_to(130000);
  const double total = static_cast<double>(h.started(kFault, 120000));
  const double failed = static_cast<double>(h.failed(kFault, 120000).size());
  EXPECT_GT(failed, 0.0);
  EXPECT_LT(failed / total, 0.5);
}

TEST(ProducerFaults, ClosingTheChannelOnTimeoutSavesTheSendsPendingOnIt) {
  auto failures = [](bool close) {
    Harness h(core::Profile::kV4_9);
    h.spec.config.client_close_socket_if_timeout = close;
    h.net.power_off(h.broker["broker-b"], kFault);
    h.start().advance_to(60000);
    return h.failed().size();
  };
  // Without the close every send that picks broker-b waits on the half-open channel.
  EXPECT_GT(failures(false), 2 * failures(true));
}

// At high rates the sends failed fast together retry together; those with less budget left than
// a round trip time out on the healthy broker and (clientCloseSocketIfTimeout; 5.x's guard passes
// since left > timeout / 4) close its channel, failing every request pending on it.
TEST(ProducerFaults, RetryWithAlmostNoBudgetClosesTheHealthyChannel) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 1000.0;
    h.net.power_off(h.broker["broker-b"], kFault);
    h.start().advance_to(15000);
    int healthy_channel_lost = 0;
    for (const auto& s : h.failed()) {
      for (const auto& a : s.attempts) {
        healthy_channel_lost +=
            a.broker_name == "broker-a" && a.cause == SendCause::kConnectionReset;
      }
    }
    EXPECT_GT(healthy_channel_lost, 100);
  }
}

TEST(ProducerFaults, KillIsRefusedFastAndRetriedOnTheOtherGroup) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.net.stop_process(h.broker["broker-b"], DownKind::kCrash, kFault);
    h.start().advance_to(60000);
    EXPECT_TRUE(h.failed().empty());
    int refused = 0;
    for (const auto& s : h.recorder.sends) {
      EXPECT_LE(s.end_ms - s.start_ms, 5);
      if (s.attempts.size() == 2) {
        ++refused;
        EXPECT_EQ(s.attempts[0].broker_name, "broker-b");
        EXPECT_EQ(s.attempts[0].cause, SendCause::kConnectRefused);
        EXPECT_EQ(s.attempts[0].end_ms - s.attempts[0].start_ms, 2);
        EXPECT_EQ(s.attempts[1].broker_name, "broker-a");
      }
    }
    EXPECT_GT(refused, 20);
  }
}

TEST(ProducerFaults, PausedBrokerThatResumesInTimeAnswersLate) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.net.pause(h.broker["broker-b"], kFault);
    h.net.resume(h.broker["broker-b"], kFault + 1000);
    h.start().advance_to(20000);
    EXPECT_TRUE(h.failed().empty());
    std::int64_t longest = 0;
    for (const auto& s : h.recorder.sends) longest = std::max(longest, s.end_ms - s.start_ms);
    EXPECT_GT(longest, 500);  // the first send on broker-b after the pause waits for the resume
    EXPECT_LE(longest, 1001);
  }
}

TEST(ProducerFaults, PausedBrokerBeyondTheTimeoutFailsUntilItResumes) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.net.pause(h.broker["broker-b"], kFault);
    h.net.resume(h.broker["broker-b"], 20050);
    h.start().advance_to(60000);
    const auto failed = h.failed();
    ASSERT_FALSE(failed.empty());
    for (const auto& s : failed) {
      EXPECT_EQ(s.cause, SendCause::kSendTimeoutBudget);
      EXPECT_EQ(s.attempts[0].cause, SendCause::kRequestTimeout);  // its kernel still accepts
      EXPECT_LT(s.start_ms, 20050);
    }
  }
}

// The round-robin index is the sending thread's (ThreadLocalIndex). When the first timeout closes
// the paused broker's channel, each send failed fast with it retries from its own thread's index,
// which stood on the broker-b queue that send picked: every retry skips the rest of broker-b and
// lands on broker-a's first queue. An index shared by the sends would spread the retries over
// broker-a's queues.
TEST(ProducerFaults, EachSendFailedFastRetriesFromItsOwnThreadsIndex) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.net.pause(h.broker["broker-b"], kFault);
    h.start().advance_to(60000);
    int retried = 0;
    for (const auto& s : h.recorder.sends) {
      if (s.attempts.size() < 2 || s.attempts[0].cause != SendCause::kConnectionReset) continue;
      ++retried;
      EXPECT_EQ(s.attempts[1].broker_name, "broker-a");
      EXPECT_EQ(s.attempts[1].queue_id, 0);
    }
    EXPECT_GT(retried, 20);
  }
}

TEST(ProducerFaults, PausedThenKilledBrokerResetsTheRequestsLeftUnread) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.net.pause(h.broker["broker-b"], kFault);
    h.net.stop_process(h.broker["broker-b"], DownKind::kCrash, kFault + 500);
    h.start().advance_to(30000);
    EXPECT_TRUE(h.failed().empty());
    int reset = 0;
    for (const auto& s : h.recorder.sends) {
      if (s.attempts[0].cause != SendCause::kConnectionReset) continue;
      ++reset;
      EXPECT_EQ(s.attempts[0].end_ms, kFault + 501);
      EXPECT_EQ(s.attempts[1].broker_name, "broker-a");
    }
    EXPECT_GT(reset, 0);
  }
}

TEST(ProducerFaults, OneWayPartitionLooksLikeSilenceInEitherDirection) {
  for (bool towards_broker : {true, false}) {
    Harness h(core::Profile::kV5);
    const NodeId b = h.broker["broker-b"];
    const NodeId from = towards_broker ? h.producer : b;
    const NodeId to = towards_broker ? b : h.producer;
    h.net.cut(from, to, kFault);
    h.net.heal(from, to, 20050);
    h.start().advance_to(60000);
    const auto failed = h.failed();
    ASSERT_FALSE(failed.empty());
    for (const auto& s : failed) {
      EXPECT_EQ(s.cause, SendCause::kSendTimeoutBudget);
      EXPECT_LT(s.start_ms, 20050);
    }
  }
}

// Responses lost (broker -> producer cut): the broker still stores every request that reaches it.
// A send whose first attempt timed out, or failed fast when that timeout closed the channel, was
// stored on broker-b; the ones that then succeed on broker-a are stored twice, and the ones that
// ran out of budget failed but are stored. Connects during the cut never complete, so nothing
// after the close is stored there. With the cut the other way no request reaches broker-b.
TEST(ProducerFaults, RequestsThatReachTheBrokerAreStoredWhateverTheClientLearns) {
  for (auto profile : kProfiles) {
    for (bool responses_lost : {true, false}) {
      Harness h(profile);
      const NodeId b = h.broker["broker-b"];
      if (responses_lost) {
        h.net.cut(b, h.producer, kFault);
        h.net.heal(b, h.producer, 20050);
      } else {
        h.net.cut(h.producer, b, kFault);
        h.net.heal(h.producer, b, 20050);
      }
      h.start().advance_to(60000);
      SendCounts counts;
      std::int64_t on_b_in_cut = 0;
      std::int64_t stored_on_b_in_cut = 0;
      std::int64_t first_on_b = INT64_MAX;
      std::int64_t last_stored_on_b = INT64_MIN;
      for (const auto& s : h.recorder.sends) {
        counts.add(s, stored_copies(s));
        for (const auto& a : s.attempts) {
          if (a.cause == SendCause::kOk) {
            EXPECT_TRUE(a.stored);
          }
          if (a.broker_name != "broker-b" || a.start_ms < kFault || a.start_ms >= 20050) continue;
          ++on_b_in_cut;
          first_on_b = std::min(first_on_b, a.start_ms);
          if (a.stored) {
            ++stored_on_b_in_cut;
            last_stored_on_b = std::max(last_stored_on_b, a.start_ms);
          }
          if (a.cause == SendCause::kConnectTimeout) {
            EXPECT_FALSE(a.stored);
          }
        }
      }
      ASSERT_GT(on_b_in_cut, 0);
      if (!responses_lost) {
        EXPECT_EQ(stored_on_b_in_cut, 0);
        EXPECT_EQ(counts.duplicates_stored, 0);
        EXPECT_EQ(counts.failed_but_stored, 0);
        continue;
      }
      // Stored: the requests over the open channel up to its first timeout (sendMsgTimeout after
      // the first send on broker-b in the cut), at most one per send started meanwhile (10/s).
      EXPECT_GE(stored_on_b_in_cut, 1);
      EXPECT_LE(stored_on_b_in_cut, 31);
      EXPECT_LE(last_stored_on_b, first_on_b + 3000);
      EXPECT_GE(counts.failed_but_stored, 1);  // the first send: its timeout used the budget
      EXPECT_GE(counts.duplicates_stored, 1);  // failed fast, then stored on broker-a
      EXPECT_EQ(counts.duplicates_stored + counts.failed_but_stored, stored_on_b_in_cut);
    }
  }
}

// A FIN that overtakes a request in flight (the broker is 200 ms away): 5.x's channelInactive
// fails it at once and it is retried; 4.9 has no failFast on a FIN and waits for its timeout.
TEST(ProducerFaults, RequestInFlightAtACrashFailsWithTheFinOnlyIn5x) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.rate_per_s = 100.0;
    h.net.set_latency(h.broker["broker-b"], 200.0, 0);
    h.net.stop_process(h.broker["broker-b"], DownKind::kCrash, kFault);
    h.start().advance_to(30000);
    const auto failed = h.failed();
    if (profile == core::Profile::kV5) {
      EXPECT_TRUE(failed.empty());
    } else {
      ASSERT_EQ(failed.size(), 1u);  // its close fails the others fast, and they are retried
      EXPECT_EQ(failed[0].cause, SendCause::kSendTimeoutBudget);
      EXPECT_EQ(failed[0].attempts[0].cause, SendCause::kRequestTimeout);
    }
  }
}

TEST(ProducerFaults, StaleRouteIsKeptAfterTopicNotExist) {
  Harness h(core::Profile::kV4_9, {"broker-b"});
  h.net.stop_process(h.broker["broker-b"], DownKind::kCrash, kFault);
  h.start();
  h.poll(31000, 121000, std::nullopt);
  h.model->advance_to(60000);
  const TopicPublishInfo* info = h.model->publish_info(kTopic);
  h.model->advance_to(120000);
  EXPECT_EQ(h.model->publish_info(kTopic), info);
  EXPECT_EQ(h.recorder.publish.size(), 1u);
  const auto failed = h.failed(kFault, 119000);
  EXPECT_EQ(failed.size(), h.started(kFault, 119000));
  for (const auto& s : failed) {
    EXPECT_EQ(s.cause, SendCause::kConnectRefused);
    ASSERT_EQ(s.attempts.size(), 3u);
    for (const auto& a : s.attempts) EXPECT_EQ(a.broker_name, "broker-b");
  }
}

TEST(ProducerFaults, V49LatencyFaultToleranceStopsFailuresFor600Seconds) {
  Harness h(core::Profile::kV4_9);
  h.spec.config.send_latency_fault_enable = true;
  h.net.power_off(h.broker["broker-b"], kFault);
  h.start().advance_to(700000);
  const auto failed = h.failed();
  ASSERT_EQ(failed.size(), 2u);
  EXPECT_LT(failed[0].start_ms, kFault + 1000);
  EXPECT_GE(failed[1].start_ms, failed[0].end_ms + 600000);
}

TEST(ProducerFaults, V5LatencyFaultToleranceFailsAboutEveryThirteenSeconds) {
  Harness h(core::Profile::kV5);
  h.spec.config.send_latency_fault_enable = true;
  h.net.power_off(h.broker["broker-b"], kFault);
  h.start().advance_to(125000);
  const auto failed = h.failed();
  ASSERT_GE(failed.size(), 8u);
  for (std::size_t i = 1; i < failed.size(); ++i) {
    // Isolated for 10 s from the failure, which came 3 s after its start.
    const std::int64_t gap = failed[i].start_ms - failed[i - 1].start_ms;
    EXPECT_GE(gap, 13001);
    EXPECT_LE(gap, 14000);
  }
}

// 5.x's sendMsgMaxTimeoutPerRequest caps the request wait, not the connect: the send on the
// half-open channel is retried in time; later connects to the dead host still use the budget.
TEST(ProducerFaults, V5MaxTimeoutPerRequestCapsRequestsButNotConnects) {
  for (auto profile : kProfiles) {
    Harness h(profile);
    h.spec.config.send_msg_max_timeout_per_request = 1000;
    h.net.power_off(h.broker["broker-b"], kFault);
    h.start().advance_to(60000);
    int capped = 0;
    for (const auto& s : h.recorder.sends) {
      if (s.attempts[0].cause != SendCause::kRequestTimeout) continue;
      capped += s.cause == SendCause::kOk && s.attempts[0].end_ms - s.attempts[0].start_ms == 1001;
    }
    EXPECT_EQ(capped, profile == core::Profile::kV5 ? 1 : 0);
    for (const auto& s : h.failed()) {
      EXPECT_EQ(s.cause, SendCause::kSendTimeoutBudget);
      if (profile == core::Profile::kV5) {
        EXPECT_EQ(s.attempts[0].cause, SendCause::kConnectTimeout);
      }
    }
  }
}

}  // namespace
}  // namespace nssim::sim

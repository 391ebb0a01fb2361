// Several producers in one client instance (a set's "instance_of"; upstream: DefaultMQProducers
// of one JVM with one instanceName share one MQClientInstance): one scheduler thread whose route
// poll asks for every producer's topics and whose heartbeat run heartbeats each master once,
// while each producer keeps its own sends, arrivals and observer. Latencies are 0.5 ms per link
// (a connect 2 ms, a request and its answer 3 ms).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "producer_harness.h"

namespace nssim::sim {
namespace {

using testing::Harness;
using testing::kProfiles;
using testing::kTopic;
using testing::Recorder;

constexpr const char* kAudit = "Audit";

// Harness's producer (kTopic, 10/s) with a second one sending to kAudit at 4/s in its instance;
// the NameServer routes both topics on both groups from 0.
struct SharedInstance {
  explicit SharedInstance(core::Profile profile)
      : h(profile, {"broker-a", "broker-b"}, 1, {kAudit}) {
    audit.topics = {kAudit};
    audit.rate_per_s = 4.0;
    h.answers(0, h.route, 0);
    h.answers(0, h.route, 0, kAudit);
  }
  ProducerModel& start(std::int64_t start_ms = 1000) {
    h.model = std::make_unique<ProducerModel>(
        std::vector<InstanceProducer>{{h.spec, h.recorder}, {audit, audit_recorder}}, h.profile,
        h.producer, "producer-0", h.net, h.book, RouteQuerySources{h.routes, *h.client, &h.log},
        Rng::derive(7, "producer/producer-0"), start_ms);
    h.model->start_scheduled_task();
    return *h.model;
  }
  Harness h;
  ProducerSpec audit;
  Recorder audit_recorder;
};

std::size_t runs_of(const Recorder& r, ScheduledTask task) {
  std::size_t n = 0;
  for (const auto& run : r.runs) n += run.task == task;
  return n;
}

// Route updates for `topic` made by the scheduled poll, whose queries start on its runs.
std::vector<std::int64_t> polled(const Recorder& r, const std::string& topic) {
  std::vector<std::int64_t> asked;
  for (const auto& update : r.route_updates) {
    if (update.topic != topic) continue;
    for (const auto& run : r.runs) {
      if (run.task == ScheduledTask::kRoutePoll && update.query.asked_ms >= run.start_ms &&
          update.query.asked_ms < run.end_ms) {
        asked.push_back(update.query.asked_ms);
      }
    }
  }
  return asked;
}

// The instance starts at 1000: polls due 1010, 31010, 61010, 91010; heartbeat runs 2000, 32000,
// 62000, 92000. Each poll asks for kTopic, then kAudit, 3 ms each (the NameServer's channel
// opens with the first send's query, before the poll); each heartbeat run asks each master
// once, whichever producer sends to it: 8 heartbeats by 100 s, not 16. The instance's reports go to
// the first producer's observer only.
TEST(ClientInstance, OneSchedulerPollsEveryProducersTopicsAndHeartbeatsOnce) {
  for (auto profile : kProfiles) {
    SharedInstance s(profile);
    s.start().advance_to(100000);
    const Recorder& first = s.h.recorder;
    EXPECT_EQ(runs_of(first, ScheduledTask::kRoutePoll), 4u);
    EXPECT_EQ(runs_of(first, ScheduledTask::kHeartbeat), 4u);
    EXPECT_EQ(polled(first, kTopic), (std::vector<std::int64_t>{1010, 31010, 61010, 91010}));
    EXPECT_EQ(polled(first, kAudit), (std::vector<std::int64_t>{1013, 31013, 61013, 91013}));
    EXPECT_EQ(first.heartbeats.size(), 8u);
    EXPECT_TRUE(s.audit_recorder.runs.empty());
    EXPECT_TRUE(s.audit_recorder.heartbeats.empty());
    EXPECT_TRUE(s.audit_recorder.route_updates.empty());
  }
}

// Each producer's sends go to its own observer, with its own topics, at its own rate: from the
// first send at 1000 to 100000, 10/s and 4/s (fixed arrivals: 990 and 396), all answered.
TEST(ClientInstance, EachProducerKeepsItsOwnSends) {
  for (auto profile : kProfiles) {
    SharedInstance s(profile);
    s.start().advance_to(100000);
    s.h.model->advance_to(110000);  // the sends that started before 100000 have ended
    std::size_t main_sends = 0;
    for (const auto& send : s.h.recorder.sends) {
      EXPECT_EQ(send.topic, kTopic);
      EXPECT_EQ(send.cause, SendCause::kOk);
      main_sends += send.start_ms < 100000;
    }
    std::size_t audit_sends = 0;
    for (const auto& send : s.audit_recorder.sends) {
      EXPECT_EQ(send.topic, kAudit);
      EXPECT_EQ(send.cause, SendCause::kOk);
      audit_sends += send.start_ms < 100000;
    }
    EXPECT_EQ(main_sends, 990u);
    EXPECT_EQ(audit_sends, 396u);
  }
}

// The first producer draws its streams as a lone producer does: with Poisson arrivals its sends
// start at the same instants whether or not a second producer shares its instance.
TEST(ClientInstance, TheFirstProducersArrivalsAreALoneProducers) {
  for (auto profile : kProfiles) {
    Harness lone(profile, {"broker-a", "broker-b"}, 1, {kAudit});
    lone.spec.arrival = Arrival::kPoisson;
    lone.answers(0, lone.route, 0);
    lone.start(1000, /*with_route=*/false).start_scheduled_task();
    lone.model->advance_to(60000);
    SharedInstance s(profile);
    s.h.spec.arrival = Arrival::kPoisson;
    s.audit.arrival = Arrival::kPoisson;
    s.start().advance_to(60000);
    std::vector<std::int64_t> lone_starts;
    for (const auto& send : lone.recorder.sends) lone_starts.push_back(send.start_ms);
    std::vector<std::int64_t> shared_starts;
    for (const auto& send : s.h.recorder.sends) shared_starts.push_back(send.start_ms);
    ASSERT_GT(lone_starts.size(), 400u);
    EXPECT_EQ(shared_starts, lone_starts);
  }
}

}  // namespace
}  // namespace nssim::sim

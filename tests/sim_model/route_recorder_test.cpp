// RouteRecorder over many groups and random requests: what it records (by groups where it can,
// as changes replayed onto checkpoints) must be, at every instant, what the request processor
// answers for every topic. 300 groups make the default topic's route larger than the routes that
// are rebuilt at every change, so reads replay changes.
#include "sim/nameserver/route_recorder.h"

#include <gtest/gtest.h>

#include "processor/processor_test_support.h"
#include "sim/nameserver/route_data_changed.h"
#include "sim/nameserver/route_history.h"
#include "sim/scenario/rng.h"

namespace nssim::sim {
namespace {

using core::processor_testing::Registration;
using core::processor_testing::topic;

std::optional<core::TopicRouteData> processor_answer(core::NameServer& server,
                                                     const std::string& name, core::Profile profile,
                                                     std::int64_t t) {
  core::RemotingRequest ask;
  ask.code = core::request_code::kGetRouteinfoByTopic;
  ask.version = core::default_request_version(profile);
  ask.ext_fields = {{"topic", name}};
  const auto response = server.process(ask, core::ConnectionId{0}, t);
  if (response->code != core::response_code::kSuccess) return std::nullopt;
  return *std::get<std::shared_ptr<const core::TopicRouteData>>(response->body);
}

// What the producer reads of a route, in full: BrokerData beyond name and addresses too.
void expect_same_route(const core::TopicRouteData* recorded,
                       const std::optional<core::TopicRouteData>& expected, const std::string& at) {
  ASSERT_EQ(recorded != nullptr, expected.has_value()) << at;
  if (recorded == nullptr) return;
  EXPECT_FALSE(topic_route_data_changed(recorded, *expected, core::Profile::kV5)) << at;
  ASSERT_EQ(recorded->broker_datas.size(), expected->broker_datas.size()) << at;
  for (std::size_t i = 0; i < recorded->broker_datas.size(); ++i) {
    EXPECT_EQ(recorded->broker_datas[i].cluster, expected->broker_datas[i].cluster) << at;
    EXPECT_EQ(recorded->broker_datas[i].zone_name, expected->broker_datas[i].zone_name) << at;
    EXPECT_EQ(recorded->broker_datas[i].enable_acting_master,
              expected->broker_datas[i].enable_acting_master)
        << at;
  }
}

struct Setting {
  const char* name;
  core::Profile profile;
  core::NamesrvConfig config;
};

void expect_recorded_answers_are_the_processors(const Setting& setting, std::uint64_t seed) {
  const core::Profile profile = setting.profile;
  const std::vector<std::string> topics = {"TBW102", "TopicA", "TopicB"};
  RouteHistory history(topics);
  core::NameServer server(profile, setting.config, 0);
  RouteRecorder recorder(history, 1, profile);
  recorder.record(server, 0);
  Rng rng = Rng::derive(seed, "route_recorder_test");
  const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng.uniform_u64(n)); };
  constexpr std::size_t kGroups = 300;
  std::map<std::pair<std::size_t, int>, std::int64_t> counters;
  // answers[topic][t] as the processor gave them, the last of an instant standing, to read
  // again at the end out of order (so from checkpoints and replays alike).
  std::vector<std::map<std::int64_t, std::optional<core::TopicRouteData>>> answers(topics.size());
  std::int64_t t = 0;
  const auto check = [&](const char* what) {
    recorder.record(server, t);
    for (std::size_t i = 0; i < topics.size(); ++i) {
      auto expected = processor_answer(server, topics[i], profile, t);
      expect_same_route(history.answer_at(1, topics[i], t), expected,
                        std::string(what) + " " + topics[i] + " at " + std::to_string(t));
      answers[i][t] = std::move(expected);
    }
  };
  for (int step = 0; step < 1000; ++step) {
    // Instants repeat too; now and then a silence long enough for the scan to expire brokers.
    t += pick(200) == 0 ? 130000 : pick(3) == 0 ? 0 : 1 + static_cast<std::int64_t>(pick(200));
    const std::size_t g = pick(kGroups);
    const int id = pick(4) == 0 ? 1 : 0;
    const core::ConnectionId channel{1 + g * 2 + static_cast<std::size_t>(id)};
    const std::size_t kind = pick(20);
    if (kind < 14) {
      Registration r;
      r.name = "broker-" + std::to_string(g);
      r.id = id;
      r.addr = "10.0." + std::to_string(g) + "." + std::to_string(id) + ":10911";
      r.version = profile == core::Profile::kV4_9 ? core::kVersionV4_9_8 : core::kVersionV5_3_3;
      r.topics = {topic("TBW102", 8, pick(5) == 0 ? 4 : 7)};
      if (pick(2) == 0) r.topics.push_back(topic("TopicA", 1 + static_cast<int>(pick(8))));
      if (g % 7 == 0) r.topics.push_back(topic("TopicB"));
      r.data_version.counter = counters[{g, id}] += static_cast<std::int64_t>(pick(2));
      const core::RemotingRequest request = r.request();
      recorder.touch_request(request, server);
      server.process(request, channel, t);
    } else if (kind < 17) {
      recorder.touch_removals(
          server.channel_destroyed(channel, "", core::RemovalPath::kChannelClose));
    } else if (kind < 19) {
      core::RemotingRequest admin;
      admin.code = pick(2) == 0 ? core::request_code::kWipeWritePermOfBroker
                                : core::request_code::kAddWritePermOfBroker;
      admin.ext_fields = {{"brokerName", "broker-" + std::to_string(g)}};
      recorder.touch_request(admin, server);
      server.process(admin, core::ConnectionId{999}, t);
    } else {
      core::RemotingRequest put;  // an orderTopicConf, which order_message_enable shows
      put.code = core::request_code::kPutKvConfig;
      put.ext_fields = {{"namespace", "ORDER_TOPIC_CONFIG"},
                        {"key", "TopicA"},
                        {"value", "broker-" + std::to_string(g) + ":4"}};
      recorder.touch_request(put, server);
      server.process(put, core::ConnectionId{999}, t);
    }
    recorder.touch_removals(server.take_request_removals());
    recorder.touch_removals(server.process_pending_unregistrations());
    check("request");
    recorder.touch_removals(server.scan(t).removals);
    recorder.touch_removals(server.process_pending_unregistrations());
    check("scan");
  }
  // Every answer again, in time order and then backwards.
  for (std::size_t i = 0; i < topics.size(); ++i) {
    for (const auto& [at, expected] : answers[i]) {
      expect_same_route(history.answer_at(1, topics[i], at), expected,
                        "again " + topics[i] + " at " + std::to_string(at));
    }
    for (auto it = answers[i].rbegin(); it != answers[i].rend(); ++it) {
      expect_same_route(history.answer_at(1, topics[i], it->first), it->second,
                        "backwards " + topics[i] + " at " + std::to_string(it->first));
    }
  }
  EXPECT_GT(history.size(), 100u) << "the steps must change the routes";
}

TEST(RouteRecorder, RecordsWhatTheProcessorAnswersOverManyGroups) {
  core::NamesrvConfig ordered;
  ordered.order_message_enable = true;
  core::NamesrvConfig acting;
  acting.support_acting_master = true;
  core::NamesrvConfig waiting;
  waiting.need_wait_for_service = true;
  waiting.wait_seconds_for_service = 150;  // answers change kind in the middle of the run
  core::NamesrvConfig deleting;
  deleting.delete_topic_with_broker_registration = true;
  const std::vector<Setting> settings = {{"4.9", core::Profile::kV4_9, {}},
                                         {"5.x", core::Profile::kV5, {}},
                                         {"4.9 ordered", core::Profile::kV4_9, ordered},
                                         {"5.x acting", core::Profile::kV5, acting},
                                         {"5.x waiting", core::Profile::kV5, waiting},
                                         {"5.x deleting", core::Profile::kV5, deleting}};
  for (const Setting& setting : settings) {
    for (std::uint64_t seed = 1; seed <= 2; ++seed) {
      SCOPED_TRACE(std::string(setting.name) + " seed " + std::to_string(seed));
      expect_recorded_answers_are_the_processors(setting, seed);
      if (HasFatalFailure()) return;
    }
  }
}

}  // namespace
}  // namespace nssim::sim

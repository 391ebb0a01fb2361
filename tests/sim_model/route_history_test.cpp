// What the producer model reads for its route queries: RouteHistory (each NameServer's answers
// over time) and RouteRecorder (which keeps it current by asking only for the touched topics: it
// must record exactly what asking for every topic records).
#include "sim/nameserver/route_history.h"

#include <gtest/gtest.h>

#include "processor/processor_test_support.h"
#include "route_fixtures.h"
#include "sim/nameserver/route_data_changed.h"
#include "sim/nameserver/route_recorder.h"

namespace nssim::sim {
namespace {

using core::processor_testing::Registration;
using core::processor_testing::topic;
using testing::GroupSpec;
using testing::route_of;

TEST(RouteHistory, AnswerInForceIsTheLastRecordedAtOrBeforeTheInstant) {
  RouteHistory history({"TopicB", "TopicA", "TopicA"});
  EXPECT_EQ(history.topics(), (std::vector<std::string>{"TopicA", "TopicB"}));
  const auto a = route_of({GroupSpec{"broker-a"}});
  const auto ab = route_of({GroupSpec{"broker-a"}, GroupSpec{"broker-b"}});
  const std::size_t topic_a = *history.topic_index("TopicA");
  history.record(7, topic_a, std::nullopt, 100);
  history.record(7, topic_a, a, 200);
  history.record(7, topic_a, a, 250);  // unchanged: not kept
  history.record(7, topic_a, ab, 300);
  history.record(7, topic_a, a, 300);  // the same instant: the last answer of it stands
  EXPECT_EQ(history.size(), 2u);       // not-exist from 100, a from 200 (300 repeats it)
  EXPECT_EQ(history.answer_at(7, "TopicA", 199), nullptr);
  ASSERT_NE(history.answer_at(7, "TopicA", 200), nullptr);
  EXPECT_EQ(history.answer_at(7, "TopicA", 300)->queue_datas.size(), 1u);
  EXPECT_EQ(history.answer_at(7, "TopicB", 300), nullptr);  // never recorded
  EXPECT_EQ(history.answer_at(8, "TopicA", 300), nullptr);  // another NameServer
  EXPECT_EQ(history.answer_at(7, "TopicC", 300), nullptr);  // not recorded at all
  EXPECT_FALSE(history.topic_index("TopicC"));
}

// A recorder fed the requests, against the request processor's answers for every topic each
// time: the histories agree at every instant, through registrations, a changed topic, a slave,
// removals and admin.
TEST(RouteRecorder, TouchedTopicsRecordWhatEveryTopicWould) {
  struct Case {
    core::Profile profile;
    bool delete_topic_with_broker_registration;
  };
  for (const Case c : {Case{core::Profile::kV4_9, false}, Case{core::Profile::kV5, false},
                       Case{core::Profile::kV5, true}}) {
    const core::Profile profile = c.profile;
    SCOPED_TRACE(c.delete_topic_with_broker_registration ? "deleteTopicWithBrokerRegistration"
                                                         : core::profile_name(profile));
    core::NamesrvConfig config;
    config.delete_topic_with_broker_registration = c.delete_topic_with_broker_registration;
    const std::vector<std::string> topics = {"TopicA", "TopicB", "TopicC", "TBW102"};
    RouteHistory scoped_history(topics);
    RouteHistory full_history(topics);
    core::NameServer scoped_server(profile, config, 0);
    core::NameServer full_server(profile, config, 0);
    RouteRecorder scoped(scoped_history, 1, profile);
    // The full side records every topic's answer as the request processor gives it.
    const auto record_full = [&](std::int64_t at) {
      for (std::size_t i = 0; i < full_history.topics().size(); ++i) {
        core::RemotingRequest ask;
        ask.code = core::request_code::kGetRouteinfoByTopic;
        ask.version = core::default_request_version(profile);
        ask.ext_fields = {{"topic", full_history.topics()[i]}};
        const auto response = full_server.process(ask, core::ConnectionId{0}, at);
        std::optional<core::TopicRouteData> answer;
        if (response->code == core::response_code::kSuccess) {
          answer = *std::get<std::shared_ptr<const core::TopicRouteData>>(response->body);
        }
        full_history.record(1, i, std::move(answer), at);
      }
    };
    std::int64_t t = 0;
    const auto step = [&](const core::RemotingRequest& request, core::ConnectionId channel) {
      t += 1000;
      scoped.touch_request(request, scoped_server);
      scoped_server.process(request, channel, t);
      full_server.process(request, channel, t);
      scoped.touch_removals(scoped_server.take_request_removals());
      full_server.take_request_removals();
      scoped.touch_removals(scoped_server.process_pending_unregistrations());
      full_server.process_pending_unregistrations();
      scoped.record(scoped_server, t);
      record_full(t);
    };
    Registration a;
    a.name = "broker-a";
    a.addr = "10.0.0.1:10911";
    a.topics = {topic("TopicA"), topic("TopicB"), topic("TBW102", 8, 7)};
    Registration b = a;
    b.name = "broker-b";
    b.addr = "10.0.0.2:10911";
    b.topics = {topic("TopicB"), topic("TopicC")};
    Registration a_slave = a;
    a_slave.addr = "10.0.0.3:10911";
    a_slave.id = 1;
    step(a.request(), core::ConnectionId{1});
    step(b.request(), core::ConnectionId{2});
    step(a_slave.request(), core::ConnectionId{3});
    step(a.request(), core::ConnectionId{1});  // the periodic registration: nothing changes
    a.topics[1] = topic("TopicB", 2);          // updateTopic: a new DataVersion
    a.data_version.counter += 1;
    step(a.request(), core::ConnectionId{1});
    b.topics.pop_back();  // TopicC is gone from broker-b's table
    b.data_version.counter += 1;
    step(b.request(), core::ConnectionId{2});
    core::RemotingRequest unregister;
    unregister.code = core::request_code::kUnregisterBroker;
    unregister.ext_fields = {{"clusterName", b.cluster},
                             {"brokerAddr", b.addr},
                             {"brokerName", b.name},
                             {"brokerId", "0"}};
    step(unregister, core::ConnectionId{2});
    t += 1000;  // the master's channel closes
    scoped.touch_removals(scoped_server.channel_destroyed(core::ConnectionId{1}, "",
                                                          core::RemovalPath::kChannelClose));
    full_server.channel_destroyed(core::ConnectionId{1}, "", core::RemovalPath::kChannelClose);
    scoped.touch_removals(scoped_server.process_pending_unregistrations());
    full_server.process_pending_unregistrations();
    scoped.record(scoped_server, t);
    record_full(t);
    core::RemotingRequest wipe;
    wipe.code = core::request_code::kWipeWritePermOfBroker;
    wipe.ext_fields = {{"brokerName", "broker-a"}};
    step(wipe, core::ConnectionId{4});
    EXPECT_GT(full_history.size(), 8u) << "the steps must change the routes";
    for (const auto& name : topics) {
      for (std::int64_t at = 0; at <= t; at += 500) {
        const auto* x = scoped_history.answer_at(1, name, at);
        const auto* y = full_history.answer_at(1, name, at);
        ASSERT_EQ(x == nullptr, y == nullptr) << name << " at " << at;
        if (x != nullptr) {
          EXPECT_FALSE(topic_route_data_changed(x, *y, core::Profile::kV5)) << name << " at " << at;
        }
      }
    }
  }
}

}  // namespace
}  // namespace nssim::sim

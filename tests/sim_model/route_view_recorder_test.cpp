// The route view the NameServer actor logs (`route_view` events): RouteViewRecorder updates only
// the groups a request or removal touched, and must log exactly what rebuilding the view from the
// whole tables logs, change by change.
#include "sim/nameserver/route_view_recorder.h"

#include <gtest/gtest.h>

#include "processor/processor_test_support.h"
#include "sim/scenario/rng.h"

namespace nssim::sim {
namespace {

using core::processor_testing::Registration;
using core::processor_testing::topic;

struct Pair {
  core::NameServer server;
  RouteViewRecorder scoped;
  RouteViewRecorder full;
};

// Runs `steps` random requests, channel closes and scans against one NameServer and compares, after
// each, the change the scoped recorder takes with the one a full rebuild takes.
void expect_scoped_view_equals_rebuilt(core::Profile profile, const core::NamesrvConfig& config,
                                       std::uint64_t seed, int steps) {
  Pair pair{core::NameServer(profile, config, 0), {}, {}};
  Rng rng = Rng::derive(seed, "route_view_recorder_test");
  const std::vector<std::string> groups = {"broker-a", "broker-b", "broker-c"};
  const std::vector<std::string> topics = {"TopicA", "TopicB", "TopicC", "TBW102"};
  std::map<std::pair<int, int>, core::DataVersion> versions;  // (group, id) -> version sent
  std::int64_t t = 0;
  int views = 0;
  const auto pick = [&rng](std::size_t n) { return static_cast<std::size_t>(rng.uniform_u64(n)); };
  const auto compare = [&](const char* what) {
    const auto scoped = pair.scoped.take_change(pair.server.route_info_manager());
    pair.full.touch_all();
    const auto full = pair.full.take_change(pair.server.route_info_manager());
    ASSERT_EQ(scoped.has_value(), full.has_value()) << what << " at " << t;
    if (scoped) {
      EXPECT_EQ(*scoped, *full) << what << " at " << t;
      ++views;
    }
    EXPECT_EQ(pair.scoped.digest(), pair.full.digest()) << what << " at " << t;
  };
  const auto touch_removals = [&](const std::vector<core::BrokerRemoval>& removals) {
    pair.scoped.touch_removals(removals);
    pair.full.touch_removals(removals);
  };
  for (int step = 0; step < steps; ++step) {
    t += 1000 + static_cast<std::int64_t>(pick(60000));
    const std::size_t g = pick(groups.size());
    const int id = static_cast<int>(pick(2));
    const core::ConnectionId channel{1 + g * 2 + static_cast<std::size_t>(id)};
    const std::size_t kind = pick(10);
    if (kind < 6) {  // a registration, often with a new topic table
      Registration r;
      r.name = groups[g];
      r.id = id;
      r.addr = "10.0.0." + std::to_string(1 + g) + ":" + std::to_string(10911 + id);
      r.version = profile == core::Profile::kV4_9 ? core::kVersionV4_9_8 : core::kVersionV5_3_3;
      core::DataVersion& version = versions[{static_cast<int>(g), id}];
      r.topics.clear();
      for (const std::string& name : topics) {
        if (pick(3) != 0) r.topics.push_back(topic(name, 4, pick(4) == 0 ? 4 : 6));
      }
      if (pick(2) == 0) ++version.counter;
      r.data_version = version;
      const core::RemotingRequest request = r.request();
      pair.scoped.touch_request(request);
      pair.full.touch_request(request);
      pair.server.process(request, channel, t);
    } else if (kind < 8) {  // the broker's channel closes
      touch_removals(pair.server.channel_destroyed(channel, "", core::RemovalPath::kChannelClose));
    } else {  // an admin request
      core::RemotingRequest admin;
      admin.code = pick(2) == 0 ? core::request_code::kWipeWritePermOfBroker
                                : core::request_code::kAddWritePermOfBroker;
      admin.ext_fields = {{"brokerName", groups[g]}};
      pair.scoped.touch_request(admin);
      pair.full.touch_request(admin);
      pair.server.process(admin, core::ConnectionId{99}, t);
    }
    touch_removals(pair.server.take_request_removals());
    touch_removals(pair.server.process_pending_unregistrations());
    compare("request");
    touch_removals(pair.server.scan(t).removals);  // brokers silent for 120 s expire
    touch_removals(pair.server.process_pending_unregistrations());
    compare("scan");
  }
  EXPECT_GT(views, steps / 4) << "the steps must change the view";
}

TEST(RouteViewRecorder, ScopedUpdatesLogWhatRebuildingTheWholeViewLogs) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    expect_scoped_view_equals_rebuilt(core::Profile::kV4_9, {}, seed, 150);
    expect_scoped_view_equals_rebuilt(core::Profile::kV5, {}, seed, 150);
    core::NamesrvConfig deleting;
    deleting.delete_topic_with_broker_registration = true;
    expect_scoped_view_equals_rebuilt(core::Profile::kV5, deleting, seed, 150);
  }
}

TEST(RouteViewRecorder, FirstViewIsLoggedEvenWhenEmptyThenOnlyChanges) {
  core::NameServer server(core::Profile::kV5, {}, 0);
  RouteViewRecorder view;
  const auto first = view.take_change(server.route_info_manager());
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(*first, (nlohmann::json{{"changed", nlohmann::json::object()}, {"topics_digest", 0}}));
  EXPECT_FALSE(view.take_change(server.route_info_manager()).has_value());

  Registration a;
  const core::RemotingRequest request = a.request();
  view.touch_request(request);
  server.process(request, core::ConnectionId{1}, 1000);
  const auto registered = view.take_change(server.route_info_manager());
  ASSERT_TRUE(registered.has_value());
  EXPECT_EQ((*registered)["changed"], (nlohmann::json{{"broker-a", {{"0", a.addr}}}}));
  EXPECT_NE((*registered)["topics_digest"], 0u);

  view.touch_request(request);  // the periodic registration: nothing changes
  server.process(request, core::ConnectionId{1}, 31000);
  EXPECT_FALSE(view.take_change(server.route_info_manager()).has_value());
}

}  // namespace
}  // namespace nssim::sim

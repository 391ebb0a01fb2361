// NameServer around the handlers: unknown codes, oneway requests, the scan with its close path,
// and the channel events of BrokerHousekeepingService (ported: BrokerHousekeepingServiceTest).
#include <gtest/gtest.h>

#include "processor_test_support.h"

namespace nssim::core {
namespace {

using namespace processor_testing;
namespace rc = request_code;

// RequestProcessorTest#testProcessRequest_UnSupportedRequest (5.3.3); 4.9.8 answers nothing.
TEST(NameServerDispatch, UnknownCodeIsNotSupportedIn5xAndUnansweredIn49) {
  Server v5(Profile::kV5);
  const auto response = v5.call(Request(99999));
  EXPECT_EQ(response.code, response_code::kRequestCodeNotSupported);
  EXPECT_EQ(response.remark, " request type 99999 not supported");
  Server v4(Profile::kV4_9);
  EXPECT_FALSE(v4.ns().process(Request(99999), kChannel, kNow).has_value());
}

TEST(NameServerDispatch, OnewayRequestIsHandledButNotAnswered) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    RemotingRequest request = Registration{}.request();
    request.oneway = true;
    EXPECT_FALSE(server.ns().process(request, kChannel, kNow).has_value());
    EXPECT_EQ(server.rim().broker_addr_table().size(), 1u);
    EXPECT_FALSE(server.ns().process(Request(99999).oneway(), kChannel, kNow).has_value());
  }
}

TEST(NameServerScan, FourNineRemovesAnExpiredBrokerAtOnce) {
  Server server(Profile::kV4_9);
  server.register_broker(Registration{}, 1000);
  EXPECT_TRUE(server.ns().scan(121'000).removals.empty());  // last + 120 s is not yet < now
  const ScanOutcome outcome = server.ns().scan(121'001);
  EXPECT_EQ(outcome.channels_closed, std::vector<ConnectionId>{kChannel});
  ASSERT_EQ(outcome.expired.size(), 1u);
  EXPECT_FALSE(outcome.removals.empty());
  EXPECT_TRUE(outcome.removals[0].removed_live_entry);
  EXPECT_TRUE(server.rim().broker_addr_table().empty());
  EXPECT_TRUE(server.rim().topic_queue_table().empty());
}

// 5.3.3: the scan queues an unregister, the close path queues another, the batch removes it.
TEST(NameServerScan, FiveXRemovesAnExpiredBrokerThroughTheBatch) {
  Server server(Profile::kV5);
  server.register_broker(Registration{}, 1000);
  const ScanOutcome outcome = server.ns().scan(121'001);
  EXPECT_EQ(outcome.channels_closed, std::vector<ConnectionId>{kChannel});
  bool removed = false;
  for (const auto& removal : outcome.removals) removed = removed || removal.removed_broker_name;
  EXPECT_TRUE(removed);
  EXPECT_TRUE(server.rim().broker_live_table().empty());
  EXPECT_TRUE(server.rim().broker_addr_table().empty());
  EXPECT_EQ(server.rim().pending_unregistrations(), 0u);
}

TEST(NameServerScan, EachClosedChannelIsClosedOnce) {
  Server server(Profile::kV5);
  Registration second;
  second.cluster = "cluster-2";
  second.name = "broker-b";
  server.register_broker(Registration{}, 1000);
  server.register_broker(second, 1000);  // same address and connection, another cluster
  const ScanOutcome outcome = server.ns().scan(200'000);
  EXPECT_EQ(outcome.expired.size(), 2u);
  EXPECT_EQ(outcome.channels_closed, std::vector<ConnectionId>{kChannel});
}

// BrokerHousekeepingServiceTest#testOnChannelClose / #testOnChannelException / #testOnChannelIdle
TEST(NameServerChannelEvents, EventsOnAnUnknownChannelChangeNothing) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.register_broker(Registration{});
    for (RemovalPath path :
         {RemovalPath::kChannelClose, RemovalPath::kChannelException, RemovalPath::kChannelIdle}) {
      EXPECT_TRUE(server.ns().channel_destroyed(ConnectionId{42}, "127.0.0.1:9876", path).empty());
    }
    EXPECT_TRUE(server.ns().process_pending_unregistrations().empty());
    EXPECT_EQ(server.rim().broker_addr_table().size(), 1u);
  }
}

TEST(NameServerChannelEvents, ClosingTheBrokersChannelRemovesIt) {
  Server v4(Profile::kV4_9);
  v4.register_broker(Registration{});
  EXPECT_EQ(v4.ns().channel_destroyed(kChannel, "", RemovalPath::kChannelClose).size(), 1u);
  EXPECT_TRUE(v4.rim().broker_addr_table().empty());

  Server v5(Profile::kV5);
  v5.register_broker(Registration{});
  EXPECT_TRUE(v5.ns().channel_destroyed(kChannel, "", RemovalPath::kChannelIdle).empty());
  EXPECT_EQ(v5.rim().broker_addr_table().size(), 1u);  // queued, not yet applied
  EXPECT_EQ(v5.ns().process_pending_unregistrations().size(), 1u);
  EXPECT_TRUE(v5.rim().broker_addr_table().empty());
}

// 4.9.8 falls back to the socket's peer address when no live entry uses the channel.
TEST(NameServerChannelEvents, FourNineFallsBackToTheRemoteAddress) {
  Server server(Profile::kV4_9);
  server.register_broker(Registration{});
  EXPECT_EQ(server.ns()
                .channel_destroyed(ConnectionId{42}, "10.0.0.1:10911", RemovalPath::kChannelClose)
                .size(),
            1u);
  EXPECT_TRUE(server.rim().broker_addr_table().empty());
}

// The start time given to the constructor is where ClientRequestProcessor (5.x) counts
// waitSecondsForService from: a NameServer started at 77 s is not ready at 100 s (which a start
// at 0 would be), nor at 77 s + 44.999 s, and is at 77 s + 45 s. The black list given to the
// constructor is checked by ConfigProcessor.UpdateConfigRefusesBlackListedKeys and
// ConfiguredBlackListIsAddedToTheFixedOne.
TEST(NameServerDispatch, WaitForServiceCountsFromTheStartTime) {
  NamesrvConfig config;
  config.need_wait_for_service = true;
  config.wait_seconds_for_service = 45;
  NameServer ns(Profile::kV5, config, 77'000);
  ASSERT_TRUE(ns.process(Registration{}.request(), kChannel, 78'000).has_value());
  const RemotingRequest route = Request(rc::kGetRouteinfoByTopic).ext("topic", "TopicA");
  for (std::int64_t now_ms : {100'000, 121'999}) {
    const auto early = ns.process(route, kChannel, now_ms);
    ASSERT_TRUE(early.has_value());
    EXPECT_EQ(early->code, response_code::kSystemError) << now_ms;
    EXPECT_EQ(early->remark, "name server not ready") << now_ms;
  }
  const auto ready = ns.process(route, kChannel, 122'000);
  ASSERT_TRUE(ready.has_value());
  EXPECT_EQ(ready->code, response_code::kSuccess);
}

}  // namespace
}  // namespace nssim::core

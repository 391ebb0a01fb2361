// NetworkHistory: timelines at exact change instants, cuts, and every transport rule (deliver,
// connect, FIN, retransmission, request exchange). Two nodes at 0.5 ms each make a 1 ms hop.
#include "sim/network/network_history.h"

#include <gtest/gtest.h>

namespace nssim::sim {
namespace {

struct TwoNodes {
  TwoNodes() {
    client = net.add_node("producer-0", 0.5);
    server = net.add_node("broker-a-0", 0.5);
    net.start_process(client, 0);
    net.start_process(server, 0);
  }
  NetworkHistory net;
  NodeId client = 0;
  NodeId server = 0;
};

TEST(NetworkHistory, ChangeAppliesFromItsInstant) {
  NetworkHistory net;
  const NodeId n = net.add_node("ns-0", 0.5);
  net.start_process(n, 100);
  EXPECT_EQ(net.state_at(n, 99).process, ProcessState::kDown);
  EXPECT_EQ(net.state_at(n, 99).epoch, 0u);
  EXPECT_EQ(net.state_at(n, 100).process, ProcessState::kUp);
  EXPECT_EQ(net.state_at(n, 100).epoch, 1u);
}

TEST(NetworkHistory, EveryStartIsANewIncarnation) {
  NetworkHistory net;
  const NodeId n = net.add_node("broker-a-0", 0.5);
  net.start_process(n, 0);
  net.stop_process(n, DownKind::kCrash, 10);
  net.start_process(n, 10);  // restarted within the same millisecond
  EXPECT_EQ(net.state_at(n, 10).epoch, 2u);
  EXPECT_EQ(net.state_at(n, 10).process, ProcessState::kUp);
  const auto end = net.incarnation_end(n, 1);
  ASSERT_TRUE(end);
  EXPECT_EQ(end->first, 10);
  EXPECT_EQ(end->second, DownKind::kCrash);
  EXPECT_FALSE(net.incarnation_end(n, 2));
}

TEST(NetworkHistory, PowerOffTakesTheProcessDownAndPowerOnDoesNotStartIt) {
  TwoNodes t;
  t.net.power_off(t.server, 50);
  EXPECT_FALSE(t.net.state_at(t.server, 50).host_up);
  EXPECT_EQ(t.net.state_at(t.server, 50).process, ProcessState::kDown);
  EXPECT_EQ(t.net.state_at(t.server, 50).down_kind, DownKind::kPoweroff);
  t.net.power_on(t.server, 80);
  EXPECT_TRUE(t.net.state_at(t.server, 80).host_up);
  EXPECT_EQ(t.net.state_at(t.server, 80).process, ProcessState::kDown);
  t.net.start_process(t.server, 90);
  EXPECT_EQ(t.net.state_at(t.server, 90).epoch, 2u);
}

TEST(NetworkHistory, ChangesThatDoNotApplyAreIgnored) {
  TwoNodes t;
  t.net.resume(t.server, 10);  // not paused
  t.net.stop_process(t.server, DownKind::kCrash, 20);
  t.net.stop_process(t.server, DownKind::kShutdown, 30);  // already down
  t.net.pause(t.server, 40);                              // not up
  EXPECT_EQ(t.net.state_at(t.server, 50).down_kind, DownKind::kCrash);
  EXPECT_EQ(t.net.state_at(t.server, 50).process, ProcessState::kDown);
  EXPECT_EQ(t.net.change_times(), (std::vector<std::int64_t>{0, 20}));
}

TEST(NetworkHistory, CutsNestAndNeedAsManyHeals) {
  TwoNodes t;
  t.net.cut(t.client, t.server, 10);
  t.net.cut(t.client, t.server, 20);
  t.net.heal(t.client, t.server, 30);
  EXPECT_TRUE(t.net.path_open(t.client, t.server, 9));
  EXPECT_FALSE(t.net.path_open(t.client, t.server, 10));
  EXPECT_FALSE(t.net.path_open(t.client, t.server, 30));
  t.net.heal(t.client, t.server, 40);
  EXPECT_TRUE(t.net.path_open(t.client, t.server, 40));
}

TEST(NetworkHistory, OneWayCutLeavesTheOtherDirectionOpen) {
  TwoNodes t;
  t.net.cut(t.client, t.server, 10);
  EXPECT_FALSE(t.net.path_open(t.client, t.server, 10));
  EXPECT_TRUE(t.net.path_open(t.server, t.client, 10));
  EXPECT_FALSE(t.net.reachable(t.client, t.server, 10));
  EXPECT_FALSE(t.net.reachable(t.server, t.client, 10));
  EXPECT_TRUE(t.net.reachable(t.client, t.server, 9));
}

TEST(NetworkHistory, TransitAddsLatenciesAndTransferAndRoundsUp) {
  NetworkHistory net;
  const NodeId a = net.add_node("a", 0.5, 1000.0);
  const NodeId b = net.add_node("b", 0.5, 1.0);  // 1 Mbit/s: 1000 bytes take 8 ms
  EXPECT_DOUBLE_EQ(net.one_way_latency_ms(a, b, 0), 1.0);
  EXPECT_EQ(net.transit_ms(a, b, 0), 1);
  EXPECT_EQ(net.transit_ms(a, b, 0, 1000), 9);
  EXPECT_EQ(net.transit_ms(a, b, 0, 1), 2);
  net.set_latency(b, 20.0, 100);
  EXPECT_EQ(net.transit_ms(a, b, 99), 1);
  EXPECT_EQ(net.transit_ms(a, b, 100), 21);
}

TEST(NetworkHistory, DeliverFollowsHostProcessAndPath) {
  TwoNodes t;
  EXPECT_EQ(t.net.deliver(t.client, t.server, 1, 5), Delivery::kDelivered);
  EXPECT_EQ(t.net.deliver(t.client, t.server, 0, 5), Delivery::kRefused);  // stale epoch
  t.net.pause(t.server, 10);
  EXPECT_EQ(t.net.deliver(t.client, t.server, 1, 10), Delivery::kDelivered);  // kernel buffers
  t.net.resume(t.server, 20);
  t.net.stop_process(t.server, DownKind::kCrash, 30);
  EXPECT_EQ(t.net.deliver(t.client, t.server, 1, 30), Delivery::kRefused);
  t.net.cut(t.server, t.client, 40);  // the RST cannot come back
  EXPECT_EQ(t.net.deliver(t.client, t.server, 1, 40), Delivery::kDropped);
  t.net.heal(t.server, t.client, 50);
  t.net.power_off(t.server, 60);
  EXPECT_EQ(t.net.deliver(t.client, t.server, 1, 60), Delivery::kDropped);
}

TEST(NetworkHistory, ConnectIsAcceptedByThePausedKernelAndRefusedByAnEmptyHost) {
  TwoNodes t;
  t.net.pause(t.server, 10);
  EXPECT_EQ(t.net.connect(t.client, t.server, 10), Delivery::kDelivered);
  t.net.stop_process(t.server, DownKind::kCrash, 20);
  EXPECT_EQ(t.net.connect(t.client, t.server, 20), Delivery::kRefused);
  t.net.power_off(t.server, 30);
  EXPECT_EQ(t.net.connect(t.client, t.server, 30), Delivery::kDropped);
}

TEST(NetworkHistory, ConnectGetsNoAnswerWhenEitherDirectionIsCut) {
  TwoNodes t;
  t.net.cut(t.client, t.server, 10);
  EXPECT_EQ(t.net.connect(t.client, t.server, 10), Delivery::kDropped);
  t.net.heal(t.client, t.server, 20);
  t.net.cut(t.server, t.client, 20);
  EXPECT_EQ(t.net.connect(t.client, t.server, 20), Delivery::kDropped);
  t.net.stop_process(t.server, DownKind::kCrash, 30);
  EXPECT_EQ(t.net.connect(t.client, t.server, 30), Delivery::kDropped);  // the RST is lost
}

TEST(NetworkHistory, ConnectWithinAnswersAfterOneRoundTrip) {
  TwoNodes t;
  const ConnectResult ok = t.net.connect_within(t.client, t.server, 100, 3000);
  EXPECT_EQ(ok.outcome, Delivery::kDelivered);
  EXPECT_EQ(ok.at_ms, 102);
  EXPECT_EQ(ok.epoch, 1u);
  t.net.stop_process(t.server, DownKind::kCrash, 200);
  const ConnectResult refused = t.net.connect_within(t.client, t.server, 300, 3000);
  EXPECT_EQ(refused.outcome, Delivery::kRefused);
  EXPECT_EQ(refused.at_ms, 302);
}

TEST(NetworkHistory, ConnectWithinWaitsTheTimeoutForASilentHost) {
  TwoNodes t;
  t.net.power_off(t.server, 100);
  const ConnectResult r = t.net.connect_within(t.client, t.server, 1000, 3000);
  EXPECT_EQ(r.outcome, Delivery::kDropped);
  EXPECT_EQ(r.at_ms, 4000);
}

TEST(NetworkHistory, ConnectWithinRetransmitsTheSynAcrossAHealedPartition) {
  TwoNodes t;
  t.net.cut(t.client, t.server, 0);
  t.net.heal(t.client, t.server, 500);
  const ConnectResult r = t.net.connect_within(t.client, t.server, 100, 3000);
  EXPECT_EQ(r.outcome, Delivery::kDelivered);
  EXPECT_EQ(r.at_ms, 1102);  // the SYN sent again 1 s later crosses
  const ConnectResult late = t.net.connect_within(t.client, t.server, 100, 900);
  EXPECT_EQ(late.outcome, Delivery::kDropped);
  EXPECT_EQ(late.at_ms, 1000);
}

TEST(NetworkHistory, ClientSeesTheFinOfACrashOrShutdownOneHopLater) {
  TwoNodes t;
  t.net.stop_process(t.server, DownKind::kCrash, 100);
  EXPECT_EQ(t.net.client_sees_close(t.client, t.server, 1, 0, 1000),
            std::optional<std::int64_t>(101));
  EXPECT_FALSE(t.net.client_sees_close(t.client, t.server, 1, 0, 100));     // not yet
  EXPECT_FALSE(t.net.client_sees_close(t.client, t.server, 1, 101, 1000));  // already learnt
  TwoNodes s;
  s.net.stop_process(s.server, DownKind::kShutdown, 100);
  EXPECT_EQ(s.net.client_sees_close(s.client, s.server, 1, 0, 1000),
            std::optional<std::int64_t>(101));
}

TEST(NetworkHistory, ClientSeesNoCloseForPowerOffOrAFinLostToAPartition) {
  TwoNodes t;
  t.net.power_off(t.server, 100);
  EXPECT_FALSE(t.net.client_sees_close(t.client, t.server, 1, 0, 100000));
  TwoNodes c;
  c.net.cut(c.server, c.client, 50);
  c.net.stop_process(c.server, DownKind::kCrash, 100);
  c.net.heal(c.server, c.client, 200);
  EXPECT_FALSE(c.net.client_sees_close(c.client, c.server, 1, 0, 100000));
}

TEST(NetworkHistory, RequestArrivalWaitsForAPauseToEnd) {
  TwoNodes t;
  t.net.pause(t.server, 100);
  t.net.resume(t.server, 900);
  EXPECT_EQ(t.net.request_arrival(t.client, t.server, 1, 50, 3000),
            std::optional<std::int64_t>(51));
  EXPECT_EQ(t.net.request_arrival(t.client, t.server, 1, 200, 3000),
            std::optional<std::int64_t>(900));
  EXPECT_FALSE(t.net.request_arrival(t.client, t.server, 1, 200, 899));
}

TEST(NetworkHistory, RequestArrivalRetransmitsAcrossAHealedPartition) {
  TwoNodes t;
  t.net.cut(t.client, t.server, 100);
  t.net.heal(t.client, t.server, 700);
  EXPECT_EQ(t.net.request_arrival(t.client, t.server, 1, 200, 3000),
            std::optional<std::int64_t>(701));
}

TEST(NetworkHistory, RequestArrivalFailsWhenTheIncarnationEnds) {
  TwoNodes t;
  t.net.pause(t.server, 100);
  t.net.stop_process(t.server, DownKind::kCrash, 500);
  t.net.start_process(t.server, 600);
  EXPECT_FALSE(t.net.request_arrival(t.client, t.server, 1, 200, 3000));
  EXPECT_EQ(t.net.request_arrival(t.client, t.server, 2, 700, 3000),
            std::optional<std::int64_t>(701));
}

TEST(NetworkHistory, ExchangeIsAnsweredAfterRoundTripPlusTransfer) {
  NetworkHistory net;
  const NodeId c = net.add_node("producer-0", 0.5, 1000.0);
  const NodeId s = net.add_node("broker-a-0", 0.5, 1.0);
  net.start_process(c, 0);
  net.start_process(s, 0);
  const Exchange e = net.exchange(c, s, 1, 100, 3100, 1000);
  EXPECT_EQ(e.outcome, ExchangeOutcome::kAnswered);
  EXPECT_EQ(e.at_ms, 110);  // 9 ms out with the payload, 1 ms back
}

TEST(NetworkHistory, ExchangeWithAPoweredOffHostIsSilent) {
  TwoNodes t;
  t.net.power_off(t.server, 100);
  const Exchange e = t.net.exchange(t.client, t.server, 1, 200, 3200);
  EXPECT_EQ(e.outcome, ExchangeOutcome::kSilent);
  EXPECT_EQ(e.at_ms, 3200);
}

TEST(NetworkHistory, ExchangeWithARebootedHostIsReset) {
  TwoNodes t;
  t.net.power_off(t.server, 100);
  t.net.power_on(t.server, 1000);
  EXPECT_EQ(t.net.exchange(t.client, t.server, 1, 200, 3200).outcome, ExchangeOutcome::kReset);
  EXPECT_EQ(t.net.exchange(t.client, t.server, 1, 200, 3200).at_ms, 1002);
}

TEST(NetworkHistory, ExchangeInFlightAtACrashSeesTheFinFirst) {
  TwoNodes t;
  t.net.stop_process(t.server, DownKind::kCrash, 100);
  const Exchange e = t.net.exchange(t.client, t.server, 1, 100, 3100);
  EXPECT_EQ(e.outcome, ExchangeOutcome::kClosed);
  EXPECT_EQ(e.at_ms, 101);
}

TEST(NetworkHistory, ExchangeUnreadWhenAPausedProcessDiesIsReset) {
  TwoNodes t;
  t.net.pause(t.server, 100);
  t.net.stop_process(t.server, DownKind::kCrash, 500);
  const Exchange e = t.net.exchange(t.client, t.server, 1, 200, 3200);
  EXPECT_EQ(e.outcome, ExchangeOutcome::kReset);
  EXPECT_EQ(e.at_ms, 501);
}

TEST(NetworkHistory, ExchangeWithAPausedProcessIsAnsweredLateOrNotAtAll) {
  TwoNodes t;
  t.net.pause(t.server, 100);
  t.net.resume(t.server, 2000);
  const Exchange late = t.net.exchange(t.client, t.server, 1, 200, 3200);
  EXPECT_EQ(late.outcome, ExchangeOutcome::kAnswered);
  EXPECT_EQ(late.at_ms, 2001);
  const Exchange silent = t.net.exchange(t.client, t.server, 1, 200, 1500);
  EXPECT_EQ(silent.outcome, ExchangeOutcome::kSilent);
}

TEST(NetworkHistory, ExchangeLosesTheResponseOnAOneWayCutBack) {
  TwoNodes t;
  t.net.cut(t.server, t.client, 100);
  EXPECT_EQ(t.net.exchange(t.client, t.server, 1, 200, 3200).outcome, ExchangeOutcome::kSilent);
  t.net.heal(t.server, t.client, 1000);
  const Exchange healed = t.net.exchange(t.client, t.server, 1, 200, 3200);
  EXPECT_EQ(healed.outcome, ExchangeOutcome::kAnswered);
  EXPECT_EQ(healed.at_ms, 1001);
}

// Exchanges with nothing changing around them take a shortcut; these pin the instants where a
// change inside, at the edge of or just outside the window must still be seen.
TEST(NetworkHistory, ExchangeResponseTakesTheLatencyInForceWhenItLeaves) {
  TwoNodes t;
  t.net.set_latency(t.server, 50.0, 101);
  const Exchange e = t.net.exchange(t.client, t.server, 1, 100, 3100);
  EXPECT_EQ(e.outcome, ExchangeOutcome::kAnswered);
  EXPECT_EQ(e.at_ms, 152);  // 1 ms out at the old latency, 51 ms back at the new one
}

TEST(NetworkHistory, ExchangeIsAnsweredBeforeACrashAtTheDeadline) {
  TwoNodes t;
  t.net.stop_process(t.server, DownKind::kCrash, 3100);
  const Exchange e = t.net.exchange(t.client, t.server, 1, 100, 3100);
  EXPECT_EQ(e.outcome, ExchangeOutcome::kAnswered);
  EXPECT_EQ(e.at_ms, 102);
}

TEST(NetworkHistory, ExchangeSentAtThePauseInstantIsSilent) {
  TwoNodes t;
  t.net.pause(t.server, 100);
  const Exchange e = t.net.exchange(t.client, t.server, 1, 100, 3100);
  EXPECT_EQ(e.outcome, ExchangeOutcome::kSilent);
  EXPECT_EQ(e.at_ms, 3100);
}

TEST(NetworkHistory, ExchangeWhoseResponseMissesTheDeadlineIsSilent) {
  TwoNodes t;
  EXPECT_EQ(t.net.exchange(t.client, t.server, 1, 100, 102).outcome, ExchangeOutcome::kAnswered);
  const Exchange late = t.net.exchange(t.client, t.server, 1, 100, 101);
  EXPECT_EQ(late.outcome, ExchangeOutcome::kSilent);
  EXPECT_EQ(late.at_ms, 101);
}

TEST(NetworkHistory, ExchangeWithAFinSentBeforeTheRequestSeesIt) {
  TwoNodes t;
  t.net.set_latency(t.server, 5.0, 0);
  t.net.stop_process(t.server, DownKind::kCrash, 98);
  t.net.start_process(t.server, 99);  // the new incarnation is up when the request is sent
  const Exchange e = t.net.exchange(t.client, t.server, 1, 100, 3100);
  EXPECT_EQ(e.outcome, ExchangeOutcome::kClosed);
  EXPECT_EQ(e.at_ms, 104);  // the FIN left at 98 and takes 6 ms
}

TEST(NetworkHistory, SteadyRoundTripGivesWhatExchangeGivesUntilTheNextChange) {
  TwoNodes t;
  t.net.set_latency(t.server, 2.0, 40);                                 // a 3 ms hop from 40 on
  EXPECT_FALSE(t.net.steady_round_trip(t.client, t.server, 1, 39, 0));  // a change after 39
  const auto steady = t.net.steady_round_trip(t.client, t.server, 1, 40, 1'000'000);
  ASSERT_TRUE(steady.has_value());
  EXPECT_EQ(steady->change_count, t.net.change_count());
  for (const std::int64_t sent : {40, 41, 500, 90'000}) {
    for (const std::int64_t budget : {0, 5, 6, 7, 10, 3000}) {
      const Exchange cached = steady->exchange(sent, sent + budget);
      const Exchange general =
          t.net.exchange(t.client, t.server, 1, sent, sent + budget, 1'000'000);
      EXPECT_EQ(cached.outcome, general.outcome) << sent << " " << budget;
      EXPECT_EQ(cached.at_ms, general.at_ms) << sent << " " << budget;
    }
  }
  // A change recorded later, even one far ahead of the instants asked about, moves the count.
  const std::uint64_t before = t.net.change_count();
  t.net.stop_process(t.server, DownKind::kCrash, 100'000);
  EXPECT_NE(t.net.change_count(), before);
}

TEST(NetworkHistory, SteadyRoundTripNeedsARunningIncarnationAndOpenPaths) {
  TwoNodes t;
  EXPECT_FALSE(t.net.steady_round_trip(t.client, t.server, 2, 10, 0));  // not its incarnation
  t.net.cut(t.server, t.client, 20);
  EXPECT_FALSE(t.net.steady_round_trip(t.client, t.server, 1, 30, 0));
  t.net.heal(t.server, t.client, 40);
  EXPECT_TRUE(t.net.steady_round_trip(t.client, t.server, 1, 40, 0));
  t.net.pause(t.server, 50);
  EXPECT_FALSE(t.net.steady_round_trip(t.client, t.server, 1, 60, 0));
  t.net.resume(t.server, 70);
  t.net.power_off(t.client, 80);
  EXPECT_FALSE(t.net.steady_round_trip(t.client, t.server, 1, 90, 0));
}

TEST(NetworkHistory, IncarnationEndIsUnknownWhileItRuns) {
  TwoNodes t;
  t.net.pause(t.server, 50);
  EXPECT_FALSE(t.net.incarnation_end(t.server, 1).has_value());
  t.net.stop_process(t.server, DownKind::kShutdown, 80);
  t.net.start_process(t.server, 90);
  const auto end = t.net.incarnation_end(t.server, 1);
  ASSERT_TRUE(end.has_value());
  EXPECT_EQ(end->first, 80);
  EXPECT_EQ(end->second, DownKind::kShutdown);
  EXPECT_FALSE(t.net.incarnation_end(t.server, 2).has_value());
}

TEST(NetworkHistory, ChangeTimesAreSortedAndUnique) {
  TwoNodes t;
  t.net.cut(t.client, t.server, 50);
  t.net.pause(t.server, 50);
  t.net.set_latency(t.client, 2.0, 20);
  EXPECT_EQ(t.net.change_times(), (std::vector<std::int64_t>{0, 20, 50}));
}

TEST(NetworkHistory, NodesAreFoundByName) {
  TwoNodes t;
  EXPECT_EQ(t.net.find("broker-a-0"), std::optional<NodeId>(t.server));
  EXPECT_FALSE(t.net.find("broker-b-0"));
  EXPECT_EQ(t.net.name(t.client), "producer-0");
  EXPECT_EQ(t.net.node_count(), 2u);
}

// A programmer error aborts naming the file and line of the broken invariant (NSSIM_CHECK).
TEST(NetworkHistoryDeathTest, ProgrammerErrorsNameTheirCallSite) {
  NetworkHistory net;
  const NodeId n = net.add_node("broker-a-0", 0.5);
  EXPECT_DEATH(net.add_node("broker-a-0", 0.5),
               "sim/network/network_history\\.cpp:[0-9]+: invariant failed: duplicate node name");
  EXPECT_DEATH(net.stop_process(n, DownKind::kNone, 0),
               "network_history\\.cpp:[0-9]+: invariant failed: stop_process takes kCrash or "
               "kShutdown");
}

}  // namespace
}  // namespace nssim::sim

// RouteReplay: a NameServer's incarnations, the intervals in which it listed each broker address
// and those in which it answered, by the one rule of route_replay.h (a restarted NameServer
// starts empty, a stopped one lists nothing, a paused one keeps its tables but answers nobody).
#include "sim/analysis/route_replay.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace nssim::sim {
namespace route_replay_test {  // named: a unity batch shares file scope

using nlohmann::json;

Scenario two_nameservers() {
  Scenario scenario;
  scenario.nameservers.count = 2;
  scenario.duration_ms = 100000;
  return scenario;
}

Event started(std::int64_t t_ms, const std::string& ns) {
  return {t_ms, ns, EventKind::kProcessStart, {{"epoch", 1}}};
}

Event faulted(std::int64_t t_ms, EventKind phase, const char* kind, const std::string& ns) {
  return {t_ms, "controller", phase, {{"fault", 0}, {"kind", kind}, {"nodes", {ns}}}};
}

Event viewed(std::int64_t t_ms, const std::string& ns, const json& changed) {
  return {t_ms, ns, EventKind::kRouteView, {{"changed", changed}, {"topics_digest", 1}}};
}

using Spans = std::vector<std::pair<std::int64_t, std::optional<std::int64_t>>>;

Spans spans(const std::vector<ReplayInterval>& intervals) {
  Spans out;
  for (const auto& interval : intervals) out.emplace_back(interval.start_ms, interval.end_ms);
  return out;
}

const json kBrokerA = {{"broker-a", {{"0", "a:10911"}}}};

TEST(RouteReplay, AKilledNameServerListsNothingFromItsKillAndStartsEmptyAgain) {
  const std::vector<Event> events = {started(0, "ns-0"),
                                     viewed(1000, "ns-0", kBrokerA),
                                     faulted(5000, EventKind::kFaultBegin, "kill", "ns-0"),
                                     faulted(8000, EventKind::kFaultEnd, "kill", "ns-0"),
                                     started(8000, "ns-0"),
                                     viewed(9000, "ns-0", kBrokerA)};
  const RouteReplay replay(two_nameservers(), events);
  const NameServerReplay& ns = replay.nameserver("ns-0");
  EXPECT_EQ(spans(ns.listed("a:10911")), (Spans{{1000, 5000}, {9000, std::nullopt}}));
  EXPECT_FALSE(ns.lists("a:10911", 5000));
  EXPECT_FALSE(ns.lists("a:10911", 8500));  // restarted, not yet registered
  EXPECT_EQ(spans(ns.answering()), (Spans{{0, 5000}, {8000, std::nullopt}}));
  ASSERT_EQ(ns.incarnations().size(), 2u);
  EXPECT_EQ(ns.incarnations()[1].start_ms, 8000);
  EXPECT_EQ(ns.incarnations()[1].first_listing_ms, 9000);
  EXPECT_EQ(ns.last_start_at_or_before(8999), 8000);
  EXPECT_EQ(ns.listing_changes("a:10911"), (std::vector<std::int64_t>{1000, 5000, 9000}));
  // The other NameServer never started: it lists and answers nothing.
  EXPECT_TRUE(replay.nameserver("ns-1").listed("a:10911").empty());
  EXPECT_FALSE(replay.nameserver("ns-1").answers(1000));
}

TEST(RouteReplay, ARestartedNameServersFirstViewIsAgainstEmptyTables) {
  // The restarted process logs its first view against its own empty tables, so a group listed
  // before the kill and not registered again is gone, and its view fingerprint starts from empty.
  const json kBoth = {{"broker-a", {{"0", "a:10911"}}}, {"broker-b", {{"0", "b:10911"}}}};
  const std::vector<Event> events = {started(0, "ns-0"), viewed(1000, "ns-0", kBoth),
                                     faulted(5000, EventKind::kFaultBegin, "shutdown", "ns-0"),
                                     started(6000, "ns-0"), viewed(7000, "ns-0", kBrokerA)};
  const RouteReplay replay(two_nameservers(), events);
  const NameServerReplay& ns = replay.nameserver("ns-0");
  EXPECT_EQ(spans(ns.listed("b:10911")), (Spans{{1000, 5000}}));
  EXPECT_EQ(spans(ns.listed("a:10911")), (Spans{{1000, 5000}, {7000, std::nullopt}}));
  ASSERT_EQ(ns.views().size(), 4u);
  EXPECT_EQ(ns.views()[2], (std::pair<std::int64_t, std::uint64_t>{6000, 0}));
  EXPECT_NE(ns.views()[3].second, ns.views()[1].second);
}

TEST(RouteReplay, APausedNameServerKeepsListingButDoesNotAnswer) {
  const std::vector<Event> events = {started(0, "ns-0"), viewed(1000, "ns-0", kBrokerA),
                                     faulted(5000, EventKind::kFaultBegin, "pause", "ns-0"),
                                     faulted(8000, EventKind::kFaultEnd, "pause", "ns-0")};
  const RouteReplay replay(two_nameservers(), events);
  const NameServerReplay& ns = replay.nameserver("ns-0");
  EXPECT_EQ(spans(ns.listed("a:10911")), (Spans{{1000, std::nullopt}}));
  EXPECT_EQ(spans(ns.answering()), (Spans{{0, 5000}, {8000, std::nullopt}}));
  EXPECT_FALSE(ns.answers(5000));
  EXPECT_TRUE(ns.answers(8000));
}

TEST(RouteReplay, AListingCutToNothingInOneMillisecondIsLeftOut) {
  const std::vector<Event> events = {started(0, "ns-0"), viewed(1000, "ns-0", kBrokerA),
                                     viewed(1000, "ns-0", {{"broker-a", nullptr}})};
  const RouteReplay replay(two_nameservers(), events);
  const NameServerReplay& ns = replay.nameserver("ns-0");
  EXPECT_TRUE(ns.listed("a:10911").empty());
  EXPECT_FALSE(ns.lists("a:10911", 1000));
}

}  // namespace route_replay_test
}  // namespace nssim::sim

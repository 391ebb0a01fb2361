// The time-resolved analysis behind the report's pictures: process spans from process and fault
// events, NameServer route membership, detections and the per-second stale-producer count.
#include "sim/analysis/timeline_analysis.h"

#include <gtest/gtest.h>

#include "sim/analysis/process_spans.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::sim {
namespace {

using nlohmann::json;

Event fault_event(std::int64_t t_ms, EventKind phase, std::size_t index, const char* kind,
                  const std::string& node) {
  return {t_ms, "controller", phase, {{"fault", index}, {"kind", kind}, {"nodes", {node}}}};
}

Event start(std::int64_t t_ms, const std::string& node) {
  return {t_ms, node, EventKind::kProcessStart, {{"epoch", 1}}};
}

// A route_view as the NameServer logs it: the groups that changed ({id: address}, or null for
// a group gone).
Event view(std::int64_t t_ms, const std::string& ns, const json& changed) {
  return {t_ms, ns, EventKind::kRouteView, {{"changed", changed}, {"topics_digest", 1}}};
}

TEST(ProcessSpans, KillAndRestartMakeADownStretchBetweenUpStretches) {
  const std::vector<Event> events = {
      start(1000, "b"), fault_event(5000, EventKind::kFaultBegin, 0, "kill", "b"),
      fault_event(8000, EventKind::kFaultEnd, 0, "kill", "b"), start(8000, "b")};
  const auto spans = process_spans(events, "b", 10000);
  ASSERT_EQ(spans.size(), 4u);
  EXPECT_EQ(spans[0].state, SpanState::kNotStarted);
  EXPECT_EQ(spans[0].end_ms, 1000);
  EXPECT_EQ(spans[1].state, SpanState::kUp);
  EXPECT_EQ(spans[2].state, SpanState::kDown);
  EXPECT_EQ(spans[2].start_ms, 5000);
  EXPECT_EQ(spans[2].end_ms, 8000);
  EXPECT_EQ(spans[2].fault, 0u);
  EXPECT_EQ(spans[3].state, SpanState::kUp);
  EXPECT_EQ(spans[3].end_ms, 10000);
}

TEST(ProcessSpans, PauseEndsWithItsFaultAndANodeStartedAtZeroHasNoNotStartedStretch) {
  const std::vector<Event> events = {start(0, "b"),
                                     fault_event(2000, EventKind::kFaultBegin, 3, "pause", "b"),
                                     fault_event(4000, EventKind::kFaultEnd, 3, "pause", "b")};
  const auto spans = process_spans(events, "b", 6000);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0].state, SpanState::kUp);
  EXPECT_EQ(spans[1].state, SpanState::kPaused);
  EXPECT_EQ(spans[1].fault, 3u);
  EXPECT_EQ(spans[2].state, SpanState::kUp);
  EXPECT_EQ(spans[2].start_ms, 4000);
}

TEST(ProcessSpans, PoweredOffHostStaysDownUntilItsProcessStartsAgain) {
  const std::vector<Event> events = {
      start(0, "b"), fault_event(1000, EventKind::kFaultBegin, 0, "poweroff", "b"),
      fault_event(3000, EventKind::kFaultEnd, 0, "poweroff", "b"), start(3500, "b")};
  const auto spans = process_spans(events, "b", 5000);
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[1].state, SpanState::kDown);
  EXPECT_EQ(spans[1].end_ms, 3500);
}

TEST(Timelines, NameServerHoldsBrokerUntilItDropsItOrGoesDown) {
  const Scenario scenario = parse_scenario(R"({
    "name": "t", "duration_ms": 600000, "nameservers": {"count": 2},
    "broker_groups": [{"name": "broker-a"}], "topics": [{"name": "T"}],
    "faults": [{"kind": "kill", "nameserver": "ns-1", "at_ms": 200000, "duration_ms": 10000}]
  })",
                                           "t.json", {});
  const Topology topology = build_topology(scenario);
  const std::string addr =
      topology.nodes[static_cast<std::size_t>(topology.brokers[0])].broker_addr;
  const json held = {{"broker-a", {{"0", addr}}}};
  const std::vector<Event> events = {
      start(0, "ns-0"),
      start(0, "ns-1"),
      view(10000, "ns-0", held),
      view(10000, "ns-1", held),
      fault_event(200000, EventKind::kFaultBegin, 0, "kill", "ns-1"),
      {300000,
       "ns-0",
       EventKind::kBrokerRemoved,
       {{"broker_addr", addr}, {"path", "scan_expiry"}, {"removed_from_routes", true}}},
      view(300000, "ns-0", {{"broker-a", nullptr}}),
  };
  const json timelines = timelines_json(scenario, topology, events, RouteReplay(scenario, events));
  const json& in_routes = timelines["brokers"][0]["in_routes"];
  EXPECT_EQ(in_routes[0]["intervals"], json::parse(R"([{"start_ms": 10000, "end_ms": 300000}])"));
  EXPECT_EQ(in_routes[1]["intervals"], json::parse(R"([{"start_ms": 10000, "end_ms": 200000}])"));
  ASSERT_EQ(timelines["detections"].size(), 1u);
  EXPECT_EQ(timelines["detections"][0]["broker_node"], "broker-a-0");
  EXPECT_EQ(timelines["detections"][0]["path"], "scan_expiry");
  EXPECT_EQ(timelines["nameservers"][1]["process"][1]["state"], "down");
}

}  // namespace
}  // namespace nssim::sim

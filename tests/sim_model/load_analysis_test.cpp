// The server load figures from hand-made counts: a request at 999 ms and one at 1000 ms fall into
// buckets 0 and 1, a bucket that starts at the scenario's end is left out, a mean divides by the
// scenario's length, the route queries the producers report count as GET_ROUTEINFO_BY_TOPIC when
// answered only, and a broker's registrations are the REGISTER_BROKER requests it sent.
#include "sim/analysis/load_analysis.h"

#include <gtest/gtest.h>

#include "nameserver_core/remoting.h"

namespace nssim::sim {
namespace {

namespace code = core::request_code;

Topology two_nameservers_one_broker() {
  Topology topology;
  for (const char* name : {"ns-0", "ns-1", "broker-a-0"}) {
    TopologyNode node;
    node.name = name;
    node.role = std::string(name).rfind("ns-", 0) == 0 ? NodeRole::kNameServer : NodeRole::kBroker;
    const auto id = static_cast<NodeId>(topology.nodes.size());
    topology.by_name[name] = id;
    (node.role == NodeRole::kNameServer ? topology.nameservers : topology.brokers).push_back(id);
    topology.nodes.push_back(node);
  }
  return topology;
}

TEST(LoadAnalysis, RequestsFallIntoOneSecondBucketsBeforeTheEnd) {
  NameServerRequests requests;
  requests.add("ns-0", code::kGetRouteinfoByTopic, 999);
  requests.add("ns-0", code::kGetRouteinfoByTopic, 1000);
  requests.add("ns-0", code::kGetRouteinfoByTopic, 1999);
  requests.add("ns-0", code::kRegisterBroker, 1500, "broker-a-0");
  requests.add("ns-0", code::kGetRouteinfoByTopic, 4000);  // the bucket at the end: left out
  const auto load = nameserver_load_json(two_nameservers_one_broker(), requests, 4000);
  const auto& ns0 = load["per_nameserver"]["ns-0"];
  EXPECT_EQ(ns0["total"], 4);
  EXPECT_EQ(ns0["peak_per_s"], 3);  // bucket 1: 1000, 1999 and the registration at 1500
  const auto& routes = ns0["by_code"]["GET_ROUTEINFO_BY_TOPIC"];
  EXPECT_EQ(routes["total"], 3);
  EXPECT_EQ(routes["peak_per_s"], 2);
  EXPECT_DOUBLE_EQ(routes["mean_per_s"].get<double>(), 0.75);
  // A NameServer that served nothing is listed with zeros.
  EXPECT_EQ(load["per_nameserver"]["ns-1"]["total"], 0);
  EXPECT_EQ(load["max_per_nameserver"]["peak_per_s"], 3);
  EXPECT_EQ(load["by_code"]["REGISTER_BROKER"]["total"], 1);
  EXPECT_EQ(load["bucket_ms"], 1000);
}

TEST(LoadAnalysis, OnlyAnsweredRouteQueriesCountAndRegistrationsCountPerBroker) {
  NameServerRequests requests;
  SendStats sends({}, nullptr, &requests);
  auto& producer = sends.observer_for("producer-0", "app");
  producer.on_route_update({"TopicTest", {"ns-1", 10, "ok", 12}, 14, {}, {}});
  producer.on_route_update({"TopicTest", {"ns-1", 20, "topic_not_exist", 21}, 22, {}, {}});
  producer.on_route_update({"TopicTest", {"ns-1", 30, "request_timeout"}, 3030, {}, {}});
  requests.add("ns-0", code::kRegisterBroker, 100, "broker-a-0");
  requests.add("ns-1", code::kRegisterBroker, 110, "broker-a-0");
  requests.add("ns-1", code::kQueryDataVersion, 120, "broker-a-0");
  const Topology topology = two_nameservers_one_broker();
  const auto load = nameserver_load_json(topology, requests, 10'000);
  EXPECT_EQ(load["per_nameserver"]["ns-1"]["by_code"]["GET_ROUTEINFO_BY_TOPIC"]["total"], 2);
  const auto brokers = broker_load_json(topology, requests, sends, 10'000);
  ASSERT_EQ(brokers["per_broker"].size(), 1u);
  EXPECT_EQ(brokers["per_broker"][0]["registrations"], 2);
  EXPECT_DOUBLE_EQ(brokers["per_broker"][0]["registrations_per_s"].get<double>(), 0.2);
  EXPECT_EQ(brokers["heartbeats_processed"], 0);
}

}  // namespace
}  // namespace nssim::sim

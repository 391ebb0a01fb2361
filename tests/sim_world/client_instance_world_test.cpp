// A second producer set in the first one's client instances (instance_of), through the whole
// run: its sends are counted under its own group, while the instances stay four, each with one
// scheduler thread that heartbeats each master once per run whatever the number of producers in
// it, and that polls both sets' topics.
#include <gtest/gtest.h>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

// small_cluster's 4 producers (TopicTest, 5/s) and, when `shared`, an "audit" set at 2/s on a
// topic of its own in their instances, as the loader builds it.
Scenario cluster(core::Profile profile, bool shared) {
  Scenario s = small_cluster(profile, 3);
  TopicSpec audit_topic = s.topics[0];
  audit_topic.name = "Audit";
  s.topics.push_back(audit_topic);
  if (shared) {
    ProducerSpec audit = s.producers[0];
    audit.name_prefix = "audit";
    audit.topics = {"Audit"};
    audit.rate_per_s = 2;
    audit.instance_of = 0;
    s.producers.push_back(audit);
  }
  return s;
}

class ClientInstanceWorld : public ::testing::TestWithParam<core::Profile> {};

TEST_P(ClientInstanceWorld, ASecondSetSendsOnItsOwnThroughTheSameInstances) {
  const auto alone = run_isolated(cluster(GetParam(), false));
  const auto shared = run_isolated(cluster(GetParam(), true));
  ASSERT_FALSE(alone.contains("error") || shared.contains("error"));
  const auto& groups = shared["sends_by_producer_group"];
  ASSERT_EQ(groups.size(), 2u);
  EXPECT_EQ(groups[0]["producer_group"], "producer");
  EXPECT_EQ(groups[1]["producer_group"], "audit");
  // Both sets start with their processes (15 to 45 s) and send to the end (600 s): 4 producers
  // x 2/s x between 555 and 585 s.
  const auto audit_sends = groups[1]["total"].get<std::int64_t>();
  EXPECT_GE(audit_sends, 4 * 2 * 555);
  EXPECT_LE(audit_sends, 4 * 2 * 585 + 4);
  EXPECT_EQ(groups[1]["failed"]["total"], 0);
  // The first set's sends are the ones it makes alone: its arrivals do not depend on the other.
  EXPECT_EQ(groups[0]["total"], alone["sends_by_producer_group"][0]["total"]);
  // Four instances, the same heartbeat runs and heartbeats as without the second set (both
  // masters, every 30 s); their route polls now ask for both topics.
  const auto& scheduler = shared["client_scheduler"];
  EXPECT_EQ(scheduler["clients"], 4);
  EXPECT_EQ(scheduler["heartbeat_runs"], alone["client_scheduler"]["heartbeat_runs"]);
  EXPECT_EQ(scheduler["heartbeat_attempts"], alone["client_scheduler"]["heartbeat_attempts"]);
  EXPECT_EQ(scheduler["route_polls"], alone["client_scheduler"]["route_polls"]);
}

INSTANTIATE_TEST_SUITE_P(Simulator, ClientInstanceWorld,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

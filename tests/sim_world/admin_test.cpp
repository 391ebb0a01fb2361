// Admin operations in the simulated cluster: a topic spread to a new group with mqadmin
// updateTopic and a group's write permission wiped reach every producer at its next route poll,
// within pollNameServerInterval plus the route request's timeout, with no send failing.
#include <gtest/gtest.h>

#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kPollBoundMs = 30000 + 3000;

Scenario topic_only_on_broker_a(core::Profile profile, std::uint64_t seed) {
  Scenario s = small_cluster(profile, seed);
  s.topics[0].groups = {"broker-a"};
  return s;
}

FaultSpec admin(FaultKind kind, const std::string& group, std::int64_t at_ms) {
  FaultSpec fault;
  fault.kind = kind;
  fault.at_ms = at_ms;
  fault.broker_name = group;
  if (kind == FaultKind::kUpdateTopic) {
    fault.topic = "TopicTest";
    fault.read_queue_nums = 4;
    fault.write_queue_nums = 4;
  }
  return fault;
}

void expect_every_producer_followed(const nlohmann::json& entry, std::uint64_t seed) {
  EXPECT_EQ(entry["producers"]["affected"], 4) << "seed " << seed << ": " << entry.dump();
  const auto& followed = entry["producers"]["followed_ms"];
  EXPECT_EQ(followed["never"], 0) << "seed " << seed << ": " << entry.dump();
  ASSERT_FALSE(followed["max"].is_null()) << entry.dump();
  EXPECT_LE(followed["max"].get<std::int64_t>(), kPollBoundMs) << "seed " << seed;
  EXPECT_EQ(entry["predicted"]["followed_ms"]["max_ms"], kPollBoundMs);
}

class AdminOperations : public ::testing::TestWithParam<core::Profile> {};

TEST_P(AdminOperations, TopicSpreadToANewGroupThenDrainedFromTheOldOneWithoutFailedSends) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Scenario s = topic_only_on_broker_a(GetParam(), seed);
    s.faults.push_back(admin(FaultKind::kUpdateTopic, "broker-b", 200000));
    s.faults.push_back(admin(FaultKind::kWipeWritePerm, "broker-a", 300000));
    const auto result = run_isolated(s);
    ASSERT_FALSE(result.contains("error")) << result.dump();
    ASSERT_EQ(result["admin"].size(), 2u);
    EXPECT_EQ(result["admin"][0]["producers_should"], "gain");
    EXPECT_EQ(result["admin"][1]["producers_should"], "lose");
    expect_every_producer_followed(result["admin"][0], seed);
    expect_every_producer_followed(result["admin"][1], seed);
    EXPECT_EQ(result["outages"].size(), 0u);  // admin operations are not outages
    EXPECT_EQ(result["sends"]["failed"]["total"], 0) << "seed " << seed;
  }
}

// mqadmin wipeWritePerm then addWritePerm (ADD_WRITE_PERM_OF_BROKER): producers lose broker-b's
// queues at their next poll after the first, and gain them back at their next poll after the
// second, each within pollNameServerInterval plus the route request's timeout; broker-a carries
// the load meanwhile, so no send fails.
TEST_P(AdminOperations, WritePermissionWipedThenAddedBackReachesEveryProducer) {
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    Scenario s = small_cluster(GetParam(), seed);
    s.faults.push_back(admin(FaultKind::kWipeWritePerm, "broker-b", 200000));
    s.faults.push_back(admin(FaultKind::kAddWritePerm, "broker-b", 320000));
    const auto result = run_isolated(s);
    ASSERT_FALSE(result.contains("error")) << result.dump();
    ASSERT_EQ(result["admin"].size(), 2u);
    EXPECT_EQ(result["admin"][0]["kind"], "wipeWritePerm");
    EXPECT_EQ(result["admin"][0]["producers_should"], "lose");
    EXPECT_EQ(result["admin"][1]["kind"], "addWritePerm");
    EXPECT_EQ(result["admin"][1]["producers_should"], "gain");
    expect_every_producer_followed(result["admin"][0], seed);
    expect_every_producer_followed(result["admin"][1], seed);
    EXPECT_EQ(result["sends"]["failed"]["total"], 0) << "seed " << seed;
    // No attempt reaches broker-b between the last producer's letting go and the add.
    const std::int64_t gone_ms =
        200000 + result["admin"][0]["producers"]["followed_ms"]["max"].get<std::int64_t>();
    for (const auto& second : result["timeseries"]) {
      const std::int64_t t_ms = second["t_s"].get<std::int64_t>() * 1000;
      if (t_ms > gone_ms + 1000 && t_ms + 1000 < 320000) {
        EXPECT_FALSE(second["ok_by_broker"].contains("broker-b")) << second.dump();
      }
    }
  }
}

TEST_P(AdminOperations, UpdateTopicOnAPausedMasterChangesNothing) {
  Scenario s = with_fault(topic_only_on_broker_a(GetParam(), 1), FaultKind::kPause, 100000,
                          std::int64_t{200000});
  s.faults[0].nodes = {"broker-b-0"};
  s.faults.push_back(admin(FaultKind::kUpdateTopic, "broker-b", 200000));
  const auto result = run_isolated(s);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const auto& entry = result["admin"].at(0);
  EXPECT_EQ(entry["producers"]["followed_ms"]["never"], 4) << entry.dump();
}

INSTANTIATE_TEST_SUITE_P(Simulator, AdminOperations,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         [](const auto& param_info) {
                           return param_info.param == core::Profile::kV4_9 ? "V49" : "V5x";
                         });

}  // namespace
}  // namespace nssim::sim::testing

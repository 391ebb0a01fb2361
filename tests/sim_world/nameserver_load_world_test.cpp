// A setting's price in a whole simulation, both profiles: a 5 s route poll (pollNameServerInterval)
// against the default 30 s. Every client instance polls each of its topics once per period from
// 10 ms after it starts (MQClientInstance#startScheduledTask), so the NameServers together serve
// topics x rounds GET_ROUTEINFO_BY_TOPIC (105) per producer, rounds counted from its start, plus
// the few queries of the first sends, which find no publish info yet (the topic's, then the
// default topic's): about 6x at 5 s.
#include <gtest/gtest.h>

#include <cmath>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace nameserver_load_world {  // named: a unity batch shares file scope

constexpr std::int64_t kDurationMs = 300'000;
constexpr std::int64_t kProducers = 4;
constexpr std::int64_t kTopics = 2;

Scenario polling_every(core::Profile profile, std::int64_t poll_ms) {
  Scenario s = small_cluster(profile, 7);
  s.duration_ms = kDurationMs;
  TopicSpec second = s.topics[0];
  second.name = "TopicOther";
  s.topics.push_back(second);
  s.producers[0].count = kProducers;
  s.producers[0].topics = {"TopicTest", "TopicOther"};
  s.producers[0].config.poll_name_server_interval = poll_ms;
  return s;
}

// Rounds due in [start + 10 ms, end_ms) of a client instance started at start_ms.
std::int64_t rounds_before(std::int64_t start_ms, std::int64_t end_ms, std::int64_t poll_ms) {
  const std::int64_t first = start_ms + 10;
  return first < end_ms ? (end_ms - first - 1) / poll_ms + 1 : 0;
}

std::int64_t route_queries(const nlohmann::json& result) {
  return result["nameserver_load"]["by_code"]["GET_ROUTEINFO_BY_TOPIC"]["total"]
      .get<std::int64_t>();
}

// Poll rounds of every producer due before end_ms, times its topics.
std::int64_t polls_before(const nlohmann::json& result, std::int64_t end_ms, std::int64_t poll_ms) {
  std::int64_t polls = 0;
  for (const auto& node : result["nodes"]) {
    if (node["role"] != "producer") continue;
    polls += kTopics * rounds_before(node["start_ms"].get<std::int64_t>(), end_ms, poll_ms);
  }
  return polls;
}

class NameServerLoadWorld : public ::testing::TestWithParam<core::Profile> {};

TEST_P(NameServerLoadWorld, AFiveSecondRoutePollCostsAboutSixTimesTheRouteQueries) {
  std::map<std::int64_t, std::int64_t> served;
  std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> bounds;
  for (const std::int64_t poll_ms : {30'000, 5'000}) {
    const auto result = run_isolated(polling_every(GetParam(), poll_ms));
    ASSERT_FALSE(result.contains("error")) << result.dump();
    const std::int64_t queries = route_queries(result);
    // A round due in the last second may be served after the end; the first sends ask the topic
    // and then the default topic before any route reached the producer: at most 2 per topic.
    const std::int64_t low = polls_before(result, kDurationMs - 1000, poll_ms);
    const std::int64_t high = polls_before(result, kDurationMs, poll_ms) + 2 * kProducers * kTopics;
    EXPECT_GE(queries, low) << poll_ms;
    EXPECT_LE(queries, high) << poll_ms;
    const auto& load = result["nameserver_load"];
    EXPECT_DOUBLE_EQ(
        load["by_code"]["GET_ROUTEINFO_BY_TOPIC"]["mean_per_s"].get<double>(),
        std::round(static_cast<double>(queries) / (kDurationMs / 1000.0) * 1000) / 1000);
    // The per-NameServer counts add up to the whole.
    std::int64_t per_nameserver = 0;
    for (const auto& [node, counts] : load["per_nameserver"].items()) {
      const auto& by_code = counts["by_code"];
      if (by_code.contains("GET_ROUTEINFO_BY_TOPIC")) {
        per_nameserver += by_code["GET_ROUTEINFO_BY_TOPIC"]["total"].get<std::int64_t>();
      }
    }
    EXPECT_EQ(per_nameserver, queries);
    served[poll_ms] = queries;
    bounds[poll_ms] = {low, high};
  }
  const double ratio = static_cast<double>(served[5'000]) / static_cast<double>(served[30'000]);
  const auto as_double = [](std::int64_t n) { return static_cast<double>(n); };
  EXPECT_GE(ratio, as_double(bounds[5'000].first) / as_double(bounds[30'000].second));
  EXPECT_LE(ratio, as_double(bounds[5'000].second) / as_double(bounds[30'000].first));
  // About 6x: 30 s / 5 s, less what the producers' staggered starts take from each side.
  EXPECT_GE(ratio, 5.0) << served[5'000] << " / " << served[30'000];
  EXPECT_LE(ratio, 6.2) << served[5'000] << " / " << served[30'000];
}

INSTANTIATE_TEST_SUITE_P(Simulator, NameServerLoadWorld,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace nameserver_load_world
}  // namespace nssim::sim::testing

// trace.jsonl of a simulated broker kill: one line per attempt and per send without one, matching
// result.json's counts; retries onto the other broker after a failed attempt; route updates that
// lose broker-a after the kill and gain it back after the restart; one global order; and the run's
// result unchanged by tracing.
#include <gtest/gtest.h>

#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "sim_world/profile_param.h"
#include "sim_world/run_isolated.h"
#include "sim_world/scenario_builder.h"

namespace nssim::sim::testing {
namespace {

constexpr std::int64_t kKillAtMs = 240000;
constexpr std::int64_t kTraceDownMs = 120000;

std::vector<nlohmann::json> trace_lines(const nlohmann::json& result) {
  std::vector<nlohmann::json> lines;
  std::istringstream in(result.at("trace").get<std::string>());
  for (std::string line; std::getline(in, line);) lines.push_back(nlohmann::json::parse(line));
  return lines;
}

class Trace : public ::testing::TestWithParam<core::Profile> {
 protected:
  static Scenario kill() {
    return with_fault(small_cluster(GetParam(), 3), FaultKind::kKill, kKillAtMs, kTraceDownMs);
  }
};

TEST_P(Trace, HoldsALinePerAttemptAndPerSendWithoutOne) {
  const auto result = run_isolated(kill(), nullptr, /*trace=*/true);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  std::int64_t attempts = 0;
  std::int64_t sends = 0;
  std::int64_t failed = 0;
  for (const auto& line : trace_lines(result)) {
    const std::string kind = line["kind"];
    if (kind == "attempt") {
      ++attempts;
      if (line["ended_send"].get<bool>()) {
        ++sends;
        failed += line["send_cause"] != "ok";
      }
    } else if (kind == "send_without_attempt") {
      ++sends;
      ++failed;
    }
  }
  EXPECT_EQ(attempts, result["sends"]["attempts"].get<std::int64_t>());
  EXPECT_EQ(sends, result["sends"]["total"].get<std::int64_t>());
  EXPECT_EQ(failed, result["sends"]["failed"]["total"].get<std::int64_t>());
}

TEST_P(Trace, AFailedAttemptOnTheKilledBrokerIsRetriedOnTheOther) {
  const auto result = run_isolated(kill(), nullptr, /*trace=*/true);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  // (producer, send start) -> the send's attempts, in order.
  std::map<std::pair<std::string, std::int64_t>, std::vector<nlohmann::json>> by_send;
  for (const auto& line : trace_lines(result)) {
    if (line["kind"] != "attempt") continue;
    by_send[{line["producer"], line["send_start_ms"]}].push_back(line);
  }
  int retried = 0;
  for (const auto& [send, attempts] : by_send) {
    if (attempts.size() < 2) continue;
    ++retried;
    const auto& first = attempts[0];
    const auto& second = attempts[1];
    EXPECT_EQ(first["broker"], "broker-a");
    EXPECT_GE(first["t_ms"].get<std::int64_t>(), kKillAtMs);
    EXPECT_TRUE(first["cause"] == "connect_refused" || first["cause"] == "connection_reset" ||
                first["cause"] == "request_timeout")
        << first.dump();
    EXPECT_EQ(first["retry"], 0);
    EXPECT_FALSE(first["ended_send"].get<bool>());
    EXPECT_FALSE(first.contains("send_cause"));
    EXPECT_EQ(second["retry"], 1);
    EXPECT_EQ(second["broker"], "broker-b");
    EXPECT_EQ(second["start_ms"], first["t_ms"]);  // "resend at once"
    EXPECT_EQ(second["producer_group"], "producer");
    EXPECT_GE(second["queue_id"].get<int>(), 0);
    EXPECT_LT(second["queue_id"].get<int>(), 4);
  }
  EXPECT_GT(retried, 0);
}

TEST_P(Trace, RouteUpdatesLoseTheKilledBrokerAndGainItBack) {
  const auto result = run_isolated(kill(), nullptr, /*trace=*/true);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  // producer -> (first instant it lost broker-a after the kill, first it gained it after that)
  std::map<std::string, std::pair<std::int64_t, std::int64_t>> producers;
  int polls = 0;
  for (const auto& line : trace_lines(result)) {
    if (line["kind"] != "route_update") continue;
    ++polls;
    EXPECT_EQ(line["topic"], "TopicTest");
    EXPECT_EQ(line["nameserver"].get<std::string>().rfind("ns-", 0), 0u) << line.dump();
    EXPECT_LE(line["asked_ms"].get<std::int64_t>(), line["t_ms"].get<std::int64_t>());
    auto& [lost, gained] = producers.try_emplace(line["producer"], -1, -1).first->second;
    const std::int64_t t = line["t_ms"];
    if (lost < 0 && t >= kKillAtMs && line["lost"] == nlohmann::json{"broker-a"}) lost = t;
    if (lost >= 0 && gained < 0 && line["gained"] == nlohmann::json{"broker-a"}) gained = t;
  }
  EXPECT_GE(polls, 4 * 15);  // four producers polling every 30 s over at least 7.5 minutes
  ASSERT_EQ(producers.size(), 4u);
  for (const auto& [producer, instants] : producers) {
    EXPECT_GT(instants.first, kKillAtMs) << producer;
    EXPECT_LT(instants.first, kKillAtMs + kTraceDownMs) << producer;
    EXPECT_GT(instants.second, kKillAtMs + kTraceDownMs) << producer;
  }
}

TEST_P(Trace, LinesAreInOneOrderByTimeThenProducer) {
  const auto result = run_isolated(kill(), nullptr, /*trace=*/true);
  ASSERT_FALSE(result.contains("error")) << result.dump();
  const auto lines = trace_lines(result);
  ASSERT_GT(lines.size(), 1000u);
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto before = std::make_tuple(lines[i - 1]["t_ms"].get<std::int64_t>(),
                                        lines[i - 1]["producer"].get<std::string>());
    const auto after = std::make_tuple(lines[i]["t_ms"].get<std::int64_t>(),
                                       lines[i]["producer"].get<std::string>());
    ASSERT_LE(before, after) << i;
  }
}

TEST_P(Trace, TracingChangesNothingElse) {
  const auto plain = run_isolated(kill());
  auto traced = run_isolated(kill(), nullptr, /*trace=*/true);
  ASSERT_FALSE(traced.contains("error")) << traced.dump();
  traced.erase("trace");
  EXPECT_EQ(plain, traced);
}

INSTANTIATE_TEST_SUITE_P(Simulator, Trace,
                         ::testing::Values(core::Profile::kV4_9, core::Profile::kV5),
                         profile_param_name);

}  // namespace
}  // namespace nssim::sim::testing

// The trace size estimate from a scenario (sends times the length of a real attempt line, plus the
// route polls), and --trace-limit's byte counts at their boundaries.
#include "sim/record/trace_budget.h"

#include <gtest/gtest.h>

#include <limits>
#include <string>

namespace nssim::sim {
namespace {

// One producer "app-0" at 10 sends/s from 0 to 60 s on TopicTest (groups broker-a, broker-bb),
// polling every 30 s: 600 sends and polls at 10 and 30010 ms.
Scenario one_producer() {
  Scenario s;
  s.duration_ms = 60000;
  s.nameservers.count = 2;
  TopicSpec topic;
  topic.name = "TopicTest";
  topic.groups = {"broker-a", "broker-bb"};
  topic.write_queue_nums = 16;
  s.topics.push_back(topic);
  ProducerSpec producer;
  producer.name_prefix = "app";
  producer.count = 1;
  producer.topics = {"TopicTest"};
  producer.rate_per_s = 10.0;
  producer.start = StartSpec{0, 0};
  s.producers.push_back(producer);
  return s;
}

// The lines the estimate takes for that scenario: the longest group, the last queue, the duration.
const std::string kAttemptLine =
    "{\"t_ms\":60000,\"kind\":\"attempt\",\"producer\":\"app-0\",\"producer_group\":\"app\","
    "\"topic\":\"TopicTest\",\"broker\":\"broker-bb\",\"queue_id\":15,\"send_start_ms\":60000,"
    "\"start_ms\":60000,\"cause\":\"ok\",\"retry\":0,\"ended_send\":true,\"send_cause\":\"ok\"}\n";
const std::string kRouteLine =
    "{\"t_ms\":60000,\"kind\":\"route_update\",\"producer\":\"app-0\",\"topic\":\"TopicTest\","
    "\"nameserver\":\"ns-1\",\"asked_ms\":60000,\"outcome\":\"ok\",\"gained\":[],\"lost\":[]}\n";

TEST(TraceBudget, EstimateIsSendsTimesAnAttemptLinePlusOneRouteLinePerPoll) {
  EXPECT_EQ(estimate_trace_bytes(one_producer()),
            600 * kAttemptLine.size() + 2 * kRouteLine.size());
}

TEST(TraceBudget, EstimateCountsFromTheEarliestStartAndEveryProducerAndTopic) {
  Scenario s = one_producer();
  s.producers[0].start = StartSpec{30000, 45000};  // 300 sends, one poll (at 30010)
  EXPECT_EQ(estimate_trace_bytes(s), 300 * kAttemptLine.size() + kRouteLine.size());
  s.producers[0].start = StartSpec{0, 0};
  s.producers[0].count = 3;  // app-2 is as long as app-0
  s.producers[0].topics = {"TopicTest", "TopicTest"};
  EXPECT_EQ(estimate_trace_bytes(s), 3 * (600 * kAttemptLine.size() + 4 * kRouteLine.size()));
  s.producers[0].config.poll_name_server_interval = 60000;  // at 10 only: 60010 is past the end
  EXPECT_EQ(estimate_trace_bytes(s), 3 * (600 * kAttemptLine.size() + 2 * kRouteLine.size()));
  s.producers[0].rate_per_s = 0.0;
  s.duration_ms = 10;  // no poll before the end
  EXPECT_EQ(estimate_trace_bytes(s), 0u);
}

// Polls are asked at 10, 30010, ...; one asked at the end is answered after it, untraced.
TEST(TraceBudget, EstimateCountsThePollsAskedBeforeTheEnd) {
  Scenario s = one_producer();
  s.producers[0].rate_per_s = 0.0;
  s.duration_ms = 60010;
  EXPECT_EQ(estimate_trace_bytes(s), 2 * kRouteLine.size());
  s.duration_ms = 60011;
  EXPECT_EQ(estimate_trace_bytes(s), 3 * kRouteLine.size());
}

TEST(TraceBudget, ByteCountsArePlainOrInPowersOf1024) {
  EXPECT_EQ(parse_byte_count("1"), 1u);
  EXPECT_EQ(parse_byte_count("1073741824"), 1073741824u);
  EXPECT_EQ(parse_byte_count("500M"), 500u << 20);
  EXPECT_EQ(parse_byte_count("500m"), 500u << 20);
  EXPECT_EQ(parse_byte_count("2G"), std::uint64_t{2} << 30);
  EXPECT_EQ(parse_byte_count("3k"), 3072u);
  EXPECT_EQ(parse_byte_count("16777215T"), std::uint64_t{16777215} << 40);
  EXPECT_EQ(parse_byte_count("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
}

TEST(TraceBudget, AnythingElseIsNoByteCount) {
  for (const char* bad : {"", "0", "0G", "G", "-1", "1.5G", "1GB", "1 G", " 1", "1e9", "2P",
                          "18446744073709551616", "16777216T", "99999999999999999999"}) {
    EXPECT_EQ(parse_byte_count(bad), std::nullopt) << bad;
  }
}

TEST(TraceBudget, MessagesNameTheSizeAndALimitThatLetsItThrough) {
  EXPECT_EQ(byte_count_text(1), "1 byte");
  EXPECT_EQ(byte_count_text(900), "900 bytes");
  EXPECT_EQ(byte_count_text(std::uint64_t{1} << 30), "1.0 GiB");
  EXPECT_EQ(byte_count_text(9771000000), "9.1 GiB");
  EXPECT_EQ(limit_to_allow(900), "900");
  EXPECT_EQ(limit_to_allow(1024), "1K");
  EXPECT_EQ(limit_to_allow(std::uint64_t{1} << 30), "1G");
  EXPECT_EQ(limit_to_allow((std::uint64_t{1} << 30) + 1), "2G");
  EXPECT_EQ(limit_to_allow(9771000000), "10G");
  for (const std::uint64_t bytes : {std::uint64_t{1}, std::uint64_t{1025}, std::uint64_t{628551234},
                                    std::uint64_t{9771000000}}) {
    const auto limit = parse_byte_count(limit_to_allow(bytes));
    ASSERT_TRUE(limit.has_value()) << bytes;
    EXPECT_GE(*limit, bytes);
  }
}

}  // namespace
}  // namespace nssim::sim

// trace.jsonl's lines, byte for byte per kind, and their order: reports that arrive out of order
// across producers (batches) and within one (a send's attempts at its end) come out by (t_ms,
// producer name, report order), each line written once every producer's frontier has passed it.
#include "sim/record/trace_writer.h"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace nssim::sim {
namespace {

SendRecord retried_send() {
  SendRecord send;
  send.topic = "TopicTest";
  send.start_ms = 1000;
  send.end_ms = 1305;
  send.cause = SendCause::kOk;
  send.attempts = {{"broker-a", 1000, 1300, SendCause::kConnectionReset, 3},
                   {"broker-b", 1300, 1305, SendCause::kOk, 1}};
  return send;
}

SendRecord send_at(std::int64_t start_ms, std::int64_t end_ms) {
  SendRecord send;
  send.topic = "T";
  send.start_ms = start_ms;
  send.end_ms = end_ms;
  send.attempts = {{"b", start_ms, end_ms, SendCause::kOk, 0}};
  return send;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(TraceLines, AttemptLinesSayTheQueueTheRetryAndWhichEndedTheSend) {
  std::string text;
  const SendRecord send = retried_send();
  append_attempt_line(text, {"app-0", "app"}, send, 0);
  append_attempt_line(text, {"app-0", "app"}, send, 1);
  EXPECT_EQ(text,
            "{\"t_ms\":1300,\"kind\":\"attempt\",\"producer\":\"app-0\",\"producer_group\":\"app\","
            "\"topic\":\"TopicTest\",\"broker\":\"broker-a\",\"queue_id\":3,\"send_start_ms\":1000,"
            "\"start_ms\":1000,\"cause\":\"connection_reset\",\"retry\":0,\"ended_send\":false}\n"
            "{\"t_ms\":1305,\"kind\":\"attempt\",\"producer\":\"app-0\",\"producer_group\":\"app\","
            "\"topic\":\"TopicTest\",\"broker\":\"broker-b\",\"queue_id\":1,\"send_start_ms\":1000,"
            "\"start_ms\":1300,\"cause\":\"ok\",\"retry\":1,\"ended_send\":true,"
            "\"send_cause\":\"ok\"}\n");
}

TEST(TraceLines, ASendWithoutAttemptAndARouteUpdateHaveTheirOwnLines) {
  SendRecord send;
  send.topic = "TopicTest";
  send.start_ms = 900;
  send.end_ms = 3900;
  send.cause = SendCause::kNoRoute;
  RouteUpdate update;
  update.topic = "TopicTest";
  update.query = RouteQuery{"ns-1", 30010, "ok"};
  update.answered_ms = 30012;
  update.gained = {"broker-a", "broker-c"};
  update.lost = {"broker-b"};
  std::string text;
  append_send_line(text, {"app-0", "app"}, send);
  append_route_line(text, {"app-0", "app"}, update);
  EXPECT_EQ(text,
            "{\"t_ms\":3900,\"kind\":\"send_without_attempt\",\"producer\":\"app-0\","
            "\"producer_group\":\"app\",\"topic\":\"TopicTest\",\"send_start_ms\":900,"
            "\"send_cause\":\"no_route\"}\n"
            "{\"t_ms\":30012,\"kind\":\"route_update\",\"producer\":\"app-0\",\"topic\":"
            "\"TopicTest\",\"nameserver\":\"ns-1\",\"asked_ms\":30010,\"outcome\":\"ok\","
            "\"gained\":[\"broker-a\",\"broker-c\"],\"lost\":[\"broker-b\"]}\n");
}

TEST(TraceLines, NamesAreEscapedAsJson) {
  std::string text;
  append_json_string(text, std::string("a\"b\\c\nd\x01"));
  EXPECT_EQ(text, "\"a\\\"b\\\\c\\u000ad\\u0001\"");
}

TEST(TraceWriter, LinesComeOutByTimeThenProducerNameThenReportOrder) {
  std::ostringstream out;
  TraceWriter writer(out);
  const std::size_t b = writer.add_producer("p-b", "p");
  const std::size_t a = writer.add_producer("p-a", "p");
  // p-b's batch first: a send ending at 20 and a retried send whose first attempt ended at 10.
  writer.on_send(b, send_at(15, 20));
  SendRecord retried = send_at(5, 10);
  retried.attempts.push_back({"c", 10, 30, SendCause::kOk, 2});
  retried.end_ms = 30;
  writer.on_send(b, retried);
  writer.on_frontier(b, 40);
  EXPECT_EQ(out.str(), "");  // p-a may still report anything
  // Then p-a's batch, which ends at the same instants.
  writer.on_send(a, send_at(8, 10));
  writer.on_send(a, send_at(18, 20));
  writer.on_frontier(a, 20);
  // Everything before 20 is final: the two lines at 10, p-a's first.
  auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("\"t_ms\":10,\"kind\":\"attempt\",\"producer\":\"p-a\""),
            std::string::npos);
  EXPECT_NE(lines[1].find("\"t_ms\":10,\"kind\":\"attempt\",\"producer\":\"p-b\""),
            std::string::npos);
  EXPECT_EQ(writer.held_lines(), 3u);
  writer.finish();
  lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 5u);
  EXPECT_NE(lines[2].find("\"t_ms\":20,\"kind\":\"attempt\",\"producer\":\"p-a\""),
            std::string::npos);
  EXPECT_NE(lines[3].find("\"t_ms\":20,\"kind\":\"attempt\",\"producer\":\"p-b\""),
            std::string::npos);
  EXPECT_NE(lines[4].find("\"t_ms\":30,\"kind\":\"attempt\",\"producer\":\"p-b\""),
            std::string::npos);
  EXPECT_NE(lines[4].find("\"retry\":1,\"ended_send\":true"), std::string::npos);
  EXPECT_EQ(writer.held_lines(), 0u);
}

TEST(TraceWriter, ALineAtTheFrontierWaitsForTheNextOne) {
  std::ostringstream out;
  TraceWriter writer(out);
  const std::size_t p = writer.add_producer("p-0", "p");
  writer.on_send(p, send_at(5, 10));
  writer.on_frontier(p, 10);
  EXPECT_EQ(out.str(), "");  // another line may still end at 10
  writer.on_frontier(p, 11);
  EXPECT_EQ(lines_of(out.str()).size(), 1u);
}

TEST(TraceWriter, AProducerAddedLateHoldsNothingWrittenBack) {
  std::ostringstream out;
  TraceWriter writer(out);
  const std::size_t first = writer.add_producer("p-1", "p");
  writer.on_send(first, send_at(5, 10));
  writer.on_frontier(first, 50);
  ASSERT_EQ(lines_of(out.str()).size(), 1u);
  const std::size_t late = writer.add_producer("p-0", "p");
  writer.on_send(first, send_at(55, 60));
  writer.on_frontier(first, 100);
  EXPECT_EQ(lines_of(out.str()).size(), 1u);  // the late one has not advanced yet
  writer.on_send(late, send_at(58, 60));
  writer.on_frontier(late, 100);
  const auto lines = lines_of(out.str());
  ASSERT_EQ(lines.size(), 3u);
  EXPECT_NE(lines[1].find("\"producer\":\"p-0\""), std::string::npos);
  EXPECT_NE(lines[2].find("\"producer\":\"p-1\""), std::string::npos);
}

}  // namespace
}  // namespace nssim::sim

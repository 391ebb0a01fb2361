// ReplaySession in-process: the line format, its defaults and every malformed-line message.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "nameserver_codec/replay.h"

namespace nssim::codec {
namespace {

using core::Profile;

const char* kRegister =
    R"({"at_ms": 1000, "code": 103, "channel": "b0", "extFields": {"brokerName": "broker-a",)"
    R"( "brokerAddr": "10.0.0.1:10911", "clusterName": "c", "haServerAddr": "10.0.0.1:10912",)"
    R"( "brokerId": 0, "enableActingMaster": false}, "body": {"topicConfigSerializeWrapper":)"
    R"( {"topicConfigTable": {"T1": {"topicName": "T1"}, "T2": {"topicName": "T2"}}}}})";

TEST(ReplaySession, RequestLineAnswersCodeRemarkExtFieldsAndBody) {
  ReplaySession session(Profile::kV5, {});
  EXPECT_EQ(session.process_line(kRegister),
            R"({"code":0,"remark":null,"extFields":{},"body":null})");
  EXPECT_EQ(
      session.process_line(R"({"code": 101, "extFields": {"namespace": "n", "key": "k"}})"),
      R"({"code":22,"remark":"No config item, Namespace: n Key: k","extFields":{},"body":null})");
  EXPECT_FALSE(session.had_errors());
}

TEST(ReplaySession, ExtFieldNumbersAndBooleansBecomeJavaStrings) {
  ReplaySession session(Profile::kV5, {});
  session.process_line(
      R"({"code": 100, "extFields": {"namespace": "n", "key": "k", "value": -12}})");
  session.process_line(
      R"({"code": 100, "extFields": {"namespace": "n", "key": "b", "value": true}})");
  EXPECT_EQ(session.name_server().kv_config_manager().get_kv_config("n", "k"), "-12");
  EXPECT_EQ(session.name_server().kv_config_manager().get_kv_config("n", "b"), "true");
}

TEST(ReplaySession, OnewayAnd49UnknownCodesGetNoResponse) {
  ReplaySession v4(Profile::kV4_9, {});
  EXPECT_EQ(v4.process_line(R"({"code": 904})"), R"({"noResponse":true})");
  ReplaySession v5(Profile::kV5, {});
  EXPECT_EQ(v5.process_line(R"({"code": 106, "oneway": true})"), R"({"noResponse":true})");
}

TEST(ReplaySession, BodyChecksumIsOverTheRawBytes) {
  ReplaySession session(Profile::kV5, {});
  // The body {} is the bytes "{}"; the header carries UtilAll#crc32, the CRC without its top bit.
  const std::string line =
      R"({"code": 103, "extFields": {"brokerName": "b", "brokerAddr": "a", "clusterName": "c",)"
      R"( "brokerId": 0, "bodyCrc32": )";
  EXPECT_EQ(session.process_line(line + R"(1}, "body": {}})"),
            R"({"code":1,"remark":"crc32 not match","extFields":{},"body":null})");
  EXPECT_EQ(
      session.process_line(line + std::to_string(0xA3A6BF43u & 0x7FFFFFFFu) + R"(}, "body": {}})"),
      R"({"code":0,"remark":null,"extFields":{},"body":null})");
}

TEST(ReplaySession, ScanReportsRemovedAddressesIncludingThe5xBatch) {
  for (Profile profile : {Profile::kV4_9, Profile::kV5}) {
    ReplaySession session(profile, {});
    session.process_line(kRegister);
    EXPECT_EQ(session.process_line(R"({"at_ms": 121000, "event": "scan"})"),
              R"({"event":"scan","removed":[]})");
    EXPECT_EQ(session.process_line(R"({"at_ms": 121001, "event": "scan"})"),
              R"({"event":"scan","removed":["10.0.0.1:10911"]})");
  }
}

TEST(ReplaySession, CloseAndIdleRunTheDestroyPath) {
  ReplaySession session(Profile::kV5, {});
  session.process_line(kRegister);
  EXPECT_EQ(session.process_line(R"({"event": "close", "channel": "other"})"),
            R"({"event":"close","removed":[]})");
  EXPECT_EQ(session.process_line(R"({"event": "idle", "channel": "b0"})"),
            R"({"event":"idle","removed":["10.0.0.1:10911"]})");
  ReplaySession v4(Profile::kV4_9, {});
  v4.process_line(kRegister);
  EXPECT_EQ(
      v4.process_line(R"({"event": "close", "channel": "x", "remoteAddr": "10.0.0.1:10911"})"),
      R"({"event":"close","removed":["10.0.0.1:10911"]})");
}

std::string error_of(const std::string& line) {
  ReplaySession session(Profile::kV5, {});
  session.process_line(R"({"at_ms": 50, "code": 106})");
  const std::string output = session.process_line(line);
  EXPECT_TRUE(session.had_errors());
  return output;
}

TEST(ReplaySession, MalformedLinesAreReportedWithLineNumberAndPath) {
  EXPECT_EQ(error_of("{"),
            R"({"error":"line 2: expected a JSON object, got text that is not JSON"})");
  EXPECT_EQ(error_of(""),
            R"({"error":"line 2: expected a JSON object, got text that is not JSON"})");
  EXPECT_EQ(error_of("[1]"), R"({"error":"line 2: expected a JSON object"})");
  EXPECT_EQ(error_of(R"({"code": 106, "colour": 1})"),
            R"({"error":"line 2: colour: unknown field for a request line"})");
  EXPECT_EQ(error_of(R"({"channel": "x"})"),
            R"j({"error":"line 2: code: expected a request code (or an \"event\" field)"})j");
  EXPECT_EQ(error_of(R"({"code": "106"})"),
            R"({"error":"line 2: code: expected a 32-bit integer"})");
  EXPECT_EQ(error_of(R"({"code": 106, "at_ms": 49})"),
            R"j({"error":"line 2: at_ms: must not decrease (the previous line is at 50)"})j");
  EXPECT_EQ(error_of(R"({"code": 106, "at_ms": 1.5})"),
            R"({"error":"line 2: at_ms: expected an integer"})");
  EXPECT_EQ(error_of(R"({"code": 106, "oneway": 1})"),
            R"({"error":"line 2: oneway: expected true or false"})");
  EXPECT_EQ(error_of(R"({"code": 106, "channel": 3})"),
            R"({"error":"line 2: channel: expected a string"})");
  EXPECT_EQ(error_of(R"({"code": 106, "version": 1e3})"),
            R"({"error":"line 2: version: expected a 32-bit integer"})");
  EXPECT_EQ(error_of(R"({"code": 106, "extFields": []})"),
            R"({"error":"line 2: extFields: expected an object of strings"})");
  EXPECT_EQ(error_of(R"({"code": 106, "extFields": {"a": 1.5}})"),
            R"({"error":"line 2: extFields.a: expected a string, an integer or a boolean"})");
  EXPECT_EQ(error_of(R"({"event": "reboot"})"),
            R"({"error":"line 2: event: expected scan, close or idle, got \"reboot\""})");
  EXPECT_EQ(error_of(R"({"event": 1})"), R"({"error":"line 2: event: expected a string"})");
  EXPECT_EQ(error_of(R"({"event": "scan", "channel": "b0"})"),
            R"({"error":"line 2: channel: unknown field for a scan event"})");
  EXPECT_EQ(error_of(R"({"event": "close", "code": 1})"),
            R"({"error":"line 2: code: unknown field for a channel event"})");
  EXPECT_EQ(error_of(R"({"event": "close", "remoteAddr": 1})"),
            R"({"error":"line 2: remoteAddr: expected a string"})");
}

// JSON text of `depth` nested levels: an object whose one unknown key holds depth - 1 arrays,
// which RegisterBrokerBody's binding ignores.
std::string nested_object(int depth) {
  return R"({"x": )" + std::string(depth - 1, '[') + std::string(depth - 1, ']') + "}";
}

std::string register_with_body(const std::string& body) {
  return R"({"code": 103, "extFields": {"brokerName": "b", "brokerAddr": "a", "clusterName": "c",)"
         R"( "brokerId": 0}, "body": )" +
         body + "}";
}

TEST(ReplaySession, ALineNestedDeeperThan64LevelsIsRefusedBeforeParsing) {
  ReplaySession session(Profile::kV5, {});
  // The line is the first level, so its body may nest 63 levels.
  EXPECT_EQ(session.process_line(register_with_body(nested_object(63))),
            R"({"code":0,"remark":null,"extFields":{},"body":null})");
  EXPECT_FALSE(session.had_errors());
  EXPECT_EQ(session.process_line(register_with_body(nested_object(64))),
            R"({"error":"line 2: expected JSON nested at most 64 levels deep"})");
  // 100,000 levels overflowed the stack when the parsed body was copied.
  EXPECT_EQ(session.process_line(register_with_body(nested_object(100000))),
            R"({"error":"line 3: expected JSON nested at most 64 levels deep"})");
  // Brackets inside strings are text, not nesting.
  EXPECT_EQ(session.process_line(
                R"({"code": 100, "extFields": {"namespace": "n", "key": "k", "value": ")" +
                std::string(100, '[') + R"(\"{"}})"),
            R"({"code":0,"remark":null,"extFields":{},"body":null})");
}

TEST(ReplaySession, ABodyTextNestedDeeperThan64LevelsFailsToDecode) {
  ReplaySession session(Profile::kV5, {});
  const auto as_text = [](const std::string& text) { return nlohmann::json(text).dump(); };
  EXPECT_EQ(session.process_line(register_with_body(as_text(nested_object(64)))),
            R"({"code":0,"remark":null,"extFields":{},"body":null})");
  for (int depth : {65, 100000}) {
    const std::string answer =
        session.process_line(register_with_body(as_text(nested_object(depth))));
    EXPECT_NE(answer.find(R"("code":1,)"), std::string::npos) << depth;
    EXPECT_NE(answer.find("Failed to decode RegisterBrokerBody"), std::string::npos) << depth;
  }
  EXPECT_FALSE(session.had_errors());
}

TEST(ReplaySession, AMalformedLineChangesNothingAndProcessingGoesOn) {
  ReplaySession session(Profile::kV5, {});
  session.process_line(
      R"({"at_ms": 10, "code": 100, "extFields": {"namespace": "n", "key": "k", "value": "v"}})");
  session.process_line(R"({"at_ms": 5, "code": 102, "extFields": {"namespace": "n", "key": "k"}})");
  EXPECT_EQ(session.name_server().kv_config_manager().get_kv_config("n", "k"), "v");
  EXPECT_EQ(session.process_line(R"({"code": 101, "extFields": {"namespace": "n", "key": "k"}})"),
            R"({"code":0,"remark":null,"extFields":{"value":"v"},"body":null})");
  EXPECT_TRUE(session.had_errors());
}

TEST(ReplaySession, AtMsDefaultsToThePreviousLine) {
  core::NamesrvConfig config;
  config.need_wait_for_service = true;
  config.wait_seconds_for_service = 1;
  ReplaySession session(Profile::kV5, config);
  EXPECT_EQ(session.process_line(R"({"code": 105, "extFields": {"topic": "T"}})"),
            R"({"code":1,"remark":"name server not ready","extFields":{},"body":null})");
  session.process_line(R"({"at_ms": 1000, "code": 106})");
  EXPECT_EQ(session.process_line(R"({"code": 105, "extFields": {"topic": "T"}})").substr(0, 10),
            R"({"code":17)");
}

}  // namespace
}  // namespace nssim::codec

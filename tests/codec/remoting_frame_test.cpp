// The remoting frame codec: whole frames out of bytes however they arrive, and one-line errors
// for what Java's NettyDecoder refuses.
#include "nameserver_codec/remoting_frame.h"

#include <gtest/gtest.h>

#include <string>

namespace nssim::codec {
namespace {

std::string u32(std::uint32_t value) {
  return {static_cast<char>(value >> 24), static_cast<char>((value >> 16) & 0xFF),
          static_cast<char>((value >> 8) & 0xFF), static_cast<char>(value & 0xFF)};
}

// A frame as a client writes it: lengths, then header text and body.
std::string raw_frame(const std::string& header, const std::string& body,
                      std::uint32_t serialize_type = 0) {
  return u32(static_cast<std::uint32_t>(4 + header.size() + body.size())) +
         u32((serialize_type << 24) | static_cast<std::uint32_t>(header.size())) + header + body;
}

// ali-ons' GET_ROUTEINFO_BY_TOPIC, byte for byte (shared/notes/ali-ons golden 01).
const std::string kAliOnsRoute =
    raw_frame(R"({"code":105,"language":"JAVA","opaque":1,"flag":0,"version":121,)"
              R"("extFields":{"topic":"TopicTest"}})",
              "");

RemotingFrame expect_frame(FrameDecoder::Next next) {
  if (auto* error = std::get_if<FrameError>(&next)) ADD_FAILURE() << error->message;
  EXPECT_TRUE(std::holds_alternative<RemotingFrame>(next));
  return std::holds_alternative<RemotingFrame>(next) ? std::get<RemotingFrame>(next)
                                                     : RemotingFrame{};
}

std::string expect_error(FrameDecoder::Next next) {
  EXPECT_TRUE(std::holds_alternative<FrameError>(next));
  return std::holds_alternative<FrameError>(next) ? std::get<FrameError>(next).message : "";
}

TEST(FrameDecoder, DecodesAliOnsRouteRequest) {
  FrameDecoder decoder;
  ASSERT_EQ(kAliOnsRoute.size(), 106u);
  decoder.feed(kAliOnsRoute);
  const RemotingFrame frame = expect_frame(decoder.next());
  EXPECT_EQ(frame.header.code, 105);
  EXPECT_EQ(frame.header.language, "JAVA");
  EXPECT_EQ(frame.header.opaque, 1);
  EXPECT_EQ(frame.header.flag, 0);
  EXPECT_EQ(frame.header.version, 121);
  EXPECT_FALSE(frame.header.remark.has_value());
  EXPECT_EQ(frame.header.ext_fields, (std::map<std::string, std::string>{{"topic", "TopicTest"}}));
  EXPECT_EQ(frame.body, "");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(decoder.next()));
  EXPECT_EQ(decoder.buffered(), 0u);
}

TEST(FrameDecoder, WaitsForEveryByteWhenFedOneAtATime) {
  const std::string bytes = raw_frame(R"({"code":103,"opaque":7})", "{\"a\":1}");
  FrameDecoder decoder;
  for (std::size_t i = 0; i + 1 < bytes.size(); ++i) {
    decoder.feed(bytes.substr(i, 1));
    ASSERT_TRUE(std::holds_alternative<std::monostate>(decoder.next())) << "after byte " << i;
    EXPECT_EQ(decoder.buffered(), i + 1);
  }
  decoder.feed(bytes.substr(bytes.size() - 1));
  const RemotingFrame frame = expect_frame(decoder.next());
  EXPECT_EQ(frame.header.code, 103);
  EXPECT_EQ(frame.header.opaque, 7);
  EXPECT_EQ(frame.body, "{\"a\":1}");
}

TEST(FrameDecoder, SplitsBackToBackFramesInOneRead) {
  FrameDecoder decoder;
  decoder.feed(raw_frame(R"({"code":1,"opaque":1})", "x") +
               raw_frame(R"({"code":2,"opaque":2})", "") +
               raw_frame(R"({"code":3,"opaque":3})", "yz").substr(0, 10));
  EXPECT_EQ(expect_frame(decoder.next()).body, "x");
  EXPECT_EQ(expect_frame(decoder.next()).header.opaque, 2);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(decoder.next()));
  decoder.feed(raw_frame(R"({"code":3,"opaque":3})", "yz").substr(10));
  const RemotingFrame third = expect_frame(decoder.next());
  EXPECT_EQ(third.header.code, 3);
  EXPECT_EQ(third.body, "yz");
}

TEST(FrameDecoder, ExtFieldScalarsBecomeJavaStringsAndNullsAreDropped) {
  FrameDecoder decoder;
  decoder.feed(raw_frame(
      R"({"code":310,"extFields":{"d":4,"k":false,"n":-2,"s":"v","z":null},"remark":"r"})", ""));
  const RemotingFrame frame = expect_frame(decoder.next());
  EXPECT_EQ(frame.header.ext_fields, (std::map<std::string, std::string>{
                                         {"d", "4"}, {"k", "false"}, {"n", "-2"}, {"s", "v"}}));
  EXPECT_EQ(frame.header.remark, "r");
  EXPECT_EQ(frame.header.code, 310);
  EXPECT_EQ(frame.header.version, 0);  // absent: Java's 0
}

TEST(FrameDecoder, RefusesLengthsOutsideFourToFrameMax) {
  for (std::uint32_t length : {0u, 3u, 0x80000000u, 16777213u}) {
    FrameDecoder decoder;
    decoder.feed(u32(length));
    EXPECT_EQ(expect_error(decoder.next()), "frame length " +
                                                std::to_string(static_cast<std::int32_t>(length)) +
                                                ": expected 4 to 16777212");
  }
  FrameDecoder at_limit;  // 16777212 + the 4 length bytes is exactly FRAME_MAX_LENGTH
  at_limit.feed(u32(16777212u));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(at_limit.next()));
}

TEST(FrameDecoder, RefusesHeaderLongerThanTheFrame) {
  FrameDecoder decoder;
  decoder.feed(u32(6) + u32(3) + "{}");
  EXPECT_EQ(expect_error(decoder.next()),
            "header length 3: expected at most 2, the frame's length less 4");
  // The stream has lost its boundaries: nothing more is decoded.
  decoder.feed(kAliOnsRoute);
  EXPECT_EQ(expect_error(decoder.next()),
            "header length 3: expected at most 2, the frame's length less 4");
}

TEST(FrameDecoder, RefusesSerializeTypesOtherThanJson) {
  FrameDecoder rocketmq;
  rocketmq.feed(raw_frame("{}", "", 1));
  EXPECT_EQ(expect_error(rocketmq.next()),
            "serialize type 1 (ROCKETMQ) is not supported: expected 0 (JSON)");
  FrameDecoder unknown;
  unknown.feed(raw_frame("{}", "", 7));
  EXPECT_EQ(expect_error(unknown.next()), "serialize type 7: expected 0 (JSON)");
}

TEST(FrameDecoder, RefusesBadHeaderJson) {
  const std::pair<std::string, std::string> cases[] = {
      {"{\"code\":", "header: expected a JSON object"},
      {"[1]", "header: expected a JSON object"},
      {R"({"code":"105"})", "header: code: expected a 32-bit integer"},
      {R"({"opaque":2147483648})", "header: opaque: expected a 32-bit integer"},
      {R"({"remark":5})", "header: remark: expected a string"},
      {R"({"extFields":[]})", "header: extFields: expected an object"},
      {R"({"extFields":{"a":{}}})",
       "header: extFields.a: expected a string, an integer or a boolean"},
      {std::string(65, '[') + std::string(65, ']'),
       "header: expected JSON nested at most 64 levels deep"},
  };
  for (const auto& [header, message] : cases) {
    FrameDecoder decoder;
    decoder.feed(raw_frame(header, ""));
    EXPECT_EQ(expect_error(decoder.next()), message) << header;
  }
}

TEST(EncodeFrame, WritesFastjsonSortedHeaderThenBody) {
  RemotingHeader header;
  header.code = 17;
  header.version = 409;
  header.opaque = 1;
  header.flag = kFlagResponse;
  header.remark = "no";
  const std::string text = R"({"code":17,"flag":1,"language":"JAVA","opaque":1,"remark":"no",)"
                           R"("serializeTypeCurrentRPC":"JSON","version":409})";
  EXPECT_EQ(encode_frame(header, "body"), raw_frame(text, "body"));
  header.remark.reset();
  header.ext_fields = {{"k", "v"}};
  header.has_ext_fields = true;
  const std::string with_fields =
      R"({"code":17,"extFields":{"k":"v"},"flag":1,"language":"JAVA","opaque":1,)"
      R"("serializeTypeCurrentRPC":"JSON","version":409})";
  EXPECT_EQ(encode_frame(header, ""), raw_frame(with_fields, ""));
}

TEST(EncodeFrame, RoundTripsThroughTheDecoder) {
  RemotingHeader header;
  header.code = 105;
  header.opaque = -5;
  header.flag = kFlagOneway;
  header.ext_fields = {{"topic", "T\xc3\xa9"}};
  header.has_ext_fields = true;
  FrameDecoder decoder;
  decoder.feed(encode_frame(header, std::string("\0\xff", 2)));
  const RemotingFrame frame = expect_frame(decoder.next());
  EXPECT_EQ(frame.header.opaque, -5);
  EXPECT_EQ(frame.header.flag, kFlagOneway);
  EXPECT_EQ(frame.header.ext_fields, header.ext_fields);
  EXPECT_EQ(frame.body, std::string("\0\xff", 2));
}

}  // namespace
}  // namespace nssim::codec

// File: RocketMQ remoting frames as bytes: a 4-byte big-endian length of what follows, a 4-byte
// header length whose high byte is the serialize type, the JSON header, then the body. Pure (no
// I/O): bytes go in as they arrive and whole frames come out, so the TCP server and the tests
// share it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace nssim::codec {

// Java: RemotingCommand's serialized fields. Absent integers are Java's 0; extFields values are
// strings as fastjson binds them into HashMap<String, String> (numbers and booleans become their
// text, a null value is left out).
struct RemotingHeader {
  int code = 0;
  std::string language = "JAVA";
  int version = 0;
  int opaque = 0;
  int flag = 0;
  std::optional<std::string> remark;
  std::map<std::string, std::string> ext_fields;
  // Whether the header carries an extFields object: Java leaves it out (null) when a response
  // has no custom header.
  bool has_ext_fields = false;
};

// Java: RemotingCommand#RPC_TYPE and RPC_ONEWAY, the bits of `flag`.
inline constexpr int kFlagResponse = 1 << 0;
inline constexpr int kFlagOneway = 1 << 1;

// Java: NettyDecoder's FRAME_MAX_LENGTH (com.rocketmq.remoting.frameMaxLength, 16777216), which
// counts the length field itself.
inline constexpr std::int64_t kFrameMaxLength = 16777216;

struct RemotingFrame {
  RemotingHeader header;
  std::string body;  // raw bytes; empty is Java's null body (decode keeps no zero-length body)
};

// A frame that cannot be decoded; Java's NettyDecoder logs it and closes the channel.
struct FrameError {
  std::string message;
};

// Writes one frame: JSON header (serialize type 0), fields in fastjson's sorted order, remark and
// extFields left out when absent, as RemotingSerializable#encode writes a RemotingCommand.
std::string encode_frame(const RemotingHeader& header, std::string_view body);

// Incremental decoder over one connection's byte stream (Java: NettyDecoder, a
// LengthFieldBasedFrameDecoder, then RemotingCommand#decode). After an error it decodes nothing
// more: the stream has lost its frame boundaries.
class FrameDecoder {
 public:
  void feed(std::string_view bytes);

  // The next whole frame, nothing if more bytes are needed, or the error that ends the stream.
  using Next = std::variant<std::monostate, RemotingFrame, FrameError>;
  Next next();

  // Bytes received but not yet part of a returned frame.
  std::size_t buffered() const { return buffer_.size() - consumed_; }

 private:
  std::string buffer_;
  std::size_t consumed_ = 0;
  std::optional<FrameError> error_;
};

// Decodes one frame's header JSON (serialize type 0), as fastjson binds it to RemotingCommand.
std::variant<RemotingHeader, FrameError> decode_header_json(std::string_view text);

}  // namespace nssim::codec

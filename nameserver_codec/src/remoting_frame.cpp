// File: remoting frames <-> header and body bytes (Java: NettyEncoder, NettyDecoder and
// RemotingCommand#encodeHeader / #decode with JSON serialization).
#include "nameserver_codec/remoting_frame.h"

#include <limits>
#include <nlohmann/json.hpp>
#include <utility>

#include "header_value.h"
#include "nameserver_codec/json_depth.h"

namespace nssim::codec {

namespace {

using nlohmann::json;

// Java: RemotingCommand#getProtocolType's SerializeType codes.
constexpr int kSerializeJson = 0;
constexpr int kSerializeRocketmq = 1;

void put_u32(std::string& out, std::uint32_t value) {
  out.push_back(static_cast<char>((value >> 24) & 0xFF));
  out.push_back(static_cast<char>((value >> 16) & 0xFF));
  out.push_back(static_cast<char>((value >> 8) & 0xFF));
  out.push_back(static_cast<char>(value & 0xFF));
}

std::uint32_t get_u32(std::string_view bytes) {
  std::uint32_t value = 0;
  for (int i = 0; i < 4; ++i) value = (value << 8) | static_cast<unsigned char>(bytes[i]);
  return value;
}

struct HeaderFailure {
  std::string message;
};

int read_int(const json& header, const char* field) {
  auto found = header.find(field);
  if (found == header.end() || found->is_null()) return 0;
  const bool fits = found->is_number_integer() &&
                    (found->is_number_unsigned()
                         ? found->get<std::uint64_t>() <=
                               static_cast<std::uint64_t>(std::numeric_limits<int>::max())
                         : found->get<std::int64_t>() >= std::numeric_limits<int>::min() &&
                               found->get<std::int64_t>() <= std::numeric_limits<int>::max());
  if (!fits) throw HeaderFailure{std::string(field) + ": expected a 32-bit integer"};
  return found->is_number_unsigned() ? static_cast<int>(found->get<std::uint64_t>())
                                     : static_cast<int>(found->get<std::int64_t>());
}

std::optional<std::string> read_optional_string(const json& header, const char* field) {
  auto found = header.find(field);
  if (found == header.end() || found->is_null()) return std::nullopt;
  if (!found->is_string()) throw HeaderFailure{std::string(field) + ": expected a string"};
  return found->get<std::string>();
}

// fastjson binding HashMap<String, String>: scalars become their text, null values are dropped.
std::map<std::string, std::string> read_ext_fields(const json& value) {
  if (!value.is_object()) throw HeaderFailure{"extFields: expected an object"};
  std::map<std::string, std::string> fields;
  for (const auto& [key, item] : value.items()) {
    if (auto text = detail::header_value_text(item)) {
      fields[key] = std::move(*text);
    } else if (!item.is_null()) {
      throw HeaderFailure{"extFields." + key + ": expected a string, an integer or a boolean"};
    }
  }
  return fields;
}

}  // namespace

std::variant<RemotingHeader, FrameError> decode_header_json(std::string_view text) {
  if (json_nesting_exceeds(text, kMaxJsonDepth)) {
    return FrameError{"header: expected JSON nested at most " + std::to_string(kMaxJsonDepth) +
                      " levels deep"};
  }
  const json header = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (header.is_discarded() || !header.is_object()) {
    return FrameError{"header: expected a JSON object"};
  }
  try {
    RemotingHeader out;
    out.code = read_int(header, "code");
    if (auto language = read_optional_string(header, "language")) out.language = *language;
    out.version = read_int(header, "version");
    out.opaque = read_int(header, "opaque");
    out.flag = read_int(header, "flag");
    out.remark = read_optional_string(header, "remark");
    if (auto ext_fields = header.find("extFields");
        ext_fields != header.end() && !ext_fields->is_null()) {
      out.ext_fields = read_ext_fields(*ext_fields);
      out.has_ext_fields = true;
    }
    return out;
  } catch (const HeaderFailure& failure) {
    return FrameError{"header: " + failure.message};
  }
}

std::string encode_frame(const RemotingHeader& header, std::string_view body) {
  // fastjson writes the getters in name order and leaves null ones out.
  json fields = {{"code", header.code},
                 {"flag", header.flag},
                 {"language", header.language},
                 {"opaque", header.opaque},
                 {"serializeTypeCurrentRPC", "JSON"},
                 {"version", header.version}};
  if (header.remark) fields["remark"] = *header.remark;
  if (header.has_ext_fields) fields["extFields"] = header.ext_fields;
  const std::string text =
      fields.dump(-1, ' ', /*ensure_ascii=*/false, json::error_handler_t::replace);
  std::string frame;
  frame.reserve(8 + text.size() + body.size());
  put_u32(frame, static_cast<std::uint32_t>(4 + text.size() + body.size()));
  put_u32(frame, static_cast<std::uint32_t>(text.size()));  // serialize type 0 in the high byte
  frame += text;
  frame += body;
  return frame;
}

void FrameDecoder::feed(std::string_view bytes) {
  if (error_) return;
  buffer_.erase(0, consumed_);  // what earlier frames used; a partial frame stays
  consumed_ = 0;
  buffer_.append(bytes);
}

FrameDecoder::Next FrameDecoder::next() {
  if (error_) return *error_;
  const std::string_view pending = std::string_view(buffer_).substr(consumed_);
  if (pending.size() < 4) return std::monostate{};
  // Java reads the length as a signed int; LengthFieldBasedFrameDecoder refuses a negative one
  // and one whose frame (with the 4 length bytes) exceeds FRAME_MAX_LENGTH.
  const auto length = static_cast<std::int32_t>(get_u32(pending));
  if (length < 4 || length + std::int64_t{4} > kFrameMaxLength) {
    error_ = FrameError{"frame length " + std::to_string(length) + ": expected 4 to " +
                        std::to_string(kFrameMaxLength - 4)};
    return *error_;
  }
  if (pending.size() < 4 + static_cast<std::size_t>(length)) return std::monostate{};
  const std::string_view frame = pending.substr(4, static_cast<std::size_t>(length));
  consumed_ += 4 + static_cast<std::size_t>(length);

  const std::uint32_t header_word = get_u32(frame);
  const int serialize_type = static_cast<int>(header_word >> 24);
  const std::size_t header_length = header_word & 0xFFFFFF;
  if (header_length > frame.size() - 4) {
    error_ = FrameError{"header length " + std::to_string(header_length) + ": expected at most " +
                        std::to_string(frame.size() - 4) + ", the frame's length less 4"};
    return *error_;
  }
  if (serialize_type != kSerializeJson) {
    // Deviation: Java also decodes ROCKETMQ (1), the binary header RocketMQSerializable writes;
    // clients send JSON unless told otherwise (rocketmq.serialize.type), and ali-ons only JSON.
    error_ =
        FrameError{"serialize type " + std::to_string(serialize_type) +
                   (serialize_type == kSerializeRocketmq ? " (ROCKETMQ) is not supported" : "") +
                   ": expected 0 (JSON)"};
    return *error_;
  }
  auto header = decode_header_json(frame.substr(4, header_length));
  if (auto* error = std::get_if<FrameError>(&header)) {
    error_ = std::move(*error);
    return *error_;
  }
  return RemotingFrame{std::get<RemotingHeader>(std::move(header)),
                       std::string(frame.substr(4 + header_length))};
}

}  // namespace nssim::codec

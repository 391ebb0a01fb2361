// File: header-field parsing with Java's rules, and the response builders every handler uses.
#include "processor_support.h"

#include <charconv>
#include <utility>

namespace nssim::core::detail {

namespace {

// Java: Integer.parseInt / Long.parseLong accept one optional sign ('+' or '-') and then decimal
// digits only, within range.
template <typename T>
std::optional<T> java_parse_integer(const std::string& text) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') {
    ++begin;
    if (begin != end && *begin == '-') return std::nullopt;  // "+-5" is not a number
  }
  if (begin == end) return std::nullopt;
  T value{};
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

}  // namespace

std::optional<std::int32_t> java_parse_int(const std::string& text) {
  return java_parse_integer<std::int32_t>(text);
}

std::optional<std::int64_t> java_parse_long(const std::string& text) {
  return java_parse_integer<std::int64_t>(text);
}

// Java: Boolean.parseBoolean is "true" ignoring case; everything else is false.
bool java_parse_boolean(const std::string& text) {
  if (text.size() != 4) return false;
  const char* expected = "true";
  for (std::size_t i = 0; i < 4; ++i) {
    const char c = text[i];
    const char lower = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (lower != expected[i]) return false;
  }
  return true;
}

std::optional<std::string> HeaderFields::string_field(const char* name) const {
  auto found = ext_fields_.find(name);
  if (found == ext_fields_.end()) return std::nullopt;
  return found->second;
}

std::optional<std::int64_t> HeaderFields::long_field(const char* name) const {
  auto text = string_field(name);
  return text ? java_parse_long(*text) : std::nullopt;
}

std::optional<std::int32_t> HeaderFields::int_field(const char* name) const {
  auto text = string_field(name);
  return text ? java_parse_int(*text) : std::nullopt;
}

std::optional<bool> HeaderFields::boolean_field(const char* name) const {
  auto text = string_field(name);
  if (!text) return std::nullopt;
  return java_parse_boolean(*text);
}

RemotingResponse error_response(int code, std::optional<std::string> remark) {
  RemotingResponse response;
  response.code = code;
  response.remark = std::move(remark);
  return response;
}

RemotingResponse exception_response(const std::string& exception, const std::string& first_frame) {
  return error_response(response_code::kSystemError, exception + ", " + first_frame);
}

RemotingResponse unboxing_npe_response(const std::string& method, int line) {
  return exception_response("java.lang.NullPointerException",
                            "org.apache.rocketmq.namesrv.processor.DefaultRequestProcessor." +
                                method + "(DefaultRequestProcessor.java:" + std::to_string(line) +
                                ")");
}

}  // namespace nssim::core::detail

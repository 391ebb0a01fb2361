// File: what every request handler shares (private to the core): reading custom header fields
// from extFields with Java's rules, building responses, and the SYSTEM_ERROR a Java exception
// escaping a processor becomes.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "nameserver_core/remoting.h"

namespace nssim::core::detail {

// Java: Integer.parseInt / Long.parseLong / Boolean.parseBoolean (ASCII digits only).
std::optional<std::int32_t> java_parse_int(const std::string& text);
std::optional<std::int64_t> java_parse_long(const std::string& text);
bool java_parse_boolean(const std::string& text);

// Java: RemotingCommand#decodeCommandCustomHeader (reflection path; no NameServer header is a
// FastCodesHeader). Each field is read from extFields by name and parsed by its Java type. A
// missing @CFNotNull field does raise "the custom field <x> is null", and an unparsable number a
// NumberFormatException, but both are thrown inside the per-field try and caught by its
// catch (Throwable) that only logs "Failed field [x] decoding". Every checkFields() of the
// NameServer's headers is empty. So decoding never fails: a missing or unparsable field keeps its
// Java initial value, which is null for the String/Long/Integer/Boolean fields read here.
class HeaderFields {
 public:
  explicit HeaderFields(const std::map<std::string, std::string>& ext_fields)
      : ext_fields_(ext_fields) {}

  std::optional<std::string> string_field(const char* name) const;
  std::optional<std::int64_t> long_field(const char* name) const;
  std::optional<std::int32_t> int_field(const char* name) const;
  std::optional<bool> boolean_field(const char* name) const;

 private:
  const std::map<std::string, std::string>& ext_fields_;
};

// A header field that Java would pass on as null into a RouteInfoManager table key (a cluster,
// broker or topic name, a broker address). Deviation: the core's tables cannot hold Java's null
// key, so it becomes the empty string. 4.9's HashMaps would store a null key; 5.x's
// ConcurrentHashMaps throw a NullPointerException that RouteInfoManager catches and logs, usually
// after some changes were made. Real brokers and clients always send these fields.
inline std::string key_or_empty(const std::optional<std::string>& field) {
  return field.value_or("");
}

// Java string concatenation of a possibly null String.
inline std::string java_string(const std::optional<std::string>& field) {
  return field.value_or("null");
}

inline RemotingResponse success_response() { return RemotingResponse{}; }

RemotingResponse error_response(int code, std::optional<std::string> remark);

// Java: NettyRemotingAbstract#processRequestCommand catches what the processor throws and answers
// SYSTEM_ERROR with RemotingHelper#exceptionSimpleDesc: the exception's toString(), ", ", then its
// first stack frame. Frames are spelt as a JDK 8 runtime prints them (the JDK both tags build
// for), with line numbers from the tag's sources; Java 8 NullPointerExceptions carry no message.
RemotingResponse exception_response(const std::string& exception, const std::string& first_frame);

// Java: the NullPointerException of auto-unboxing a null Long header field in a call argument;
// `method` and `line` locate the call in DefaultRequestProcessor.java of the profile's tag.
RemotingResponse unboxing_npe_response(const std::string& method, int line);

}  // namespace nssim::core::detail

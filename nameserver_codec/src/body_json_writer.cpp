// File: a body value to bytes in fastjson's standard or legacy spelling, and a response body's
// bytes back to a value (parse_response_body).
#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "json_text.h"
#include "nameserver_codec/body_codec.h"

namespace nssim::codec {

namespace {

using nlohmann::json;

using detail::compact_json;

// brokerAddrs keys are written from int64 ids by encode_broker_addrs, so they always parse.
std::int64_t long_key(const std::string& key) {
  std::int64_t value = 0;
  std::from_chars(key.data(), key.data() + key.size(), value);
  return value;
}

// Java: fastjson's MapSerializer writes a non-String key with its own serializer, a Long as
// digits, unless WriteNonStringKeyAsString or BrowserCompatible is on.
void write_legacy(const json& value, bool long_keys, std::string& out) {
  if (value.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (i > 0) out += ',';
      write_legacy(value[i], false, out);
    }
    out += ']';
  } else if (value.is_object()) {
    std::vector<std::pair<std::string, const json*>> entries;
    for (const auto& [key, item] : value.items()) entries.emplace_back(key, &item);
    if (long_keys) {
      std::stable_sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
        return long_key(a.first) < long_key(b.first);
      });
    }
    out += '{';
    bool first = true;
    for (const auto& [key, item] : entries) {
      if (!first) out += ',';
      first = false;
      out += long_keys ? key : compact_json(json(key));
      out += ':';
      write_legacy(*item, !long_keys && key == "brokerAddrs", out);
    }
    out += '}';
  } else {
    out += compact_json(value);
  }
}

}  // namespace

std::string write_body_json(const json& body, BodyJson style) {
  if (style == BodyJson::kStandard) return compact_json(body);
  std::string out;
  write_legacy(body, false, out);
  return out;
}

}  // namespace nssim::codec

namespace nssim::codec {

// fastjson's legacy spelling puts a number where JSON wants a key: after '{' or ',' (outside
// strings) a run of digits, possibly signed, followed by ':'. Quoting those runs gives JSON.
std::optional<json> parse_response_body(std::string_view text) {
  std::string quoted;
  quoted.reserve(text.size() + 16);
  bool in_string = false;
  bool key_may_follow = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      quoted += c;
      if (c == '\\' && i + 1 < text.size()) {
        quoted += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (key_may_follow && (c == '-' || (c >= '0' && c <= '9'))) {
      std::size_t end = i + 1;
      while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
      std::size_t after = end;
      while (after < text.size() && (text[after] == ' ' || text[after] == '\n')) ++after;
      if (after < text.size() && text[after] == ':') {
        quoted += '"';
        quoted.append(text.substr(i, end - i));
        quoted += '"';
        i = end - 1;
        key_may_follow = false;
        continue;
      }
    }
    if (c == '"') in_string = true;
    if (c == '{' || c == ',') {
      key_may_follow = true;
    } else if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
      key_may_follow = false;
    }
    quoted += c;
  }
  json parsed = json::parse(quoted, nullptr, /*allow_exceptions=*/false);
  if (parsed.is_discarded()) return std::nullopt;
  return parsed;
}

}  // namespace nssim::codec

// File: a body value to bytes in fastjson's standard or legacy spelling.
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

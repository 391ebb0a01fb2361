// File: JSON bodies <-> the core's typed values, with upstream's field names (RemotingSerializable
// with fastjson). Decoding binds like fastjson: unknown keys are ignored and missing keys keep the
// Java class's defaults. Encoding writes standard JSON the way fastjson's default features do:
// keys sorted, null fields and null map values left out.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "nameserver_core/profile.h"
#include "nameserver_core/remoting.h"
#include "nameserver_core/route_types.h"

namespace nssim::codec {

// The raw bytes Java would receive for a replay body: a JSON string is the bytes themselves (how
// UPDATE_NAMESRV_CONFIG's properties text is given, and any body given verbatim); any other JSON
// value is its compact dump (keys sorted, no spaces). The bodyCrc32 check runs over these bytes.
std::string raw_body_bytes(const nlohmann::json& body);

// Decodes a request body as the handler of `code` does (see core::RequestBody); `body` is null
// when the request has none. REGISTER_BROKER reads a RegisterBrokerBody from brokers of version
// V3_0_11 (37) or later, else a bare TopicConfigSerializeWrapper. A body given as a string is
// parsed as JSON first; empty or blank text and "null" are fastjson's null. `now_ms` stands in for
// the clock a Java `new DataVersion()` reads when a body leaves its dataVersion or timestamp out.
// The `compressed` header is not consulted: replay bodies are always given decoded.
// Deviation from fastjson: a JSON null for a field counts as missing (Java would store the null),
// and a value of the wrong JSON type is an error even where fastjson would convert it ("6" to 6).
core::RequestBody decode_request_body(const nlohmann::json& body, int code, int version,
                                      core::Profile profile, std::int64_t now_ms);

// The body as a JSON value; write_body_json spells it as bytes. In the value, map keys are sorted
// as strings ("10" before "2"); fastjson's MapSortField sorts Long keys as numbers.
nlohmann::json encode_response_body(const core::ResponseBody& body, core::Profile profile);

// fastjson's two spellings of a body (see core::RemotingResponse::standard_json_body).
enum class BodyJson {
  kStandard,  // compact JSON, as `nssim replay` prints bodies
  kLegacy,    // the same, but the keys of every "brokerAddrs" object (Java: Map<Long, String>)
              // unquoted and in numeric order: {0:"a",2:"b",10:"c"}
};

// A response body as a Java NameServer writes it, read back: standard JSON, or fastjson's legacy
// spelling whose Map<Long, String> keys are bare numbers ({0:"a"}); those keys become strings.
// nullopt when the text is JSON in neither spelling.
std::optional<nlohmann::json> parse_response_body(std::string_view text);

// Deviation: non-ASCII text is written as UTF-8 in both; the standard spelling's
// BrowserCompatible feature would escape it as \uXXXX. Upstream's legacy map order is HashMap
// order, which for broker ids below the table's capacity (16 up to 12 entries) is numeric.
std::string write_body_json(const nlohmann::json& body, BodyJson style);

// The encoders and decoders behind the two functions above, one per upstream class. BrokerData
// has zoneName and enableActingMaster and DataVersion has stateVersion in 5.x only.
nlohmann::json encode_data_version(const core::DataVersion& data_version, core::Profile profile);
nlohmann::json encode_queue_data(const core::QueueData& queue_data);
nlohmann::json encode_broker_data(const core::BrokerData& broker_data, core::Profile profile);
nlohmann::json encode_topic_route_data(const core::TopicRouteData& route, core::Profile profile);
nlohmann::json encode_cluster_info(const core::ClusterInfo& cluster_info, core::Profile profile);
nlohmann::json encode_topic_list(const core::TopicList& topic_list);

}  // namespace nssim::codec

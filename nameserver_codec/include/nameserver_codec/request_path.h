// File: the one path a request takes through a NameServer, shared by `nssim replay` and
// `nssim serve` so both give the same answers: header fields and raw body in, the body decoded
// for its request code, checksummed, processed, the 5.x unregistration queue drained, and the
// answer's body written as upstream writes it.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "nameserver_core/ids.h"
#include "nameserver_core/name_server.h"
#include "nameserver_core/profile.h"
#include "nameserver_core/remoting.h"

namespace nssim::codec {

struct IncomingRequest {
  int code = 0;
  int version = 0;
  bool oneway = false;
  std::map<std::string, std::string> ext_fields;
  // The body as raw_body_bytes reads it: null when there is none, a JSON string for bytes as
  // they came off the wire, any other value for a body a replay line gives decoded.
  nlohmann::json body;
};

// Runs `request` as arriving on `channel` at `now_ms`, then applies what 5.x's
// BatchUnregistrationService would have queued meanwhile (it runs continuously upstream).
// Nothing means no response is written.
std::optional<core::RemotingResponse> run_request(core::NameServer& name_server,
                                                  const IncomingRequest& request,
                                                  core::ConnectionId channel, std::int64_t now_ms);

// The response body's bytes as upstream writes them, empty for none: GET_NAMESRV_CONFIG's
// properties text as it is, any other body as JSON, standard or legacy as the response says
// (core::RemotingResponse::standard_json_body; the legacy spelling differs only in brokerAddrs,
// the one Long-keyed map in a NameServer body).
std::string response_body_bytes(const core::RemotingResponse& response, core::Profile profile);

}  // namespace nssim::codec

// File: run_request and the response body's bytes, the path replay and serve share.
#include "nameserver_codec/request_path.h"

#include "nameserver_codec/body_codec.h"
#include "nameserver_codec/crc32.h"

namespace nssim::codec {

std::optional<core::RemotingResponse> run_request(core::NameServer& name_server,
                                                  const IncomingRequest& request,
                                                  core::ConnectionId channel, std::int64_t now_ms) {
  core::RemotingRequest remoting{request.code,
                                 request.version,
                                 request.oneway,
                                 request.ext_fields,
                                 decode_request_body(request.body, request.code, request.version,
                                                     name_server.profile(), now_ms),
                                 std::nullopt};
  if (!request.body.is_null()) remoting.body_crc32 = crc32(raw_body_bytes(request.body));
  auto response = name_server.process(remoting, channel, now_ms);
  name_server.process_pending_unregistrations();
  return response;
}

std::string response_body_bytes(const core::RemotingResponse& response, core::Profile profile) {
  if (const auto* text = std::get_if<std::string>(&response.body)) return *text;
  const nlohmann::json body = encode_response_body(response.body, profile);
  if (body.is_null()) return {};
  return write_body_json(body,
                         response.standard_json_body ? BodyJson::kStandard : BodyJson::kLegacy);
}

}  // namespace nssim::codec

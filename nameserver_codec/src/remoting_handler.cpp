// File: handle_frame, a request frame to its answer frame.
#include "nameserver_codec/remoting_handler.h"

#include "nameserver_codec/request_path.h"
#include "nameserver_core/profile.h"

namespace nssim::codec {

HandledFrame handle_frame(core::NameServer& name_server, const RemotingFrame& frame,
                          core::ConnectionId channel, std::int64_t now_ms) {
  const RemotingHeader& header = frame.header;
  if ((header.flag & kFlagResponse) != 0) return {};
  IncomingRequest request{header.code, header.version, (header.flag & kFlagOneway) != 0,
                          header.ext_fields,
                          frame.body.empty() ? nlohmann::json() : nlohmann::json(frame.body)};
  const auto response = run_request(name_server, request, channel, now_ms);
  if (!response) return {};

  RemotingHeader answer;
  answer.code = response->code;
  answer.version = core::default_request_version(name_server.profile());
  answer.opaque = header.opaque;
  answer.flag = kFlagResponse;  // Java: RemotingCommand#markResponseType on a new command
  answer.remark = response->remark;
  answer.ext_fields = response->ext_fields;
  // Deviation: Java writes "extFields":{} for a response with a custom header whose fields are
  // all null, and leaves it out without a header; the core's response does not say which, so an
  // empty one is left out. Java and ali-ons read both as no fields.
  answer.has_ext_fields = !response->ext_fields.empty();
  return {encode_frame(answer, response_body_bytes(*response, name_server.profile())),
          response->code};
}

}  // namespace nssim::codec

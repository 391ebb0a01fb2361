// File: one decoded remoting frame through a NameServer, the answer frame out (or none). Pure:
// `nssim serve` feeds it what each connection's FrameDecoder yields and writes what it returns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "nameserver_codec/remoting_frame.h"
#include "nameserver_core/ids.h"
#include "nameserver_core/name_server.h"

namespace nssim::codec {

struct HandledFrame {
  std::optional<std::string> response_frame;  // nothing: no answer is written
  std::optional<int> response_code;           // the answer's code, for the log
};

// Java: NettyRemotingAbstract#processMessageReceived. A request (flag bit 0 clear) runs through
// run_request, with oneway from flag bit 1 and its body bytes as received; its answer sets flag
// bit 0, echoes the opaque and carries the NameServer's version (NamesrvStartup sets
// rocketmq.remoting.version to MQVersion.CURRENT_VERSION). A response frame (bit 0 set) matches no
// request the NameServer sent, so processResponseCommand only logs it: nothing is written.
HandledFrame handle_frame(core::NameServer& name_server, const RemotingFrame& frame,
                          core::ConnectionId channel, std::int64_t now_ms);

}  // namespace nssim::codec

// File: what travels between simulated nodes: a RocketMQ remoting request or response on a
// connection, the FIN that closes one, or a wake-up that makes a node's loop run work another
// actor posted to it. Net carries each one over the platform (a SimGrid communication of its own)
// and hands it to the receiving node's socket layer.
#pragma once

#include <cstdint>
#include <memory>

#include "nameserver_core/remoting.h"
#include "sim/network/network_history.h"

namespace nssim::sim {

struct Envelope {
  enum class Kind { kRequest, kResponse, kFin, kWake };
  Kind kind = Kind::kRequest;
  NodeId from = 0;
  NodeId to = 0;
  std::uint32_t to_epoch = 0;  // the incarnation of `to` this was sent to
  std::uint64_t conn = 0;      // connection id (Net's registry)
  std::uint64_t seq = 0;       // position in its connection's stream towards `to` (set by Net)
  std::uint64_t opaque = 0;    // request id, echoed by the response
  bool oneway = false;
  std::shared_ptr<const core::RemotingRequest> request;
  std::shared_ptr<const core::RemotingResponse> response;
};

}  // namespace nssim::sim

// File: ConnectionHost, what a connection needs of the server that owns it: the core, its clock
// and log, the idle time, the core's queued removals, and to be forgotten once closed. An
// interface of its own, so that the server (which keeps its connections) and a connection (which
// calls back into it) do not include each other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nameserver_core/name_server.h"

namespace nssim::serve {

class ConnectionHost {
 public:
  virtual core::NameServer& name_server() = 0;
  virtual std::int64_t now_ms() const = 0;
  virtual void log(const std::string& line) = 0;
  virtual int idle_seconds() const = 0;
  // A connection closed itself (peer, error or idle) after telling the core; forget it.
  virtual void forget(std::uint64_t id) = 0;
  // Applies what the last core call queued for 5.x's BatchUnregistrationService and drops the
  // NOTIFY_MIN_BROKER_ID_CHANGE notices nssim does not send.
  virtual std::vector<core::BrokerRemoval> drain_core() = 0;

 protected:
  ~ConnectionHost() = default;
};

}  // namespace nssim::serve

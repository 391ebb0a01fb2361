// File: the engine of `nssim replay`: JSON Lines of requests and channel events in, exactly one
// JSON line out per input line, against one NameServer. It is text in, text out (no I/O), so it
// is tested in-process; docs/replay.md describes the format.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "nameserver_core/ids.h"
#include "nameserver_core/name_server.h"
#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"

namespace nssim::codec {

class ReplaySession {
 public:
  // The NameServer starts at at_ms 0 (needWaitForService counts from there).
  ReplaySession(core::Profile profile, core::NamesrvConfig config);

  // One input line without its line break in, its output line without a line break out. A 5.x
  // unregistration the line queues is applied before this returns.
  std::string process_line(std::string_view line);

  // Whether some line was malformed; the command then exits with 2.
  bool had_errors() const { return had_errors_; }

  const core::NameServer& name_server() const { return name_server_; }

 private:
  core::ConnectionId channel_id(const std::string& name);

  core::Profile profile_;
  core::NameServer name_server_;
  std::map<std::string, core::ConnectionId> channels_;  // interned in order of first appearance
  std::int64_t now_ms_ = 0;
  int line_number_ = 0;
  bool had_errors_ = false;
};

}  // namespace nssim::codec

// File: the kinds of event a run logs (events.jsonl's "kind", reports/README.md), as one enum with
// its name table: emitters and the analysis compare enums, the log writes the names.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace nssim::sim {

enum class EventKind : std::uint8_t {
  kProcessStart,      // a node's process (re)started; fields: epoch
  kShutdownBegin,     // a broker began its graceful shutdown
  kFaultBegin,        // the controller applied a fault; fields: fault (file index), kind, nodes...
  kFaultEnd,          // ... and lifted it
  kAdmin,             // a NameServer served an admin request
  kAdminFailed,       // the controller's admin request got no answer
  kRouteView,         // a NameServer's broker table changed; fields: what changed
  kBrokerRemoved,     // a NameServer dropped a broker; fields: broker_addr, path...
  kRegisterFailed,    // a broker's registration got no answer from one NameServer
  kRegisterRejected,  // ... or a refusal
  kTopicUpdated,      // a broker's topic config changed by an admin fault
  kRoutePollFailed,   // a producer's route poll failed; fields: topic, cause
};

inline constexpr std::array<std::string_view, 12> kEventKindNames = {
    "process_start",   "shutdown_begin",    "fault_begin",   "fault_end",
    "admin",           "admin_failed",      "route_view",    "broker_removed",
    "register_failed", "register_rejected", "topic_updated", "route_poll_failed"};

constexpr std::string_view event_kind_name(EventKind kind) {
  return kEventKindNames[static_cast<std::size_t>(kind)];
}

}  // namespace nssim::sim

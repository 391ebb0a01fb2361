// File: a producer's per-broker fault table (LatencyFaultToleranceImpl): when a broker becomes
// available again after a slow or failed send, and 5.x's reachable flag.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "nameserver_core/profile.h"
#include "sim/client/publish_info.h"
#include "sim/scenario/rng.h"

namespace nssim::sim {

class LatencyFaultTolerance {
 public:
  // Java: LatencyFaultToleranceImpl.FaultItem.
  struct FaultItem {
    std::int64_t current_latency = 0;
    std::int64_t start_timestamp = 0;  // available from this instant on
    bool reachable_flag = false;       // 5.x only
  };

  explicit LatencyFaultTolerance(core::Profile profile) : profile_(profile) {}

  // Java: LatencyFaultToleranceImpl#updateFaultItem. 4.9 always overwrites the start timestamp
  // with now + duration (so a fast success makes the broker available again); 5.x only extends it
  // (duration > 0 and a later end) and sets the reachable flag.
  void update_fault_item(const std::string& name, std::int64_t current_latency,
                         std::int64_t not_available_duration, bool reachable, std::int64_t now_ms);
  // Java: LatencyFaultToleranceImpl#isAvailable: no item, or now >= startTimestamp.
  bool is_available(const std::string& name, std::int64_t now_ms) const;
  // Java (5.x): LatencyFaultToleranceImpl#isReachable: no item, or its flag. Always true in 4.9.
  bool is_reachable(const std::string& name) const;
  void remove(const std::string& name);
  // Java (4.9): LatencyFaultToleranceImpl#pickOneAtLeast: items sorted (available first, then by
  // latency, then by start timestamp), one of the better half by a second round-robin index:
  // `which_item_worst`, the calling thread's value of whichItemWorst, drawn from `rng` on its
  // first use. Upstream sorts a ConcurrentHashMap's values (stable sort from hash order); the
  // model starts from name order. 5.x never calls it.
  std::optional<std::string> pick_one_at_least(std::int64_t now_ms,
                                               std::optional<ThreadLocalIndex>& which_item_worst,
                                               Rng& rng) const;

  const std::map<std::string, FaultItem>& items() const { return fault_item_table_; }

 private:
  core::Profile profile_;
  std::map<std::string, FaultItem> fault_item_table_;
};

}  // namespace nssim::sim

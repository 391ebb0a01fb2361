// File: LatencyFaultToleranceImpl of 4.9.8 and 5.3.3 (without 5.x's detector thread).
#include "sim/client/latency_fault_tolerance.h"

#include <algorithm>
#include <tuple>
#include <vector>

namespace nssim::sim {

void LatencyFaultTolerance::update_fault_item(const std::string& name, std::int64_t current_latency,
                                              std::int64_t not_available_duration, bool reachable,
                                              std::int64_t now_ms) {
  FaultItem& item = fault_item_table_[name];
  item.current_latency = current_latency;
  if (profile_ == core::Profile::kV4_9) {
    item.start_timestamp = now_ms + not_available_duration;
    return;
  }
  // Java (5.x): FaultItem#updateNotAvailableDuration.
  if (not_available_duration > 0 && now_ms + not_available_duration > item.start_timestamp) {
    item.start_timestamp = now_ms + not_available_duration;
  }
  item.reachable_flag = reachable;
}

bool LatencyFaultTolerance::is_available(const std::string& name, std::int64_t now_ms) const {
  auto it = fault_item_table_.find(name);
  return it == fault_item_table_.end() || now_ms >= it->second.start_timestamp;
}

bool LatencyFaultTolerance::is_reachable(const std::string& name) const {
  if (profile_ == core::Profile::kV4_9) return true;
  auto it = fault_item_table_.find(name);
  return it == fault_item_table_.end() || it->second.reachable_flag;
}

void LatencyFaultTolerance::remove(const std::string& name) { fault_item_table_.erase(name); }

std::optional<std::string> LatencyFaultTolerance::pick_one_at_least(
    std::int64_t now_ms, std::optional<ThreadLocalIndex>& which_item_worst, Rng& rng) const {
  if (fault_item_table_.empty()) return std::nullopt;
  std::vector<std::pair<std::string, FaultItem>> items(fault_item_table_.begin(),
                                                       fault_item_table_.end());
  // Java: FaultItem#compareTo.
  std::stable_sort(items.begin(), items.end(), [now_ms](const auto& a, const auto& b) {
    const bool a_available = now_ms >= a.second.start_timestamp;
    const bool b_available = now_ms >= b.second.start_timestamp;
    return std::make_tuple(!a_available, a.second.current_latency, a.second.start_timestamp) <
           std::make_tuple(!b_available, b.second.current_latency, b.second.start_timestamp);
  });
  const auto half = static_cast<std::int32_t>(items.size() / 2);
  if (half <= 0) return items.front().first;
  if (!which_item_worst) which_item_worst = ThreadLocalIndex::random(profile_, rng);
  return items[static_cast<std::size_t>(which_item_worst->increment_and_get() % half)].first;
}

}  // namespace nssim::sim

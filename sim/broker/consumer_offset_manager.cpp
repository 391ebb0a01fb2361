// File: ConsumerOffsetManager (see consumer_offset_manager.h).
#include "sim/broker/consumer_offset_manager.h"

namespace nssim::sim {

std::optional<std::int64_t> ConsumerOffsetManager::query_offset(const OffsetKey& key) const {
  const auto found = table_.find(key);
  if (found == table_.end()) return std::nullopt;
  return found->second;
}

}  // namespace nssim::sim

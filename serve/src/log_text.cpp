// File: endpoints and removals as `nssim serve` logs them (see log_text.h).
#include "nssim_serve/log_text.h"

#include <set>

namespace nssim::serve {

std::string endpoint_text(const asio::ip::tcp::endpoint& endpoint) {
  const auto address = endpoint.address();
  const std::string host = address.is_v6() ? "[" + address.to_string() + "]" : address.to_string();
  return host + ":" + std::to_string(endpoint.port());
}

std::string removed_text(const std::vector<core::BrokerRemoval>& removals) {
  std::set<std::string> removed;
  for (const auto& removal : removals) {
    if (removal.removed_live_entry || removal.removed_addr_entry)
      removed.insert(removal.broker_addr);
  }
  std::string text = "[";
  for (const auto& addr : removed) text += (text.size() > 1 ? ", " : "") + addr;
  return text + "]";
}

}  // namespace nssim::serve

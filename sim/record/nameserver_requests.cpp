// File: NameServerRequests (see nameserver_requests.h).
#include "sim/record/nameserver_requests.h"

#include "common/invariant.h"

namespace nssim::sim {

void NameServerRequests::add(const std::string& nameserver, int code, std::int64_t t_ms,
                             const std::string& sender) {
  NSSIM_CHECK(t_ms >= 0, "a NameServer request before the run began");
  std::vector<std::int64_t>& seconds = per_second_[nameserver][code];
  const auto second = static_cast<std::size_t>(t_ms / 1000);
  if (seconds.size() <= second) seconds.resize(second + 1, 0);
  ++seconds[second];
  if (!sender.empty()) ++by_sender_[sender][code];
}

}  // namespace nssim::sim

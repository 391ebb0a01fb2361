// File: DataVersion equality per profile (see route_types.h).
#include "nameserver_core/route_types.h"

namespace nssim::core {

bool data_version_equals(const DataVersion& a, const DataVersion& b, Profile profile) {
  if (profile == Profile::kV5 && a.state_version != b.state_version) return false;
  return a.timestamp == b.timestamp && a.counter == b.counter;
}

}  // namespace nssim::core

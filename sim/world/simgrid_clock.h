// File: the one place where SimGrid's double seconds become the int64 milliseconds that the
// NameServer core and every model in nssim use.
#pragma once

#include <cstdint>

namespace nssim::sim {

// The simulated now, rounded to the millisecond.
std::int64_t now_ms();
// A duration in milliseconds as SimGrid seconds.
double to_seconds(std::int64_t duration_ms);

}  // namespace nssim::sim

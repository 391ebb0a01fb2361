// File: conversions between SimGrid's clock and milliseconds.
#include "sim/world/simgrid_clock.h"

#include <cmath>
#include <simgrid/s4u/Engine.hpp>

namespace nssim::sim {

std::int64_t now_ms() { return std::llround(simgrid::s4u::Engine::get_clock() * 1000.0); }

double to_seconds(std::int64_t duration_ms) { return static_cast<double>(duration_ms) / 1000.0; }

}  // namespace nssim::sim

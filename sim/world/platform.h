// File: the SimGrid platform of a run: one star zone, one host per node, each with its own
// split-duplex access link, so host-to-host latency is the sum of both ends' latencies. Links keep
// the latency they are built with; latency faults are added by Net (see Net::extra_latency_s).
#pragma once

#include <string>
#include <vector>

namespace simgrid::s4u {
class Host;
class Link;
}  // namespace simgrid::s4u

namespace nssim::sim {

struct HostSpec {
  std::string name;
  double latency_ms = 0.5;
  double bandwidth_mbps = 1000.0;
};

struct PlatformHost {
  simgrid::s4u::Host* host = nullptr;
  simgrid::s4u::Link* link_up = nullptr;
  simgrid::s4u::Link* link_down = nullptr;
};

// Builds the platform; call once, before any actor exists, after the Engine is created.
std::vector<PlatformHost> build_platform(const std::vector<HostSpec>& hosts);

}  // namespace nssim::sim

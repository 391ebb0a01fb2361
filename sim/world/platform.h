// File: the SimGrid platform of a run: one star zone, one host per node, each with its own
// split-duplex access link, so host-to-host latency is the sum of both ends' latencies and a
// node's latency can be changed while the simulation runs.
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

// Changes a node's access-link latency (both directions), effective for new transfers.
void set_link_latency(const PlatformHost& host, double latency_ms);

}  // namespace nssim::sim

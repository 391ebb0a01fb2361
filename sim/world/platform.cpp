// File: builds the star platform (see platform.h) with SimGrid 3.32's programmatic API.
#include "sim/world/platform.h"

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Link.hpp>
#include <simgrid/s4u/NetZone.hpp>

namespace nssim::sim {

namespace sg4 = simgrid::s4u;

std::vector<PlatformHost> build_platform(const std::vector<HostSpec>& hosts) {
  auto* zone = sg4::create_star_zone("world");
  std::vector<PlatformHost> built;
  built.reserve(hosts.size());
  for (const auto& spec : hosts) {
    sg4::Host* host = zone->create_host(spec.name, 1e9)->seal();
    auto* link =
        zone->create_split_duplex_link(spec.name + "_nic", spec.bandwidth_mbps * 1e6 / 8.0);
    link->set_latency(spec.latency_ms / 1000.0)->seal();
    // symmetrical: host -> anything uses UP, anything -> host uses DOWN.
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr,
                    {sg4::LinkInRoute(link, sg4::LinkInRoute::Direction::UP)}, true);
    built.push_back(PlatformHost{host, link->get_link_up(), link->get_link_down()});
  }
  zone->seal();
  return built;
}

}  // namespace nssim::sim

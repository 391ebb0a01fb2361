// Test-only builders of client-side routes: QueueData / BrokerData in the shape a NameServer
// returns, for the publish info, fault strategy and producer model tests.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nameserver_core/route_types.h"

namespace nssim::sim::testing {

struct GroupSpec {
  std::string name;
  int write_queue_nums = 4;
  int perm = 6;
  bool has_master = true;  // the master's address is "<name>:10911"
};

inline core::TopicRouteData route_of(const std::vector<GroupSpec>& groups) {
  core::TopicRouteData route;
  for (const auto& g : groups) {
    route.queue_datas.push_back(
        core::QueueData{g.name, g.write_queue_nums, g.write_queue_nums, g.perm, 0});
    core::BrokerData bd;
    bd.cluster = "DefaultCluster";
    bd.broker_name = g.name;
    if (g.has_master) bd.broker_addrs[0] = g.name + ":10911";
    bd.broker_addrs[1] = g.name + "-s:10911";
    route.broker_datas.push_back(bd);
  }
  return route;
}

}  // namespace nssim::sim::testing

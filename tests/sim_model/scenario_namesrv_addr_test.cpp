// namesrvAddr per broker group and per producer set: upstream's ';'-separated list, by address or
// by node name, resolved to NameServer indices in the order written; unknown or repeated entries
// are refused with their path.
#include <gtest/gtest.h>

#include "scenario_error_helpers.h"

namespace nssim::sim {
namespace {

using scenario_testing::error_of;
using scenario_testing::minimal;

TEST(ScenarioNamesrvAddr, AddressesAndNamesResolveInTheOrderWritten) {
  auto doc = minimal();
  doc["nameservers"] = {{"count", 3}};
  doc["broker_groups"][0]["config"] = {{"namesrvAddr", "10.0.0.3:9876;ns-0"}};
  doc["producers"][0]["config"] = {{"namesrvAddr", "ns-1"}};
  const Scenario s = parse_scenario(doc.dump(), "x.json", {});
  EXPECT_EQ(s.broker_groups[0].nameservers, (std::vector<int>{2, 0}));
  EXPECT_EQ(s.broker_groups[0].config.namesrv_addr, "10.0.0.3:9876;ns-0");
  EXPECT_TRUE(s.broker_groups[1].nameservers.empty());  // every NameServer
  EXPECT_EQ(s.producers[0].nameservers, (std::vector<int>{1}));
  EXPECT_EQ(nameserver_address(0), "10.0.0.1:9876");
}

TEST(ScenarioNamesrvAddr, UnknownRepeatedOrEmptyEntriesAreRefused) {
  auto doc = minimal();
  doc["nameservers"] = {{"count", 2}};
  doc["producers"][0]["config"] = {{"namesrvAddr", "ns-2"}};
  EXPECT_EQ(error_of(doc),
            "x.json: producers[0].config.namesrvAddr: no NameServer 'ns-2' (expected addresses "
            "like 10.0.0.1:9876 or names like ns-0 separated by ';', of the 2 NameServers)");
  doc["producers"][0]["config"] = {{"namesrvAddr", "ns-0;10.0.0.1:9876"}};
  EXPECT_EQ(error_of(doc),
            "x.json: producers[0].config.namesrvAddr: '10.0.0.1:9876' is listed twice");
  doc["producers"][0]["config"] = {{"namesrvAddr", "ns-0;"}};
  EXPECT_EQ(error_of(doc).rfind("x.json: producers[0].config.namesrvAddr: no NameServer ''", 0),
            0u);
  doc["producers"][0]["config"] = {{"namesrvAddr", 5}};
  EXPECT_EQ(error_of(doc), "x.json: producers[0].config.namesrvAddr: must be a string, got 5");
}

}  // namespace
}  // namespace nssim::sim

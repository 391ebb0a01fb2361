// The built-in properties instantiated from result.json figures: which lines each writes, and
// where it does not apply.
#include "sim/analysis/explore_properties.h"

#include <gtest/gtest.h>

namespace nssim::sim {
namespace {

using nlohmann::json;

std::vector<std::string> sources(const PropertyLines& property) {
  std::vector<std::string> out;
  for (const auto& e : property.expect) out.push_back(e.source);
  return out;
}

json result_with(json faults) {
  json outage = {{"predicted",
                  {{"nameserver_removal_ms", {{"min_ms", 0}, {"max_ms", 120000}}},
                   {"producer_stale_route_ms", {{"min_ms", 0}, {"max_ms", 150000}}}}},
                 {"nameserver_drop_ms", {{"max", 90000}}},
                 {"producers", {{"stale_route_ms", {{"max", 100000}}}}}};
  json latency = {{"predicted", nullptr}};
  json result = {
      {"faults", faults},
      {"outages", {latency, outage}},
      {"settings", {{"registerNameServerPeriod", 30000}, {"pollNameServerInterval", 30000}}},
      {"timeseries", json::array()},
      {"route_health",
       {{"missing_windows",
         {{{"start_ms", 100000}, {"end_ms", 150000}},
          {{"start_ms", 200000}, {"end_ms", 243500}},
          {{"start_ms", 200000}, {"end_ms", 243501}},
          {{"start_ms", 200000}, {"end_ms", nullptr}}}}}}};
  for (int s = 0; s < 600; ++s) result["timeseries"].push_back({{"t_s", s}});
  return result;
}

TEST(ExploreProperties, NamesInOrder) {
  EXPECT_EQ(built_in_property_names(),
            (std::vector<std::string>{"nameserver_removal_within_ceiling",
                                      "stale_route_within_ceiling", "routes_restored_after_heal"}));
}

TEST(ExploreProperties, CeilingsPerOutageWithAPrediction) {
  const auto properties =
      built_in_properties(result_with(json::array({{{"at_ms", 100000}, {"duration_ms", 10000}}})));
  EXPECT_EQ(sources(properties[0]),
            (std::vector<std::string>{
                "outages[1].nameservers_missed == 0",
                "outages[1].nameserver_drop_ms.max <= predicted.nameserver_removal_ms.max_ms"}));
  EXPECT_EQ(sources(properties[1]),
            (std::vector<std::string>{"outages[1].producers.stale_route_ms.max <= "
                                      "predicted.producer_stale_route_ms.max_ms"}));
}

TEST(ExploreProperties, RestoredAfterTheLastHealPlusRegistrationAndPoll) {
  // Healed at 210 500: NameServers by 210 500 + 30 000 + 3 000 = 243 500, producers by
  // 273 500 (second 274, the first that starts after it). The window that ends at 243 501 is
  // 1 ms late; the open one never ends.
  const auto properties = built_in_properties(result_with(json::array(
      {{{"at_ms", 100000}, {"duration_ms", 10000}}, {{"at_ms", 200000}, {"duration_ms", 10500}}})));
  EXPECT_EQ(sources(properties[2]),
            (std::vector<std::string>{"timeseries[274].stale_producers == 0",
                                      "timeseries[274].lost_producers == 0",
                                      "route_health.missing_windows[2].end_ms <= 243500",
                                      "route_health.missing_windows[3].end_ms <= 243500"}));
}

TEST(ExploreProperties, RestoredDoesNotApplyToAFaultThatNeverHeals) {
  json never = json::array({{{"at_ms", 100000}, {"duration_ms", nullptr}}});
  EXPECT_TRUE(built_in_properties(result_with(never))[2].expect.empty());
  // Healed too late for the run (600 s) to see the deadline: 570 000 + 63 000.
  json late = json::array({{{"at_ms", 500000}, {"duration_ms", 70000}}});
  EXPECT_TRUE(built_in_properties(result_with(late))[2].expect.empty());
}

}  // namespace
}  // namespace nssim::sim

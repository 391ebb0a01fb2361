// RouteViewTable: a NameServer's broker table rebuilt from route_view changes, the listings it
// reports as they change, and a fingerprint that is equal exactly for equal views.
#include "sim/analysis/route_views.h"

#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

namespace nssim::sim {
namespace {

using nlohmann::json;

json view_line(const json& changed, std::uint64_t digest = 7) {
  return {{"changed", changed}, {"topics_digest", digest}};
}

struct Recorded {
  std::vector<std::pair<std::string, bool>> changes;
  RouteViewTable::OnAddress on() {
    return [this](const std::string& addr, bool listed) { changes.emplace_back(addr, listed); };
  }
};

TEST(RouteViewTable, ChangesAddReplaceAndDropGroups) {
  RouteViewTable table;
  Recorded seen;
  table.apply(view_line({{"a", {{"0", "10.0.0.1:10911"}, {"1", "10.0.0.2:10911"}}}}), seen.on());
  EXPECT_TRUE(table.lists("10.0.0.1:10911"));
  EXPECT_TRUE(table.lists("10.0.0.2:10911"));
  // The slave leaves group a: only its address is reported gone.
  table.apply(view_line({{"a", {{"0", "10.0.0.1:10911"}}}}), seen.on());
  EXPECT_FALSE(table.lists("10.0.0.2:10911"));
  table.apply(view_line({{"a", nullptr}}), seen.on());
  EXPECT_TRUE(table.empty());
  const std::vector<std::pair<std::string, bool>> expected = {{"10.0.0.1:10911", true},
                                                              {"10.0.0.2:10911", true},
                                                              {"10.0.0.2:10911", false},
                                                              {"10.0.0.1:10911", false}};
  EXPECT_EQ(seen.changes, expected);
}

TEST(RouteViewTable, AnAddressListedTwiceStaysListedUntilBothGo) {
  RouteViewTable table;
  Recorded seen;
  table.apply(view_line({{"a", {{"0", "x:1"}}}, {"b", {{"0", "x:1"}}}}), seen.on());
  table.apply(view_line({{"a", nullptr}}), seen.on());
  EXPECT_TRUE(table.lists("x:1"));
  table.apply(view_line({{"b", nullptr}}), seen.on());
  EXPECT_FALSE(table.lists("x:1"));
  EXPECT_EQ(seen.changes.size(), 2u);
}

TEST(RouteViewTable, ClearReportsEveryListedAddressGone) {
  RouteViewTable table;
  table.apply(view_line({{"a", {{"0", "x:1"}}}, {"b", {{"0", "y:1"}}}}));
  Recorded seen;
  table.clear(seen.on());
  EXPECT_TRUE(table.empty());
  EXPECT_EQ(seen.changes.size(), 2u);
  EXPECT_EQ(table.fingerprint(), RouteViewTable().fingerprint());
}

TEST(RouteViewTable, FingerprintsAreEqualForEqualViewsHoweverReached) {
  RouteViewTable one;
  one.apply(view_line({{"a", {{"0", "x:1"}}}}));
  one.apply(view_line({{"b", {{"0", "y:1"}}}}));
  RouteViewTable other;
  other.apply(view_line({{"b", {{"0", "y:1"}}}, {"c", {{"0", "z:1"}}}}));
  other.apply(view_line({{"a", {{"0", "x:1"}}}, {"c", nullptr}}));
  EXPECT_EQ(one.fingerprint(), other.fingerprint());
  // Another address, another id, another digest: another view_line.
  RouteViewTable moved = one;
  moved.apply(view_line({{"b", {{"0", "y:2"}}}}));
  EXPECT_NE(moved.fingerprint(), one.fingerprint());
  RouteViewTable slave = one;
  slave.apply(view_line({{"b", {{"1", "y:1"}}}}));
  EXPECT_NE(slave.fingerprint(), one.fingerprint());
  RouteViewTable digest = one;
  digest.apply(view_line(json::object(), 8));
  EXPECT_NE(digest.fingerprint(), one.fingerprint());
}

}  // namespace
}  // namespace nssim::sim

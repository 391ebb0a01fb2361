// The shared answers of pickup_topic_route_data and get_all_cluster_info: the same immutable value
// while nothing a caller could see changed, a new one after a change (a value already handed out
// keeps what it showed, as Java's per-call copy would), and supportActingMaster read per call.
#include <gtest/gtest.h>

#include "nameserver_core/route_info_manager.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::kBothProfiles;
using testing::kT0;
using testing::Namesrv;

TEST(RouteCache, RouteIsSharedUntilAChangeAndAHeldRouteKeepsItsValue) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master();
    ns.rim.register_broker(master.request({"T"}, {1}), kT0);
    const auto first = ns.rim.pickup_topic_route_data("T");
    ASSERT_NE(first, nullptr);
    EXPECT_EQ(ns.rim.pickup_topic_route_data("T"), first);
    ns.rim.register_broker(master.request({"T"}, {1}), kT0 + 30000);  // unchanged heartbeat
    EXPECT_EQ(ns.rim.pickup_topic_route_data("T"), first);

    ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0 + 30000);
    const auto second = ns.rim.pickup_topic_route_data("T");
    ASSERT_NE(second, first);
    EXPECT_EQ(second->broker_datas.at(0).broker_addrs.size(), 2u);
    EXPECT_EQ(first->broker_datas.at(0).broker_addrs.size(), 1u);  // as it was when handed out
    EXPECT_EQ(ns.rim.pickup_topic_route_data("T"), second);
  }
}

TEST(RouteCache, TopicsAppearAndGoWithTheTable) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    BrokerInfo master = BrokerInfo::master();
    EXPECT_EQ(ns.rim.pickup_topic_route_data("T"), nullptr);
    ns.rim.register_broker(master.request({"T"}, {1}), kT0);
    EXPECT_NE(ns.rim.pickup_topic_route_data("T"), nullptr);
    EXPECT_EQ(ns.rim.pickup_topic_route_data("U"), nullptr);
    master = master.next_version(kT0 + 1);
    ns.rim.register_broker(master.request({"T", "U"}, {1}), kT0 + 1);
    EXPECT_NE(ns.rim.pickup_topic_route_data("U"), nullptr);
    ns.rim.delete_topic("T");
    EXPECT_EQ(ns.rim.pickup_topic_route_data("T"), nullptr);
    ns.rim.wipe_write_perm_of_broker_by_lock(master.broker_name);
    EXPECT_EQ(ns.rim.pickup_topic_route_data("U")->queue_datas.at(0).perm, perm::kRead);
  }
}

// Java reads NamesrvConfig per call (UPDATE_NAMESRV_CONFIG takes effect at once): switching
// supportActingMaster changes the next answer although no table changed.
TEST(RouteCache, SupportActingMasterSwitchShowsInTheNextRoute) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const BrokerInfo master = BrokerInfo::master();
  ns.rim.register_broker(master.request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
  ns.rim.unregister_broker(master.unregister_request(), RemovalPath::kUnregisterRequest);
  const auto ids = [&] {
    return testing::ids_of(ns.rim.pickup_topic_route_data("T")->broker_datas.at(0));
  };
  EXPECT_EQ(ids(), (std::set<std::int64_t>{kMasterId}));  // the slave acts as master
  ns.config.support_acting_master = false;
  EXPECT_EQ(ids(), (std::set<std::int64_t>{1}));
  ns.config.support_acting_master = true;
  EXPECT_EQ(ids(), (std::set<std::int64_t>{kMasterId}));
}

TEST(RouteCache, ClusterInfoIsSharedUntilMembershipChanges) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master();
    const auto empty = ns.rim.get_all_cluster_info();
    EXPECT_TRUE(empty->broker_addr_table.empty());
    ns.rim.register_broker(master.request({"T"}, {1}), kT0);
    const auto first = ns.rim.get_all_cluster_info();
    ASSERT_NE(first, empty);
    EXPECT_EQ(first->broker_addr_table.size(), 1u);
    EXPECT_TRUE(empty->broker_addr_table.empty());
    ns.rim.register_broker(master.next_version(kT0 + 1).request({"T", "U"}, {1}), kT0 + 1);
    EXPECT_EQ(ns.rim.get_all_cluster_info(), first);  // a topic change: the same answer
    ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0 + 1);
    const auto second = ns.rim.get_all_cluster_info();
    ASSERT_NE(second, first);
    EXPECT_EQ(second->broker_addr_table.at(master.broker_name).broker_addrs.size(), 2u);
    EXPECT_EQ(first->broker_addr_table.at(master.broker_name).broker_addrs.size(), 1u);
  }
}

}  // namespace
}  // namespace nssim::core

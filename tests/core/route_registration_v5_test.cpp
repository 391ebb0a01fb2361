// RouteInfoManager#registerBroker, what only 5.x does: the stateVersion conflict, prime slaves and
// acting masters, per-broker heartbeat timeouts, zone and acting-master flags, min-broker-id
// notices and static-topic mappings.
#include <gtest/gtest.h>

#include "nameserver_core/route_info_manager.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::kBothProfiles;
using testing::kT0;
using testing::Namesrv;
using testing::perm_of;

// A registration for an id held by another live address whose stateVersion is higher is
// rejected: only the newcomer's own live entry goes, and the result is empty (not null).
TEST(RouteRegistrationV5, StateVersionConflictRejectsTheOlderRegistration) {
  Namesrv ns(Profile::kV5);
  const BrokerInfo holder = BrokerInfo::master().version({kT0, 1, 2});
  const BrokerInfo newcomer = BrokerInfo::slave().version({kT0, 1, 1});
  ns.rim.register_broker(holder.request({"T"}, {1}), kT0);
  ns.rim.register_broker(newcomer.request({"T"}, {2}), kT0);
  ASSERT_TRUE(testing::has_live_entry(ns.rim, "Default_Cluster", newcomer.broker_addr));

  auto result = ns.rim.register_broker(newcomer.id(0).request({"T", "New"}, {2}), kT0 + 1);
  ASSERT_TRUE(result.has_value());
  EXPECT_FALSE(result->master_addr.has_value());
  EXPECT_FALSE(result->ha_server_addr.has_value());
  EXPECT_FALSE(testing::has_live_entry(ns.rim, "Default_Cluster", newcomer.broker_addr));
  // The same-address removal ran before the check: the newcomer lost its id 1 as well.
  EXPECT_EQ(ns.rim.broker_addr_table().at("Default_Broker").broker_addrs,
            (std::map<std::int64_t, std::string>{{0, holder.broker_addr}}));
  EXPECT_FALSE((ns.rim.pickup_topic_route_data("New") != nullptr));
}

// An equal or higher stateVersion takes the id; 4.9 has no stateVersion and always replaces.
TEST(RouteRegistrationV5, LowerStateVersionTakesTheIdOnlyIn4x) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    for (std::int64_t state_version : {1, 2, 3}) {
      Namesrv ns(profile);
      ns.rim.register_broker(BrokerInfo::master().version({kT0, 1, 2}).request({"T"}, {1}), kT0);
      const BrokerInfo newcomer =
          BrokerInfo::master().addr("10.0.0.9:1").version({kT0, 1, state_version});
      ns.rim.register_broker(newcomer.request({"T"}, {2}), kT0);
      const bool replaced = profile == Profile::kV4_9 || state_version >= 2;
      EXPECT_EQ(ns.rim.broker_addr_table().at("Default_Broker").broker_addrs.at(0),
                replaced ? newcomer.broker_addr : "127.0.0.1:10911");
    }
  }
}

// RouteInfoManagerNewTest#registerOnlySlaveBroker
TEST(RouteRegistrationV5, RegisterOnlySlaveBroker) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const auto writable = [&ns] {
    return perm::is_writeable(ns.rim.pickup_topic_route_data("TestTopic")->queue_datas.at(0).perm);
  };
  // A lone slave is the prime slave: its topics are recorded, read-only.
  ns.rim.register_broker(BrokerInfo::slave().request({"TestTopic"}, {2}), kT0);
  ASSERT_TRUE((ns.rim.pickup_topic_route_data("TestTopic") != nullptr));
  EXPECT_FALSE(writable());
  ns.rim.unregister_broker(BrokerInfo::slave().unregister_request(),
                           RemovalPath::kUnregisterRequest);

  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"TestTopic"}, {2}), kT0);
  EXPECT_TRUE(writable());
  ns.rim.unregister_broker(BrokerInfo::master().unregister_request(),
                           RemovalPath::kUnregisterRequest);
  EXPECT_FALSE(writable());
  ns.rim.register_broker(BrokerInfo::master().request({"TestTopic"}, {1}), kT0);
  EXPECT_TRUE(writable());
}

// The write bit is stripped only when the group runs in acting-master mode.
TEST(RouteRegistrationV5, LoneSlaveWithoutActingMasterKeepsTheWriteBit) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::slave().acting_master(false).request({"T"}, {2}), kT0);
  EXPECT_EQ(perm_of(ns.rim, "T", "Default_Broker"), 6);
}

// A 4.x broker sends no enableActingMaster: it is never a prime slave, so its topics are ignored.
TEST(RouteRegistrationV5, OldVersionSlaveIsNeverPrime) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::slave().acting_master(std::nullopt).request({"T"}, {2}), kT0);
  EXPECT_TRUE(ns.rim.topic_queue_table().empty());
  EXPECT_FALSE(ns.rim.broker_addr_table().at("Default_Broker").enable_acting_master);
}

// Prime means the smallest id of the group after the put, with or without a master.
TEST(RouteRegistrationV5, OnlyTheSmallestIdIsPrime) {
  Namesrv ns(Profile::kV5);
  const BrokerInfo slave2 = BrokerInfo::slave().id(2).addr("10.0.0.2:1");
  const BrokerInfo slave3 = BrokerInfo::slave().id(3).addr("10.0.0.3:1");
  ns.rim.register_broker(slave2.request({"T"}, {2}), kT0);
  ns.rim.register_broker(slave3.next_version(kT0).request({"T", "X"}, {3}), kT0);
  EXPECT_FALSE(perm_of(ns.rim, "X", "Default_Broker").has_value());
  ns.rim.register_broker(slave2.next_version(kT0).request({"T", "X"}, {2}), kT0);
  EXPECT_EQ(perm_of(ns.rim, "X", "Default_Broker"), perm::kRead);

  ns.rim.register_broker(BrokerInfo::master().request({"T", "M"}, {1}), kT0);
  ns.rim.register_broker(slave2.next_version(kT0 + 1).request({"T", "Y"}, {2}), kT0 + 1);
  EXPECT_EQ(perm_of(ns.rim, "M", "Default_Broker"), 6);
  EXPECT_FALSE(perm_of(ns.rim, "Y", "Default_Broker").has_value());
}

// zoneName and enableActingMaster belong to the group but are overwritten by every member; 4.9
// knows neither.
TEST(RouteRegistrationV5, EveryMemberOverwritesZoneAndActingMaster) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    RegisterBrokerRequest master = BrokerInfo::master().acting_master(true).request({"T"}, {1});
    master.zone_name = "zone-a";
    ns.rim.register_broker(master, kT0);
    const BrokerData& broker_data = ns.rim.broker_addr_table().at("Default_Broker");
    EXPECT_EQ(broker_data.enable_acting_master, profile == Profile::kV5);
    EXPECT_EQ(broker_data.zone_name.has_value(), profile == Profile::kV5);

    RegisterBrokerRequest slave = BrokerInfo::slave().acting_master(false).request({"T"}, {2});
    slave.zone_name = "zone-b";
    ns.rim.register_broker(slave, kT0);
    EXPECT_FALSE(broker_data.enable_acting_master);
    EXPECT_EQ(broker_data.zone_name,
              profile == Profile::kV5 ? std::optional<std::string>("zone-b") : std::nullopt);
  }
}

// heartbeatTimeoutMillis comes from the request; null means 120 s. 4.9 always uses 120 s.
TEST(RouteRegistrationV5, HeartbeatTimeoutIsStoredPerBroker) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    RegisterBrokerRequest request = BrokerInfo::master().request({"T"}, {1});
    request.heartbeat_timeout_millis = 10000;
    ns.rim.register_broker(request, kT0);
    ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
    std::vector<std::int64_t> timeouts;
    for (const auto& [key, live] : ns.rim.broker_live_table()) {
      timeouts.push_back(live.heartbeat_timeout_millis);
    }
    // Keys sort by address: the master (10911) before the slave (30911).
    EXPECT_EQ(timeouts,
              (std::vector<std::int64_t>{profile == Profile::kV5 ? 10000 : 120000, 120000}));
  }
}

// A registration whose id is below the group's smallest gives a notice, sent (Java:
// chooseBrokerAddrsToNotify) to every member but the new minimum; only with
// notifyMinBrokerIdChanged.
TEST(RouteRegistrationV5, SmallerIdRegistrationNotifiesTheOtherMembers) {
  for (bool notify : {false, true}) {
    SCOPED_TRACE(notify);
    NamesrvConfig config;
    config.notify_min_broker_id_changed = notify;
    Namesrv ns(Profile::kV5, config);
    ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
    EXPECT_TRUE(ns.rim.take_min_broker_id_notices().empty());  // an empty group counts as 0

    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);  // not smaller now
    auto notices = ns.rim.take_min_broker_id_notices();
    if (!notify) {
      EXPECT_TRUE(notices.empty());
      continue;
    }
    ASSERT_EQ(notices.size(), 1u);
    EXPECT_EQ(notices[0].min_broker_id, 0);
    EXPECT_EQ(notices[0].min_broker_addr, "127.0.0.1:10911");
    EXPECT_FALSE(notices[0].offline_broker_addr.has_value());
    EXPECT_EQ(notices[0].ha_broker_addr, "127.0.0.1:20911");
    EXPECT_EQ(notices[0].notify_addrs, (std::vector<std::string>{"127.0.0.1:30911"}));
    EXPECT_TRUE(ns.rim.take_min_broker_id_notices().empty());
  }
}

// Static-topic mappings are stored under each mapping's own bname, only when the DataVersion
// changed or on registerFirst, and handed out with the route; 4.9 has none.
TEST(RouteRegistrationV5, StaticTopicMappingsFollowTheDataVersion) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const auto register_mapping = [&ns](const BrokerInfo& broker, const std::string& json) {
      RegisterBrokerRequest request = broker.request({"T"}, {1});
      request.topic_config_wrapper->topic_queue_mapping_info_map["T"] = {"Mapped_Broker", json};
      ns.rim.register_broker(request, kT0);
    };
    register_mapping(BrokerInfo::master(), "first");
    auto route = ns.rim.pickup_topic_route_data("T");
    if (profile == Profile::kV4_9) {
      EXPECT_FALSE(route->topic_queue_mapping_by_broker.has_value());
      EXPECT_TRUE(ns.rim.topic_queue_mapping_info_table().empty());
      continue;
    }
    ASSERT_TRUE(route->topic_queue_mapping_by_broker.has_value());
    EXPECT_EQ(route->topic_queue_mapping_by_broker->at("Mapped_Broker").json, "first");
    EXPECT_FALSE(ns.rim.pickup_topic_route_data("baseTopic")->topic_queue_mapping_by_broker);

    register_mapping(BrokerInfo::master(), "second");
    EXPECT_EQ(ns.rim.topic_queue_mapping_info_table().at("T").at("Mapped_Broker").json, "first");
    register_mapping(BrokerInfo::master().next_version(kT0), "third");
    EXPECT_EQ(ns.rim.topic_queue_mapping_info_table().at("T").at("Mapped_Broker").json, "third");
  }
}

}  // namespace
}  // namespace nssim::core

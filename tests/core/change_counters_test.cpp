// RouteInfoManager's change counters: route_change_count moves exactly when a table a route answer
// is built from changes, cluster_info_change_count exactly when getAllClusterInfo's tables do, and
// neither moves on a heartbeat that changes nothing visible (the common case they exist for).
#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

#include "nameserver_core/route_info_manager.h"
#include "support/route_builders.h"

namespace nssim::core {
namespace {

using testing::BrokerInfo;
using testing::kBothProfiles;
using testing::kExpiry;
using testing::kT0;
using testing::Namesrv;
using testing::topic_config;

std::string text_of(const BrokerData& data) {
  std::ostringstream out;
  out << data.cluster << '/' << data.broker_name << '/' << data.zone_name.value_or("-") << '/'
      << data.enable_acting_master;
  for (const auto& [id, addr] : data.broker_addrs) out << ' ' << id << '=' << addr;
  return out.str();
}

// Everything pickup_topic_route_data reads, as text.
std::string route_tables(const RouteInfoManager& rim) {
  std::ostringstream out;
  for (const auto& [topic, queue_data_map] : rim.topic_queue_table()) {
    out << "T " << topic;
    for (const auto& [name, q] : queue_data_map) {
      out << ' ' << name << ':' << q.broker_name << ',' << q.read_queue_nums << ','
          << q.write_queue_nums << ',' << q.perm << ',' << q.topic_sys_flag;
    }
    out << '\n';
  }
  for (const auto& [name, data] : rim.broker_addr_table()) out << "B " << text_of(data) << '\n';
  for (const auto& [key, servers] : rim.filter_server_table()) {
    out << "F " << key.cluster_name << '/' << key.broker_addr;
    for (const auto& server : servers) out << ' ' << (server ? '"' + *server + '"' : "null");
    out << '\n';
  }
  for (const auto& [topic, mappings] : rim.topic_queue_mapping_info_table()) {
    for (const auto& [bname, info] : mappings) {
      out << "M " << topic << ' ' << bname << ' ' << info.bname << ' ' << info.json << '\n';
    }
  }
  return out.str();
}

// Everything getAllClusterInfo shows, as text.
std::string cluster_tables(const RouteInfoManager& rim) {
  std::ostringstream out;
  for (const auto& [name, data] : rim.broker_addr_table()) out << "B " << text_of(data) << '\n';
  for (const auto& [cluster, names] : rim.cluster_addr_table()) {
    out << "C " << cluster;
    for (const auto& name : names) out << ' ' << name;
    out << '\n';
  }
  return out.str();
}

struct Moved {
  bool route = false;
  bool cluster_info = false;
};

// Runs `operation` and checks that each counter moved exactly when its tables changed content.
Moved run_checked(RouteInfoManager& rim, const std::function<void()>& operation) {
  const std::string routes_before = route_tables(rim);
  const std::string clusters_before = cluster_tables(rim);
  const std::uint64_t route_count = rim.route_change_count();
  const std::uint64_t cluster_count = rim.cluster_info_change_count();
  operation();
  const Moved moved{rim.route_change_count() != route_count,
                    rim.cluster_info_change_count() != cluster_count};
  EXPECT_EQ(moved.route, route_tables(rim) != routes_before);
  EXPECT_EQ(moved.cluster_info, cluster_tables(rim) != clusters_before);
  return moved;
}

RegisterBrokerRequest with_filter_servers(RegisterBrokerRequest request, FilterServerList servers) {
  request.filter_server_list = std::move(servers);
  return request;
}

TEST(ChangeCounters, HeartbeatWithUnchangedDataVersionMovesNeither) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master();
    Moved first =
        run_checked(ns.rim, [&] { ns.rim.register_broker(master.request({"T"}, {1}), kT0); });
    EXPECT_TRUE(first.route);
    EXPECT_TRUE(first.cluster_info);
    for (std::int64_t now : {kT0 + 30000, kT0 + 60000}) {
      Moved heartbeat =
          run_checked(ns.rim, [&] { ns.rim.register_broker(master.request({"T"}, {1}), now); });
      EXPECT_FALSE(heartbeat.route);
      EXPECT_FALSE(heartbeat.cluster_info);
    }
    // A new connection and a new DataVersion with the same topics: only the live entry changes.
    Moved same_topics = run_checked(ns.rim, [&] {
      ns.rim.register_broker(master.next_version(kT0 + 90000).request({"T"}, {2}), kT0 + 90000);
    });
    EXPECT_FALSE(same_topics.route);
    EXPECT_FALSE(same_topics.cluster_info);
    Moved touched = run_checked(ns.rim, [&] {
      ns.rim.update_broker_info_update_timestamp(master.cluster_name, master.broker_addr,
                                                 kT0 + 95000);
    });
    EXPECT_FALSE(touched.route);
    EXPECT_FALSE(touched.cluster_info);
  }
}

TEST(ChangeCounters, TopicChangesMoveOnlyTheRouteCounter) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    BrokerInfo master = BrokerInfo::master();
    ns.rim.register_broker(master.request({"T"}, {1}), kT0);
    master = master.next_version(kT0 + 1);
    Moved added = run_checked(ns.rim, [&] {
      ns.rim.register_broker(master.request({"T", "U"}, {1}), kT0 + 1);
    });
    EXPECT_TRUE(added.route);
    EXPECT_FALSE(added.cluster_info);
    master = master.next_version(kT0 + 2);
    Moved queues = run_checked(ns.rim, [&] {
      ns.rim.register_broker(
          master.request_with(
              {topic_config("baseTopic", 16), topic_config("T", 4), topic_config("U")}, {1}),
          kT0 + 2);
    });
    EXPECT_TRUE(queues.route);
    EXPECT_FALSE(queues.cluster_info);
    EXPECT_TRUE(run_checked(ns.rim, [&] {
                  ns.rim.wipe_write_perm_of_broker_by_lock("Default_Broker");
                }).route);
    EXPECT_FALSE(run_checked(ns.rim, [&] {
                   ns.rim.wipe_write_perm_of_broker_by_lock("Default_Broker");
                 }).route);
    EXPECT_TRUE(run_checked(ns.rim, [&] {
                  ns.rim.add_write_perm_of_broker_by_lock("Default_Broker");
                }).route);
    EXPECT_TRUE(run_checked(ns.rim, [&] { ns.rim.delete_topic("U"); }).route);
    EXPECT_FALSE(run_checked(ns.rim, [&] { ns.rim.delete_topic("U"); }).route);
    EXPECT_TRUE(run_checked(ns.rim, [&] { ns.rim.delete_topic("T", "Default_Cluster"); }).route);
    EXPECT_FALSE(run_checked(ns.rim, [&] { ns.rim.delete_topic("T", "Other_Cluster"); }).route);
    EXPECT_FALSE(run_checked(ns.rim, [&] { ns.rim.delete_topic("T", "Default_Cluster"); }).route);
  }
}

TEST(ChangeCounters, FilterServersMoveOnlyTheRouteCounter) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master();
    ns.rim.register_broker(master.request({"T"}, {1}), kT0);
    const auto with_servers = [&](FilterServerList servers, std::int64_t now) {
      return run_checked(ns.rim, [&] {
        ns.rim.register_broker(with_filter_servers(master.request({"T"}, {1}), servers), now);
      });
    };
    Moved added = with_servers({"fs:1"}, kT0 + 1);
    EXPECT_TRUE(added.route);
    EXPECT_FALSE(added.cluster_info);
    EXPECT_FALSE(with_servers({"fs:1"}, kT0 + 2).route);
    EXPECT_TRUE(with_servers({"fs:1", "fs:2"}, kT0 + 3).route);
    EXPECT_TRUE(with_servers({}, kT0 + 4).route);
    EXPECT_FALSE(with_servers({}, kT0 + 5).route);
  }
}

TEST(ChangeCounters, MembershipChangesMoveBoth) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    const BrokerInfo master = BrokerInfo::master();
    const BrokerInfo slave = BrokerInfo::slave();
    ns.rim.register_broker(master.request({"T"}, {1}), kT0);
    Moved joined =
        run_checked(ns.rim, [&] { ns.rim.register_broker(slave.request({"T"}, {2}), kT0); });
    EXPECT_TRUE(joined.route);
    EXPECT_TRUE(joined.cluster_info);
    Moved other_group = run_checked(ns.rim, [&] {
      ns.rim.register_broker(master.name("Other").addr("127.0.0.2:10911").request({"T"}, {3}), kT0);
    });
    EXPECT_TRUE(other_group.route);
    EXPECT_TRUE(other_group.cluster_info);
    Moved left = run_checked(ns.rim, [&] {
      ns.rim.unregister_broker(slave.unregister_request(), RemovalPath::kUnregisterRequest);
    });
    EXPECT_TRUE(left.route);
    EXPECT_TRUE(left.cluster_info);
    Moved again = run_checked(ns.rim, [&] {
      ns.rim.unregister_broker(slave.unregister_request(), RemovalPath::kUnregisterRequest);
    });
    EXPECT_FALSE(again.route);
    EXPECT_FALSE(again.cluster_info);
    Moved last = run_checked(ns.rim, [&] {
      ns.rim.unregister_broker(master.unregister_request(), RemovalPath::kUnregisterRequest);
    });
    EXPECT_TRUE(last.route);
    EXPECT_TRUE(last.cluster_info);
  }
}

TEST(ChangeCounters, ExpiryMovesBothWhenTheBrokerIsRemoved) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    EXPECT_FALSE(run_checked(ns.rim, [&] { ns.rim.scan_not_active_broker(kT0 + kExpiry); }).route);
    Moved scanned = run_checked(ns.rim, [&] { ns.rim.scan_not_active_broker(kT0 + kExpiry + 1); });
    // 4.9 removes inline; 5.x only queues until the batch service drains.
    EXPECT_EQ(scanned.route, profile == Profile::kV4_9);
    EXPECT_EQ(scanned.cluster_info, profile == Profile::kV4_9);
    Moved drained = run_checked(ns.rim, [&] { ns.rim.process_pending_unregistrations(); });
    EXPECT_EQ(drained.route, profile == Profile::kV5);
    EXPECT_EQ(drained.cluster_info, profile == Profile::kV5);
  }
}

TEST(ChangeCounters, ChannelDestroyMovesBothWhenTheBrokerIsRemoved) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(profile_name(profile));
    Namesrv ns(profile);
    ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
    Moved unknown = run_checked(
        ns.rim, [&] { ns.rim.on_channel_destroy({9}, "", RemovalPath::kChannelClose); });
    EXPECT_FALSE(unknown.route);
    EXPECT_FALSE(unknown.cluster_info);
    run_checked(ns.rim, [&] {
      ns.rim.on_channel_destroy({1}, "127.0.0.1:10911", RemovalPath::kChannelClose);
      ns.rim.process_pending_unregistrations();
    });
    EXPECT_TRUE(ns.rim.broker_addr_table().empty());
  }
}

// 5.x: acting-master mode clears the write bit when the master goes, a route change only.
TEST(ChangeCounters, ActingMasterWriteBitClearMovesTheRouteCounter) {
  Namesrv ns(Profile::kV5, testing::acting_master_config());
  const BrokerInfo master = BrokerInfo::master();
  ns.rim.register_broker(master.request({"T"}, {1}), kT0);
  ns.rim.register_broker(BrokerInfo::slave().request({"T"}, {2}), kT0);
  Moved gone = run_checked(ns.rim, [&] {
    ns.rim.unregister_broker(master.unregister_request(), RemovalPath::kUnregisterRequest);
  });
  EXPECT_TRUE(gone.route);
  EXPECT_TRUE(gone.cluster_info);
  EXPECT_EQ(testing::perm_of(ns.rim, "T", "Default_Broker"), perm::kRead);
}

TEST(ChangeCounters, RegisterTopicMovesTheRouteCounterOnlyWhenItWrites) {
  Namesrv ns(Profile::kV5);
  ns.rim.register_broker(BrokerInfo::master().request({"T"}, {1}), kT0);
  const QueueData queue{"Default_Broker", 8, 8, perm::kRead | perm::kWrite, 0};
  EXPECT_FALSE(run_checked(ns.rim, [&] { ns.rim.register_topic("T", {queue}); }).route);
  EXPECT_TRUE(run_checked(ns.rim, [&] { ns.rim.register_topic("New", {queue}); }).route);
  QueueData unknown = queue;
  unknown.broker_name = "Unknown";
  EXPECT_FALSE(run_checked(ns.rim, [&] { ns.rim.register_topic("Newer", {unknown}); }).route);
}

// 5.x: what a registration can change besides topics: zone and acting-master mode (both shown by
// cluster info), static-topic mappings (routes only), and the empty group the single-topic guard
// leaves behind.
TEST(ChangeCounters, V5RegistrationFieldsMoveWhatShowsThem) {
  Namesrv ns(Profile::kV5);
  BrokerInfo master = BrokerInfo::master();
  ns.rim.register_broker(master.request({"T"}, {1}), kT0);
  Moved zoned = run_checked(ns.rim, [&] {
    RegisterBrokerRequest request = master.request({"T"}, {1});
    request.zone_name = "zone-a";
    ns.rim.register_broker(request, kT0 + 1);
  });
  EXPECT_TRUE(zoned.cluster_info);
  EXPECT_TRUE(run_checked(ns.rim, [&] {
                ns.rim.register_broker(master.acting_master(false).request({"T"}, {1}), kT0 + 2);
              }).cluster_info);
  master = master.acting_master(false).next_version(kT0 + 3);
  const auto with_mapping = [&](const std::string& json, std::int64_t now) {
    return run_checked(ns.rim, [&] {
      RegisterBrokerRequest request = master.request({"T"}, {1});
      request.topic_config_wrapper->topic_queue_mapping_info_map["T"] = {"Default_Broker", json};
      ns.rim.register_broker(request, now);
    });
  };
  Moved mapped = with_mapping("{}", kT0 + 3);
  EXPECT_TRUE(mapped.route);
  EXPECT_FALSE(mapped.cluster_info);
  master = master.next_version(kT0 + 4);
  EXPECT_FALSE(with_mapping("{}", kT0 + 4).route);
  master = master.next_version(kT0 + 5);
  EXPECT_TRUE(with_mapping("{\"epoch\":1}", kT0 + 5).route);
  Moved guarded = run_checked(ns.rim, [&] {
    ns.rim.register_broker(
        master.name("Lone").addr("127.0.0.3:10911").request_with({topic_config("only")}, {4}),
        kT0 + 6);
  });
  EXPECT_TRUE(guarded.cluster_info);  // an empty BrokerData and a cluster member stay behind
  EXPECT_EQ(ns.rim.broker_addr_table().at("Lone").broker_addrs.size(), 0u);
}

}  // namespace
}  // namespace nssim::core

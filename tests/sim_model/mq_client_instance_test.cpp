// MQClientInstance on its own, with no ProducerModel: the tables a route fills, the master's
// address found from them, and a channel opened through its NettyRemotingClient, all seen and
// reused by a second client of the same instance (a consumer of the same instanceName, upstream).
#include "sim/client/mq_client_instance.h"

#include <gtest/gtest.h>

#include "nameserver_core/profile.h"
#include "sim/client/nameserver_client.h"
#include "sim/client/nameserver_selector.h"
#include "sim/client/netty_remoting_client.h"
#include "sim/network/network_history.h"
#include "sim/scenario/rng.h"
#include "tests/sim_model/route_fixtures.h"

namespace nssim::sim {
namespace {

struct OneBrokerWorld {
  OneBrokerWorld() {
    client_node = net.add_node("client-0", 0.5);
    broker_node = net.add_node("broker-a-0", 0.5);
    nameserver = net.add_node("ns-0", 0.5);
    for (const NodeId node : {client_node, broker_node, nameserver}) net.start_process(node, 0);
    book["broker-a:10911"] = broker_node;
    book["broker-a-s:10911"] = broker_node;
  }
  NameServerClient nameservers() const {
    Rng rng(7);
    return NameServerClient{NameServerSelector({nameserver}, rng), {}};
  }
  NetworkHistory net;
  AddressBook book;
  NodeId client_node = 0;
  NodeId broker_node = 0;
  NodeId nameserver = 0;
};

TEST(MQClientInstance, ClientsOfOneInstanceShareItsTablesAndChannels) {
  OneBrokerWorld world;
  MQClientInstance instance(
      core::Profile::kV5,
      NettyRemotingClient(
          core::Profile::kV5, world.client_node, world.net, world.book,
          {/*connect_timeout_millis=*/3000, /*client_close_socket_if_timeout=*/false},
          world.nameservers()));
  // The first client (a producer, say) applies a route and opens a channel to the master.
  const MQClientInstance::RouteApplied applied =
      instance.apply_route("TopicA", testing::route_of({{"broker-a"}}));
  ASSERT_NE(applied.info, nullptr);
  EXPECT_EQ(applied.gained, std::vector<std::string>{"broker-a"});
  const std::optional<std::uint32_t> broker = instance.broker_ids.find("broker-a");
  ASSERT_TRUE(broker.has_value());
  const std::optional<std::uint32_t> addr = instance.find_broker_address_in_publish(*broker);
  ASSERT_TRUE(addr.has_value());
  NettyRemotingClient::ChannelPick opened = instance.remoting.get_and_create_channel(*addr, 0);
  ASSERT_TRUE(opened.created);
  EXPECT_EQ(opened.channel->node, world.broker_node);
  ASSERT_EQ(opened.channel->connect.outcome, Delivery::kDelivered);
  // The connect's end is its owner's to run, as ProducerModel's on_connect_done does.
  opened.channel->connected = true;
  opened.channel->epoch = opened.channel->connect.epoch;
  opened.channel->opened_ms = opened.channel->connect.at_ms;

  // A second client of the same instance (a consumer) reads the same tables...
  MQClientInstance& second = instance;
  EXPECT_EQ(second.topic_route_table.count("TopicA"), 1U);
  EXPECT_EQ(second.broker_addr_table.at("broker-a").at(0), "broker-a:10911");
  EXPECT_EQ(second.find_broker_address_in_publish(*second.broker_ids.find("broker-a")), addr);
  // ... and reuses the open channel instead of connecting again.
  const std::int64_t later_ms = opened.channel->connect.at_ms + 5;
  const NettyRemotingClient::ChannelPick reused =
      second.remoting.get_and_create_channel(*addr, later_ms);
  EXPECT_FALSE(reused.created);
  EXPECT_EQ(reused.id, opened.id);
  EXPECT_EQ(reused.channel, opened.channel);
  // The same route again changes nothing, whichever client's query brought it.
  EXPECT_EQ(second.apply_route("TopicA", testing::route_of({{"broker-a"}})).info, nullptr);
}

}  // namespace
}  // namespace nssim::sim

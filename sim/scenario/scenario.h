// File: the scenario model: cluster, workload, fault timeline and expectations, as loaded from a
// scenario JSON file (see scenarios/README.md). Every RocketMQ setting keeps its upstream name in
// the file; here each is a field with the upstream default of the scenario's profile. All times
// are int64 milliseconds unless a name says otherwise. Node names: NameServers "ns-0".., brokers
// "<group>-<brokerId>" ("broker-a-0" is the master), producers and consumers "<name_prefix>-<i>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"

namespace nssim::sim {

// A node's access link. Host-to-host latency is the sum of both ends' latencies (star platform).
struct LinkSpec {
  double latency_ms = 0.5;
  double bandwidth_mbps = 1000.0;
};

// When a node starts: fixed, or drawn uniformly from [min_ms, max_ms] with the seed.
struct StartSpec {
  std::int64_t min_ms = 0;
  std::int64_t max_ms = 0;
};

struct NameServerSpec {
  int count = 3;
  core::NamesrvConfig config;  // scanNotActiveBrokerInterval etc.; 4.9 scans every 10 s regardless
  // Java: NettyServerConfig#serverChannelMaxIdleTimeSeconds.
  std::int64_t server_channel_max_idle_time_seconds = 120;
  LinkSpec link;
  StartSpec start{0, 5000};
};

// Java: BrokerConfig (the fields that change routing), with upstream defaults per profile.
struct BrokerConfig {
  std::int64_t register_name_server_period = 30000;       // registerNameServerPeriod
  std::int64_t register_broker_timeout_mills = 24000;     // 4.9: 6000, 5.x: 24000
  bool force_register = true;                             // forceRegister
  int broker_permission = 6;                              // brokerPermission
  bool enable_slave_acting_master = false;                // enableSlaveActingMaster (5.x)
  std::int64_t broker_heartbeat_interval = 1000;          // brokerHeartbeatInterval (5.x)
  std::int64_t broker_not_active_timeout_millis = 10000;  // brokerNotActiveTimeoutMillis (5.x)
  bool compatible_with_old_name_srv = true;               // compatibleWithOldNameSrv (5.x)
  bool auto_create_topic_enable = true;                   // autoCreateTopicEnable
  int default_topic_queue_nums = 8;                       // defaultTopicQueueNums
  // namesrvAddr: the NameServers this group registers with, "addr;addr" as upstream writes it
  // (BrokerConfig#namesrvAddr). Empty: every NameServer of the scenario (upstream has no such
  // default: a broker without namesrvAddr registers nowhere).
  std::string namesrv_addr;
};

// One broker group: a master (brokerId 0) and `slaves` slaves (brokerId 1..n).
struct BrokerGroupSpec {
  std::string name;                        // brokerName
  std::string cluster = "DefaultCluster";  // brokerClusterName
  int slaves = 0;
  BrokerConfig config;
  LinkSpec link;
  StartSpec start{5000, 15000};  // after the NameServers, before the producers
  // config.namesrv_addr resolved: indices of the NameServers, in the order written; empty: all.
  std::vector<int> nameservers;
  // "instance_of": the earlier producer set whose processes this set's producers run in, one in
  // each, registered in that process's MQClientInstance (two DefaultMQProducers of one JVM with
  // one instanceName: MQClientManager#getOrCreateMQClientInstance gives the second the first's
  // instance). Such a set has no processes of its own: the loader copies the host's count,
  // start, link and the instance's settings (kClientInstanceSettings) into it. Without it each
  // process holds one instance of its own, as upstream's default instanceName gives each
  // producer (ClientConfig#changeInstanceNameToPID: pid#nanoTime in 4.9.8 and 5.3.3).
  std::optional<std::size_t> instance_of;
};

struct TopicSpec {
  std::string name;
  std::vector<std::string> groups;  // broker groups serving it (the loader fills in all of them
                                    // when the file leaves "groups" out)
  int read_queue_nums = 16;         // TopicConfig defaults
  int write_queue_nums = 16;
  int perm = 6;
};

enum class Arrival { kFixed, kPoisson };

// Java: ClientConfig + DefaultMQProducer settings, upstream names and defaults.
struct ProducerConfig {
  std::int64_t poll_name_server_interval = 30000;       // pollNameServerInterval
  std::int64_t heartbeat_broker_interval = 30000;       // heartbeatBrokerInterval
  std::int64_t mq_client_api_timeout = 3000;            // mqClientApiTimeout
  std::int64_t send_msg_timeout = 3000;                 // sendMsgTimeout
  int retry_times_when_send_failed = 2;                 // retryTimesWhenSendFailed
  bool send_latency_fault_enable = false;               // sendLatencyFaultEnable
  bool retry_another_broker_when_not_store_ok = false;  // retryAnotherBrokerWhenNotStoreOK
  std::int64_t send_msg_max_timeout_per_request = -1;   // sendMsgMaxTimeoutPerRequest (5.x)
  bool start_detector_enable = false;                   // startDetectorEnable (5.x)
  std::int64_t connect_timeout_millis = 3000;  // com.rocketmq.remoting.client.connect.timeout
  bool client_close_socket_if_timeout = true;  // clientCloseSocketIfTimeout
  // namesrvAddr: the NameServers this producer set polls (ClientConfig#namesrvAddr, "addr;addr").
  // Empty: every NameServer of the scenario.
  std::string namesrv_addr;
};

struct ProducerSpec {
  std::string name_prefix = "producer";
  int count = 1;
  std::vector<std::string> topics;  // sends are spread round-robin over these (the loader fills
                                    // in every topic when the file leaves "topics" out)
  double rate_per_s = 1.0;          // per producer
  Arrival arrival = Arrival::kFixed;
  int message_size_bytes = 1024;
  ProducerConfig config;
  LinkSpec link;
  StartSpec start{15000, 45000};
  // config.namesrv_addr resolved: indices of the NameServers, in the order written; empty: all.
  std::vector<int> nameservers;
  // "instance_of": the earlier producer set whose processes this set's producers run in, one in
  // each, registered in that process's MQClientInstance (two DefaultMQProducers of one JVM with
  // one instanceName: MQClientManager#getOrCreateMQClientInstance gives the second the first's
  // instance). Such a set has no processes of its own: the loader copies the host's count,
  // start, link and the instance's settings (kClientInstanceSettings) into it. Without it each
  // process holds one instance of its own, as upstream's default instanceName gives each
  // producer (ClientConfig#changeInstanceNameToPID: pid#nanoTime in 4.9.8 and 5.3.3).
  std::optional<std::size_t> instance_of;
};

// Java: ClientConfig + DefaultMQPushConsumer settings, upstream names and defaults (both lines).
// rebalance_min_interval is 5.x's (RebalanceService since 5.2.0) and keeps its default under 4.9,
// where nothing reads it.
struct ConsumerConfig {
  std::int64_t poll_name_server_interval = 30000;        // pollNameServerInterval
  std::int64_t heartbeat_broker_interval = 30000;        // heartbeatBrokerInterval
  std::int64_t persist_consumer_offset_interval = 5000;  // persistConsumerOffsetInterval
  std::int64_t mq_client_api_timeout = 3000;             // mqClientApiTimeout
  std::int64_t connect_timeout_millis = 3000;  // com.rocketmq.remoting.client.connect.timeout
  bool client_close_socket_if_timeout = true;  // clientCloseSocketIfTimeout
  int pull_batch_size = 32;                    // pullBatchSize
  std::int64_t pull_interval = 0;              // pullInterval
  int consume_thread_min = 20;                 // consumeThreadMin
  int consume_thread_max = 20;                 // consumeThreadMax
  std::int64_t pull_time_delay_mills_when_exception = 1000;  // pullTimeDelayMillsWhenException
  // DefaultMQPushConsumerImpl#BROKER_SUSPEND_MAX_TIME_MILLIS, a constant upstream.
  std::int64_t broker_suspend_max_time_millis = 15000;
  std::int64_t rebalance_wait_interval = 20000;  // rocketmq.client.rebalance.waitInterval
  std::int64_t rebalance_min_interval = 1000;    // rocketmq.client.rebalance.minInterval (5.x)
  // namesrvAddr: the NameServers this consumer set polls (ClientConfig#namesrvAddr, "addr;addr").
  // Empty: every NameServer of the scenario.
  std::string namesrv_addr;
};

// A set of push consumer processes (DefaultMQPushConsumer, CLUSTERING, concurrently), each its
// own MQClientInstance (the default instanceName gives each process one, and a restart a new
// clientId: ClientConfig#changeInstanceNameToPID).
struct ConsumerSpec {
  std::string group;  // consumerGroup
  std::string name_prefix = "consumer";
  int count = 1;
  std::vector<std::string> topics;  // subscriptions, each with sub expression "*"
  std::int64_t consume_ms = 1;      // listener time per message (consumeMessageBatchMaxSize 1)
  ConsumerConfig config;
  LinkSpec link;
  StartSpec start{15000, 45000};  // as producers
  // config.namesrv_addr resolved: indices of the NameServers, in the order written; empty: all.
  std::vector<int> nameservers;
};

enum class FaultKind {
  kKill,           // process crash: peers see FIN/RST; restarts after duration_ms
  kPoweroff,       // host down, silent; boots and restarts after duration_ms
  kShutdown,       // clean shutdown with unregister; restarts after duration_ms if given
  kPause,          // frozen process: no timers, no replies; connections stay open
  kPartition,      // silent drop between two sides, symmetric or one-way; healed after duration_ms
  kLatency,        // a node's latency raised for duration_ms
  kWipeWritePerm,  // admin: WIPE_WRITE_PERM_OF_BROKER sent to every NameServer
  kAddWritePerm,   // admin: ADD_WRITE_PERM_OF_BROKER sent to every NameServer
  kUpdateTopic,    // admin: UPDATE_AND_CREATE_TOPIC sent to a group's master (mqadmin updateTopic)
};

// Every fault kind, in the order messages list them.
const std::vector<FaultKind>& fault_kinds();
// The kind as written in scenario files ("kill", "wipeWritePerm"...), and back.
const char* fault_kind_name(FaultKind kind);
std::optional<FaultKind> parse_fault_kind(const std::string& text);

struct FaultSpec {
  FaultKind kind = FaultKind::kKill;
  std::int64_t at_ms = 0;
  // Absent: the fault lasts to the end of the run (admin kinds never have one).
  std::optional<std::int64_t> duration_ms;
  // Position in the file's "faults" array before sorting: the one number of a fault in every
  // message and output (result.json's faults[].index, outages[].fault, the events' fault), as
  // `--set faults[2]...` and `--grid` take it.
  std::size_t file_index = 0;
  // Resolved node names the fault acts on (kill, poweroff, shutdown, pause, latency): NameServers,
  // brokers and consumers (producers take latency only). A "group" target expands to all its
  // brokers; "nameservers": "all" to every NameServer.
  std::vector<std::string> nodes;
  // Partition sides, resolved to node names. one_way: only messages from side_a to side_b drop.
  std::vector<std::string> side_a;
  std::vector<std::string> side_b;
  bool one_way = false;
  double latency_ms = 0.0;  // kLatency: the node's new access-link latency
  std::string broker_name;  // kWipeWritePerm / kAddWritePerm / kUpdateTopic
  // kUpdateTopic: the topic config sent, with mqadmin updateTopic's defaults (8, 8, 6).
  std::string topic;
  int read_queue_nums = 8;
  int write_queue_nums = 8;
  int perm = 6;
};

// One check on a named figure of the run's result, e.g. "sends.failed.total == 0". Kept as
// parsed text here; the reports layer evaluates it.
struct Expectation {
  std::string figure;  // e.g. "outages[0].producers.stale_route_ms.max"
  std::string op;      // one of < <= > >= == !=
  std::string value;   // a number, or a figure path starting with "predicted."
  std::string source;  // the expression as written, for messages
  // Sweep expectations only: the statistic of the figure over seeds ("p99" in
  // "outages[0].producers.stale_route_ms.max:p99 <= 150000"); empty for a run's own.
  std::string stat;
};

// The statistics a sweep expectation may name, as written after the figure's ':'.
const std::vector<std::string>& sweep_stat_names();

// The optional "sweep" block: what `nssim sweep` (and `nssim check`) run by default, and the
// expectations on the distribution over seeds.
struct SweepSpec {
  std::optional<std::int64_t> seeds;  // how many seeds, 1..N; absent: nssim sweep's default
  std::vector<Expectation> expect;
};

// An inclusive range of milliseconds, min_ms <= max_ms.
struct MsRange {
  std::int64_t min_ms = 0;
  std::int64_t max_ms = 0;
};

// How the explore draw writes a target into a fault (the key the fault's own rules take).
enum class ExploreTargetForm {
  kNode,         // "node": a NameServer, broker, producer or consumer
  kGroup,        // "group" (or "broker_name" for admin kinds): a broker group
  kNameServers,  // "nameservers": "all"
  kSideOnly,     // "brokers", "producers", "consumers" or a client set: a partition side only
};

struct ExploreTarget {
  std::string name;  // as written
  ExploreTargetForm form = ExploreTargetForm::kNode;
  std::vector<std::string> nodes;  // what it stands for, in node order
  std::vector<FaultKind> kinds;    // the block's kinds that take it, in fault_kinds() order
};

// The optional "explore" block: the fault space `nssim explore` draws schedules from
// (scenarios/README.md#explore). Validated by the loader; drawn by sim/scenario/explore_draw.h.
struct ExploreSpec {
  std::vector<std::pair<FaultKind, double>> kinds;  // weight > 0, in fault_kinds() order
  std::vector<ExploreTarget> targets;               // in file order
  std::int64_t min_faults = 1;
  std::int64_t max_faults = 1;
  std::int64_t max_overlap = 1;  // faults with a duration running at one instant
  MsRange at;
  MsRange duration;
  double min_latency_ms = 0.0;  // latency faults' new access-link latency
  double max_latency_ms = 0.0;
};

struct Scenario {
  std::string file;  // where it was loaded from, for messages
  // The --set overrides it was loaded with, in order: with file, profile and seed, what repeats
  // the run (sim/scenario/repeat_command.h).
  std::vector<std::string> set;
  std::string name;
  std::string description;
  core::Profile profile = core::Profile::kV5;
  std::uint64_t seed = 1;
  std::int64_t duration_ms = 600000;
  NameServerSpec nameservers;
  std::vector<BrokerGroupSpec> broker_groups;
  std::vector<TopicSpec> topics;
  std::vector<ProducerSpec> producers;
  std::vector<ConsumerSpec> consumers;
  std::vector<FaultSpec> faults;  // sorted by at_ms, stable
  std::vector<Expectation> expect;
  std::optional<SweepSpec> sweep;
  std::optional<ExploreSpec> explore;
};

// Upstream defaults of each profile (4.9: registerBrokerTimeoutMills 6000; 5.x: 24000). The
// 5.x-only fields keep their 5.x defaults under 4.9, where nothing reads them.
BrokerConfig default_broker_config(core::Profile profile);
ProducerConfig default_producer_config(core::Profile profile);
ConsumerConfig default_consumer_config(core::Profile profile);

// Node naming, shared by the loader (fault targets) and the runner (hosts, actors).
std::string nameserver_name(int index);                                 // "ns-0"
std::string nameserver_address(int index);                              // "10.0.0.1:9876"
std::string broker_node_name(const std::string& group, int broker_id);  // "broker-a-0"
std::string producer_name(const std::string& name_prefix, int index);   // "producer-3"
std::string consumer_name(const std::string& name_prefix, int index);   // "consumer-3"

struct BrokerNode {
  std::string name;  // "<group>-<brokerId>"
  std::string group;
  std::string cluster;
  int broker_id = 0;            // 0 is the master
  std::size_t group_index = 0;  // into Scenario::broker_groups
};

struct ProducerNode {
  std::string name;            // "<name_prefix>-<index>"
  std::size_t spec_index = 0;  // into Scenario::producers
  int index = 0;
};

struct ConsumerNode {
  std::string name;            // "<name_prefix>-<index>"
  std::size_t spec_index = 0;  // into Scenario::consumers
  int index = 0;
};

// In a fixed order: NameServers by index; brokers by group, then brokerId; producers by spec,
// then index (a set with instance_of has no processes, so no nodes); consumers by spec, then
// index. node_names is the four lists concatenated.
std::vector<std::string> nameserver_names(const Scenario& scenario);
std::vector<BrokerNode> broker_nodes(const Scenario& scenario);
std::vector<ProducerNode> producer_nodes(const Scenario& scenario);
std::vector<ConsumerNode> consumer_nodes(const Scenario& scenario);
std::vector<std::string> node_names(const Scenario& scenario);
// The topics the client instance of a process of set `spec_index` sends to and polls: that set's,
// then those of each set in its instance (instance_of), each once, in file order.
std::vector<std::string> instance_topics(const Scenario& scenario, std::size_t spec_index);

}  // namespace nssim::sim

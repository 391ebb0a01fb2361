// File: realistic inputs for the core benchmarks: registrations shaped as a 4.9.8 or 5.3.3 master
// sends them (upstream default TopicConfig values), registries built from them, and a helper that
// times one call by hand when each iteration needs untimed set-up.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"
#include "nameserver_core/route_info_manager.h"
#include "nameserver_core/route_types.h"

namespace nssim::bench {

inline constexpr const char* kClusterName = "DefaultCluster";
inline constexpr std::int64_t kStartMs = 1'700'000'000'000;   // a 2023 wall-clock time
inline constexpr std::int64_t kHeartbeatIntervalMs = 30'000;  // registerBrokerAll period

// "10.0.0.7:10911" style: index 0 is 10.0.0.1, 250 addresses per /24.
std::string broker_addr(int index);
// The same host's HA port, "10.0.0.7:10912".
std::string ha_server_addr(int index);
// "broker-0042".
std::string broker_name(int index);
// "topic-0042"; wider for indexes above 9999 ("topic-42042").
std::string topic_name(int index);

// The topic table a master sends: topics first_topic .. first_topic + topic_count - 1, each with
// upstream's TopicConfig defaults (16/16 queues, perm RW, SINGLE_TAG, sysFlag 0).
core::TopicConfigSerializeWrapper make_user_topics(int first_topic, int topic_count,
                                                   std::int64_t timestamp_ms);
// The topics every broker creates for itself (TopicConfigManager's constructor): SELF_TEST_TOPIC,
// TBW102, BenchmarkTest, OFFSET_MOVED_EVENT, SCHEDULE_TOPIC_XXXX, RMQ_SYS_TRANS_HALF_TOPIC, the
// cluster-name topic and the broker-name topic (8 topics, 1 of them private to the broker).
core::TopicConfigSerializeWrapper make_system_topics(int broker_index, std::int64_t timestamp_ms);

// A master's REGISTER_BROKER as the given profile's broker sends it: 5.x brokers carry
// enableActingMaster=false; no heartbeatTimeoutMillis (so 120 s for both profiles); an empty
// filter-server list; one connection id per broker.
core::RegisterBrokerRequest make_master_request(core::Profile profile, int broker_index,
                                                core::TopicConfigSerializeWrapper wrapper);

// Upstream defaults; it outlives every manager (RouteInfoManager keeps a reference).
const core::NamesrvConfig& default_config();

// 0 .. count-1 visited in a fixed scattered order (multiplication by a prime modulo count), so
// consecutive lookups do not walk neighbouring tree nodes.
std::vector<int> scattered_order(int count);

// The calling thread's CPU time in seconds. The core never blocks or sleeps, so on an idle machine
// this equals wall time; on a shared one it leaves out the time other processes held the CPU.
double thread_cpu_seconds();

// Runs `call` once and returns the thread CPU time it took, for State::SetIterationTime.
template <typename Call>
double time_one_call(Call&& call) {
  const double start = thread_cpu_seconds();
  call();
  return thread_cpu_seconds() - start;
}

}  // namespace nssim::bench

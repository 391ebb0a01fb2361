// File: the scenario sections that refer to nodes by name (internal to the loader): the fault
// timeline, whose targets resolve against the topology already read, and the expectations.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_json.h"

namespace nssim::sim::detail {

// Longest run, and longest single time span anywhere in a file: 7 days.
inline constexpr std::int64_t kMaxRunMs = 7LL * 24 * 3600 * 1000;
// Queue counts a topic may have; a simulator limit, Java has none.
inline constexpr std::int64_t kMaxQueueNums = 1024;
// Most seeds a sweep block may ask for by default; the command line may ask for more.
inline constexpr std::int64_t kMaxSweepSeeds = 1000000;

// Highest latency a latency fault may set.
inline constexpr double kMaxFaultLatencyMs = 600000.0;

enum class Role { kNameServer, kBroker, kProducer, kConsumer };

// Every name a fault may use, resolved to nodes in the canonical node order.
struct Directory {
  std::vector<std::string> nodes;
  std::map<std::string, std::size_t> position;
  std::map<std::string, Role> role;
  std::map<std::string, std::vector<std::string>> groups;         // broker group -> its brokers
  std::map<std::string, std::vector<std::string>> producer_sets;  // name_prefix -> producers
  std::map<std::string, std::vector<std::string>> consumer_sets;  // name_prefix -> consumers
  std::vector<std::string> nameservers;
};

// Needs the topology of `s` already read.
Directory make_directory(const Scenario& s);
// kill, poweroff, shutdown, pause: one process state per node at a time.
bool is_process_kind(FaultKind kind);
// wipeWritePerm, addWritePerm, updateTopic: admin requests, with a broker_name and no duration.
bool is_admin_kind(FaultKind kind);
// A partition side's entry ("nameservers", "brokers", "producers", "consumers", a group, a
// producer or consumer set or a node) as nodes; empty when it names none.
std::vector<std::string> resolve_side_entry(const std::string& name, const Directory& d);
// "unknown kind 'x' (did you mean ...?)", for any field that names a fault kind.
std::string unknown_kind_message(const std::string& text);

// Reads root "faults" into scenario.faults, resolved and sorted by at_ms (stable). Needs the
// name, duration and topology of `scenario` already read.
void read_faults(const Obj& root, Scenario& scenario);
// Reads root "expect" into scenario.expect, and root "sweep" (seeds, expectations over seeds)
// into scenario.sweep.
void read_expectations(const Obj& root, Scenario& scenario);
// Reads root "explore" into scenario.explore (scenario_explore.cpp). Needs the duration, the
// topology and the faults of `scenario` already read.
void read_explore(const Obj& root, Scenario& scenario);

}  // namespace nssim::sim::detail

// File: import_scenario (see cluster_import.h).
#include "cli/import/cluster_import.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>

#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::cli {

namespace {

using nlohmann::json;
using nlohmann::ordered_json;

// Paths of the NameServer's own machine: only echoed back, meaningless elsewhere.
const std::set<std::string> kMachinePaths = {"rocketmqHome", "kvConfigPath", "configStorePath"};
// NettyServerConfig#serverChannelMaxIdleTimeSeconds, which GET_NAMESRV_CONFIG lists beside
// NamesrvConfig's fields and the scenario keeps beside `config`.
constexpr const char* kIdleSeconds = "serverChannelMaxIdleTimeSeconds";

// A properties value as the scenario would spell it: booleans and whole numbers as such (the
// loader turns both back into the same text), anything else as text.
ordered_json typed_value(const std::string& text) {
  if (text == "true") return true;
  if (text == "false") return false;
  const bool whole = !text.empty() && text.size() < 18 &&
                     std::all_of(text.begin() + (text[0] == '-' ? 1 : 0), text.end(),
                                 [](unsigned char c) { return std::isdigit(c) != 0; }) &&
                     text != "-";
  if (whole) return std::stoll(text);
  return text;
}

std::string join(const std::vector<std::string>& items, const std::string& separator) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : separator) + item;
  return text;
}

core::Profile profile_of(int version) {
  return version >= core::kVersionV5_0_0 ? core::Profile::kV5 : core::Profile::kV4_9;
}

ordered_json nameservers_block(const ClusterAnswers& answers, core::Profile profile,
                               std::vector<std::string>& notes) {
  ordered_json block;
  block["count"] = answers.nameservers.size();
  const auto& first = answers.nameservers.front();
  ordered_json config = ordered_json::object();
  std::vector<std::string> unknown;
  for (const auto& [key, value] : first.config) {
    if (key == kIdleSeconds) continue;
    if (kMachinePaths.count(key) != 0) continue;
    core::NamesrvConfig scratch;
    if (core::set_namesrv_config_field(scratch, profile, key, value, core::ConfigParse::kStrict)) {
      unknown.push_back(key);
      continue;
    }
    config[key] = typed_value(value);
  }
  if (!config.empty()) block["config"] = config;
  if (const auto idle = first.config.find(kIdleSeconds); idle != first.config.end()) {
    block[kIdleSeconds] = typed_value(idle->second);
  }
  if (!unknown.empty()) {
    notes.push_back("NameServer settings nssim does not model, left out: " + join(unknown, ", "));
  }
  for (std::size_t i = 1; i < answers.nameservers.size(); ++i) {
    if (answers.nameservers[i].config != first.config) {
      notes.push_back("NameServer " + answers.nameservers[i].address + " has other settings than " +
                      first.address + "; nssim gives every NameServer " + first.address + "'s");
    }
    if (answers.nameservers[i].version != first.version) {
      notes.push_back("NameServer " + answers.nameservers[i].address + " runs another version (" +
                      std::to_string(answers.nameservers[i].version) + ") than " + first.address);
    }
  }
  return block;
}

ordered_json broker_groups_block(const ClusterAnswers& answers, core::Profile profile,
                                 const ImportOptions& options, std::vector<std::string>& notes) {
  const json& table = answers.cluster_info.value("brokerAddrTable", json::object());
  if (!table.is_object() || table.empty()) {
    throw ImportError(
        "the cluster has no broker group (GET_BROKER_CLUSTER_INFO's brokerAddrTable "
        "is empty): nothing to simulate");
  }
  ordered_json broker_config = ordered_json::object();
  std::vector<std::string> ignored;
  const auto accepted = sim::broker_config_field_names(profile);
  for (const auto& [key, value] : options.broker_config) {
    if (key != "namesrvAddr" &&
        std::find(accepted.begin(), accepted.end(), key) != accepted.end()) {
      broker_config[key] = typed_value(value);
    } else {
      ignored.push_back(key);
    }
  }
  if (!ignored.empty()) {
    notes.push_back(options.broker_config_file + " settings nssim does not model (or takes from " +
                    "the NameServers, namesrvAddr), left out: " + join(ignored, ", "));
  }
  ordered_json groups = ordered_json::array();
  for (const auto& [name, data] : table.items()) {  // nlohmann's object: sorted by name
    ordered_json group;
    group["name"] = name;
    const std::string cluster = data.value("cluster", std::string("DefaultCluster"));
    if (cluster != "DefaultCluster") group["cluster"] = cluster;
    int slaves = 0;
    std::vector<long long> ids;
    const json addresses = data.value("brokerAddrs", json::object());
    for (const auto& [id, address] : addresses.items()) {
      long long value = 0;
      const auto [end, error] = std::from_chars(id.data(), id.data() + id.size(), value);
      if (error != std::errc() || end != id.data() + id.size()) {
        throw ImportError("broker group " + name + " lists broker id '" + id + "', not a number");
      }
      ids.push_back(value);
    }
    std::sort(ids.begin(), ids.end());
    for (const long long id : ids) slaves += id > 0 ? 1 : 0;
    const bool has_master = !ids.empty() && ids.front() == 0;
    if (!has_master || (!ids.empty() && ids.back() != static_cast<long long>(ids.size()) - 1)) {
      notes.push_back(
          "broker group " + name + " has broker ids " +
          join(
              [&] {
                std::vector<std::string> texts;
                for (const long long id : ids) texts.push_back(std::to_string(id));
                return texts;
              }(),
              ", ") +
          "; nssim's groups have a master (0) and slaves 1..n, so it has a master and " +
          std::to_string(slaves) + (slaves == 1 ? " slave" : " slaves"));
    }
    if (slaves > 0) group["slaves"] = slaves;
    if (!broker_config.empty()) group["config"] = broker_config;
    groups.push_back(group);
  }
  return groups;
}

ordered_json topics_block(const ClusterAnswers& answers, std::vector<std::string>& notes) {
  const json& table = answers.cluster_info.value("brokerAddrTable", json::object());
  ordered_json topics = ordered_json::array();
  for (const auto& [topic, route] : answers.routes) {
    std::vector<std::string> groups;
    std::set<int> reads, writes, perms;
    for (const auto& queue : route.value("queueDatas", json::array())) {
      const std::string broker = queue.value("brokerName", std::string());
      if (!table.contains(broker)) {
        notes.push_back("topic " + topic + " has queues on " + broker +
                        ", which the cluster info does not list: left out");
        continue;
      }
      groups.push_back(broker);
      reads.insert(queue.value("readQueueNums", 0));
      writes.insert(queue.value("writeQueueNums", 0));
      perms.insert(queue.value("perm", 6));
    }
    if (groups.empty()) {
      notes.push_back("topic " + topic + " has no queue on a listed broker group: left out");
      continue;
    }
    std::sort(groups.begin(), groups.end());
    ordered_json entry;
    entry["name"] = topic;
    if (groups.size() != table.size()) entry["groups"] = groups;
    entry["readQueueNums"] = *reads.rbegin();
    entry["writeQueueNums"] = *writes.rbegin();
    if (*perms.rbegin() != 6) entry["perm"] = *perms.rbegin();
    if (reads.size() > 1 || writes.size() > 1 || perms.size() > 1) {
      notes.push_back("topic " + topic +
                      " has other queue counts or perm on some groups; nssim's " +
                      "topics have one for all, so it takes the largest");
    }
    topics.push_back(entry);
  }
  if (topics.empty()) {
    throw ImportError(
        "no topic to simulate (system topics and broker or cluster names are left "
        "out: name them with --topics)");
  }
  return topics;
}

}  // namespace

bool is_system_or_name_topic(const std::string& topic, const json& cluster_info) {
  static const std::set<std::string> kSystem = {"TBW102",
                                                "SCHEDULE_TOPIC_XXXX",
                                                "BenchmarkTest",
                                                "RMQ_SYS_TRANS_HALF_TOPIC",
                                                "RMQ_SYS_TRACE_TOPIC",
                                                "RMQ_SYS_TRANS_OP_HALF_TOPIC",
                                                "TRANS_CHECK_MAX_TIME_TOPIC",
                                                "SELF_TEST_TOPIC",
                                                "OFFSET_MOVED_EVENT",
                                                "CHECKPOINT_TOPIC"};
  if (kSystem.count(topic) != 0 || topic.rfind("rmq_sys_", 0) == 0 ||
      topic.rfind("%RETRY%", 0) == 0 || topic.rfind("%DLQ%", 0) == 0) {
    return true;
  }
  const json& brokers = cluster_info.value("brokerAddrTable", json::object());
  const json& clusters = cluster_info.value("clusterAddrTable", json::object());
  // MixAll#getReplyTopic: <cluster>_REPLY_TOPIC, which brokers register for request-reply.
  const std::string reply = "_REPLY_TOPIC";
  const bool reply_topic = topic.size() > reply.size() && topic.ends_with(reply) &&
                           clusters.contains(topic.substr(0, topic.size() - reply.size()));
  return brokers.contains(topic) || clusters.contains(topic) || reply_topic;
}

ordered_json import_scenario(const ClusterAnswers& answers, const ImportOptions& options) {
  if (answers.nameservers.empty()) throw ImportError("no NameServer answered");
  const NameServerAnswers& first = answers.nameservers.front();
  const core::Profile profile = profile_of(first.version);
  std::vector<std::string> notes;
  if (first.version < core::kVersionV4_9_0) {
    notes.push_back("the NameServer's version (MQVersion ordinal " + std::to_string(first.version) +
                    ") is older than 4.9.0; nssim models 4.9.x for it");
  }
  ordered_json scenario;
  scenario["name"] = options.name;
  scenario["description"] = "";
  scenario["profile"] = profile == core::Profile::kV5 ? "5.x" : "4.9";
  scenario["seed"] = 1;
  scenario["duration_ms"] = options.duration_ms;
  scenario["nameservers"] = nameservers_block(answers, profile, notes);
  scenario["broker_groups"] = broker_groups_block(answers, profile, options, notes);
  scenario["topics"] = topics_block(answers, notes);
  if (options.producer_count) {
    scenario["producers"] = ordered_json::array({{{"name_prefix", "producer"},
                                                  {"count", *options.producer_count},
                                                  {"rate_per_s", options.producer_rate_per_s}}});
  }
  std::vector<std::string> addresses;
  for (const auto& ns : answers.nameservers) addresses.push_back(ns.address);
  std::string description =
      "Imported by nssim import from the NameServers " + join(addresses, ";") +
      " (MQVersion ordinal " + std::to_string(first.version) + ", nssim profile " +
      scenario["profile"].get<std::string>() + "). From " + first.address +
      ": the broker groups and their slaves (GET_BROKER_CLUSTER_INFO), the topics and their "
      "queues (GET_ALL_TOPIC_LIST_FROM_NAMESERVER, GET_ROUTEINFO_BY_TOPIC) and the NameServer "
      "settings (GET_NAMESRV_CONFIG). Not known to a NameServer, so upstream's defaults: ";
  description += options.broker_config.empty()
                     ? "the broker settings (registerNameServerPeriod and the rest), "
                     : "the broker settings not in " + options.broker_config_file + ", ";
  description += "the links (latency, bandwidth) and start times of every node, ";
  description += options.producer_count
                     ? "and the producers' client settings (their count and rate are "
                       "--producers')."
                     : "and the producers (none: give --producers COUNT@RATE).";
  description += " No faults.";
  if (!notes.empty()) description += " Not carried over: " + join(notes, "; ") + ".";
  scenario["description"] = description;
  scenario["faults"] = ordered_json::array();
  return scenario;
}

}  // namespace nssim::cli

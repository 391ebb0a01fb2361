// File: the simulated broker's topic table and its registration size (see broker_topics.h).
#include "sim/scenario/broker_topics.h"

#include <string>

namespace nssim::sim {

namespace {

core::TopicConfig topic(std::string name, int queues,
                        int perm = core::perm::kRead | core::perm::kWrite) {
  core::TopicConfig config;
  config.topic_name = std::move(name);
  config.read_queue_nums = queues;
  config.write_queue_nums = queues;
  config.perm = perm;
  return config;
}

constexpr int kScheduleTopicQueueNum = 18;     // Java: TopicConfigManager.SCHEDULE_TOPIC_QUEUE_NUM
constexpr int kReviveQueueNum = 8;             // Java 5.x: BrokerConfig.reviveQueueNum
constexpr int kTopicConfigDefaultQueues = 16;  // Java: TopicConfig.defaultReadQueueNums

int digits(long long value) { return static_cast<int>(std::to_string(value).size()); }

}  // namespace

std::vector<core::TopicConfig> broker_system_topics(core::Profile profile,
                                                    const std::string& cluster_name,
                                                    const std::string& broker_name,
                                                    const BrokerConfig& config) {
  using core::perm::kInherit;
  using core::perm::kRead;
  using core::perm::kWrite;
  std::vector<core::TopicConfig> topics;
  topics.push_back(topic("SELF_TEST_TOPIC", 1));
  if (config.auto_create_topic_enable) {
    topics.push_back(topic("TBW102", config.default_topic_queue_nums, kInherit | kRead | kWrite));
  }
  topics.push_back(topic("BenchmarkTest", 1024));
  topics.push_back(topic(cluster_name, kTopicConfigDefaultQueues, kInherit | kRead | kWrite));
  topics.push_back(topic(broker_name, 1, kInherit | kRead | kWrite));
  topics.push_back(topic("OFFSET_MOVED_EVENT", 1));
  topics.push_back(topic("SCHEDULE_TOPIC_XXXX", kScheduleTopicQueueNum));
  topics.push_back(topic(cluster_name + "_REPLY_TOPIC", 1));
  if (profile == core::Profile::kV5) {
    topics.push_back(topic("rmq_sys_REVIVE_LOG_" + cluster_name, kReviveQueueNum));
    topics.push_back(topic("rmq_sys_SYNC_BROKER_MEMBER_" + broker_name, 1, kInherit));
    topics.push_back(topic("RMQ_SYS_TRANS_HALF_TOPIC", 1));
    topics.push_back(topic("RMQ_SYS_TRANS_OP_HALF_TOPIC", 1));
    topics.push_back(topic("rmq_sys_wheel_timer", 1));
  }
  return topics;
}

core::TopicConfigSerializeWrapper broker_topic_table(core::Profile profile,
                                                     const BrokerGroupSpec& group,
                                                     const std::vector<TopicSpec>& topics) {
  core::TopicConfigSerializeWrapper wrapper;
  for (auto& config : broker_system_topics(profile, group.cluster, group.name, group.config)) {
    wrapper.topic_config_table[config.topic_name] = config;
  }
  for (const auto& spec : topics) {
    bool served = spec.groups.empty();
    for (const auto& name : spec.groups) served = served || name == group.name;
    if (!served) continue;
    core::TopicConfig config;
    config.topic_name = spec.name;
    config.read_queue_nums = spec.read_queue_nums;
    config.write_queue_nums = spec.write_queue_nums;
    config.perm = spec.perm;
    wrapper.topic_config_table[spec.name] = config;
  }
  return wrapper;
}

std::uint64_t register_body_size_bytes(const core::TopicConfigSerializeWrapper& wrapper) {
  // {"filterServerList":[],"topicConfigSerializeWrapper":{"dataVersion":{...},"topicConfigTable":{...}}}
  std::uint64_t size = 110 + 20 + 13;
  for (const auto& [key, config] : wrapper.topic_config_table) {
    // "key":{"attributes":{},"order":false,"perm":6,"readQueueNums":16,"topicFilterType":
    // "SINGLE_TAG","topicName":"name","topicSysFlag":0,"writeQueueNums":16},
    size += key.size() + config.topic_name.size() + config.topic_filter_type.size() + 150;
    size += static_cast<std::uint64_t>(digits(config.read_queue_nums) +
                                       digits(config.write_queue_nums) + digits(config.perm) +
                                       digits(config.topic_sys_flag));
  }
  return size;
}

}  // namespace nssim::sim

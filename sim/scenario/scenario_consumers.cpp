// File: the scenario's "consumers" section: sets of push consumer processes (DefaultMQPushConsumer
// in CLUSTERING mode, consuming concurrently, AllocateMessageQueueAveragely), each set a consumer
// group with its subscriptions and settings by upstream name, its nodes in the one namespace of
// node names. What nssim cannot model has no key, so a file cannot ask for it and be ignored.
#include <map>

#include "sim/scenario/scenario_config.h"
#include "sim/scenario/scenario_loader.h"
#include "sim/scenario/scenario_sections.h"

namespace nssim::sim::detail {

namespace {

constexpr std::int64_t kMaxConsumers = 100000;            // simulator limit, as for producers
constexpr std::int64_t kMaxConsumeMs = 3600 * 1000;       // one listener call: an hour at most
constexpr std::size_t kMaxConsumerTopicPairs = 10000000;  // consumers x their subscriptions

ConsumerSpec read_consumer(const Obj& entry, const Scenario& s, NameRegistry& nodes,
                           std::map<std::string, std::string>& groups, std::size_t& pairs) {
  entry.allow({"group", "name_prefix", "count", "topics", "consume_ms", "config", "link", "start",
               "start_ms"},
              consumer_config_field_names(s.profile));
  ConsumerSpec spec;
  // Java: DefaultMQPushConsumerImpl#checkConfig validates consumerGroup as a topic name is.
  spec.group = checked_name(entry, "group", true);
  if (spec.group == "DEFAULT_CONSUMER") {  // MixAll#DEFAULT_CONSUMER_GROUP
    entry.fail_at("group", "must not be DEFAULT_CONSUMER (upstream refuses the default group)");
  }
  if (auto [it, fresh] = groups.emplace(spec.group, entry.path()); !fresh) {
    entry.fail_at("group", "consumer group " + quote(spec.group) + " is already used by " +
                               it->second + " (one entry per group: give it a count)");
  }
  if (entry.has("name_prefix")) spec.name_prefix = checked_name(entry, "name_prefix", false);
  spec.count = static_cast<int>(entry.integer("count", 1, IntRange::at_least(1, kMaxConsumers)));
  if (!entry.has("topics")) entry.fail_at("topics", "is required: the topics the group subscribes");
  const Json& listed = entry.at("topics");
  pairs += static_cast<std::size_t>(spec.count) * (listed.is_array() ? listed.size() : 0);
  if (pairs > kMaxConsumerTopicPairs) {
    entry.fail_here("more than " + std::to_string(kMaxConsumerTopicPairs) +
                    " consumer-topic pairs in all (count x topics)");
  }
  if (listed.is_array() && listed.empty()) entry.fail_at("topics", "must name at least one topic");
  std::vector<std::string> topics;
  for (const auto& topic : s.topics) topics.push_back(topic.name);
  spec.topics = read_references(entry, "topics", topics, "topic");
  spec.consume_ms = entry.integer("consume_ms", 1, IntRange::at_least(0, kMaxConsumeMs));
  spec.config = default_consumer_config(s.profile);
  read_consumer_config(entry, s.profile, spec.config);
  // Java: DefaultMQPushConsumerImpl#checkConfig.
  if (spec.config.consume_thread_min > spec.config.consume_thread_max) {
    fail(s.file, entry.path("config") + ".consumeThreadMin",
         "must be <= consumeThreadMax (" + std::to_string(spec.config.consume_thread_max) +
             "), got " + std::to_string(spec.config.consume_thread_min));
  }
  spec.nameservers = resolve_namesrv_addr(entry, spec.config.namesrv_addr, s.nameservers.count);
  read_link(entry, spec.link);
  read_start(entry, s.duration_ms, spec.start);
  nodes.add(entry, "name_prefix", spec.name_prefix, entry.path());
  for (int i = 0; i < spec.count; ++i) {
    nodes.add(entry, "name_prefix", consumer_name(spec.name_prefix, i), entry.path(), "consumer ");
  }
  return spec;
}

}  // namespace

void read_consumers(const Obj& root, Scenario& s, NameRegistry& nodes) {
  if (!root.has("consumers")) return;
  const Json& list = read_array(s.file, root.at("consumers"), "consumers");
  std::map<std::string, std::string> groups;  // consumerGroup -> the entry that has it
  std::int64_t total = 0;
  std::size_t pairs = 0;  // checked before each entry copies its topic list
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Obj entry(s.file, list[i], index_path("consumers", i));
    s.consumers.push_back(read_consumer(entry, s, nodes, groups, pairs));
    total += s.consumers.back().count;
    if (total > kMaxConsumers) {
      root.fail_at("consumers", "more than " + std::to_string(kMaxConsumers) + " consumers");
    }
  }
}

}  // namespace nssim::sim::detail

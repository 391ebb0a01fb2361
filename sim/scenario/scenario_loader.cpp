// File: the scenario loader's top level and topology sections: document, NameServers, broker
// groups, topics and producers (consumers: scenario_consumers.cpp), with `count` expansion and one
// namespace for node names so that every fault target and partition side names exactly one thing.
#include "sim/scenario/scenario_loader.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "sim/scenario/scenario_config.h"
#include "sim/scenario/scenario_faults.h"
#include "sim/scenario/scenario_json.h"
#include "sim/scenario/scenario_sections.h"

namespace nssim::sim {

namespace {

using detail::checked_name;
using detail::IntRange;
using detail::Json;
using detail::kMaxNameLength;
using detail::NameRegistry;
using detail::Obj;
using detail::quote;
using detail::read_link;
using detail::read_references;
using detail::read_start;

// Simulator limits, so that a typo cannot ask for a billion hosts.
constexpr std::int64_t kMaxNameServers = 64;
constexpr std::int64_t kMaxBrokerGroups = 10000;
constexpr std::int64_t kMaxSlaves = 16;
constexpr std::int64_t kMaxTopics = 100000;
constexpr std::int64_t kMaxProducers = 100000;
constexpr std::int64_t kMaxMessageSizeBytes = 4 * 1024 * 1024;  // DefaultMQProducer#maxMessageSize
constexpr double kMaxRatePerS = 100000.0;
constexpr std::size_t kMaxTopicPlacements = 1000000;      // topics x their groups
constexpr std::size_t kMaxProducerTopicPairs = 10000000;  // producers x their topics

core::Profile read_profile(const Obj& root, const LoadOptions& options) {
  core::Profile profile = core::Profile::kV5;
  if (root.has("profile")) {
    const std::string text = root.required_string("profile");
    auto parsed = core::parse_profile(text);
    if (!parsed) root.fail_at("profile", "must be \"4.9\" or \"5.x\", got " + quote(text));
    profile = *parsed;
  }
  return options.profile.value_or(profile);
}

std::uint64_t read_seed(const Obj& root, const LoadOptions& options) {
  std::uint64_t seed = 1;
  if (root.has("seed")) {
    const Json& value = root.at("seed");
    if (value.is_number_unsigned()) {
      seed = value.get<std::uint64_t>();
    } else if (value.is_number_integer()) {
      root.fail_at("seed", "must be >= 0");
    } else {
      root.fail_at("seed", "must be a non-negative integer, got " + detail::describe(value));
    }
  }
  return options.seed.value_or(seed);
}

// One array entry that is either {"name": ...} or {"count": N, "name_prefix": ...}: the names
// it stands for.
std::vector<std::string> entry_names(const Obj& entry, std::int64_t max_count, bool topic) {
  if (entry.has("name")) {
    if (entry.has("name_prefix"))
      entry.fail_at("name_prefix", "give name or name_prefix, not both");
    if (entry.has("count")) entry.fail_at("count", "needs name_prefix instead of name");
    return {checked_name(entry, "name", topic)};
  }
  if (!entry.has("name_prefix")) entry.fail_here("needs name, or name_prefix and count");
  const std::string prefix = checked_name(entry, "name_prefix", topic);
  const std::int64_t count = entry.required_integer("count", IntRange::at_least(1, max_count));
  std::vector<std::string> names;
  for (std::int64_t i = 0; i < count; ++i) names.push_back(prefix + std::to_string(i));
  return names;
}

const Json& required_list(const Obj& root, std::string_view key) {
  const Json& list = detail::read_array(root.file(), root.at(key), root.path(key));
  if (list.empty()) root.fail_at(key, "must have at least one entry");
  return list;
}

void read_nameservers(const Obj& root, Scenario& s, NameRegistry& nodes) {
  if (root.has("nameservers")) {
    const Obj obj(root.file(), root.at("nameservers"), "nameservers");
    obj.allow({"count", "config", "serverChannelMaxIdleTimeSeconds", "link", "start", "start_ms"});
    s.nameservers.count =
        static_cast<int>(obj.integer("count", 3, IntRange::at_least(1, kMaxNameServers)));
    detail::read_namesrv_config(obj, s.profile, s.nameservers.config);
    // Netty's IdleStateHandler treats 0 as "never idle".
    s.nameservers.server_channel_max_idle_time_seconds =
        obj.integer("serverChannelMaxIdleTimeSeconds", 120, IntRange::at_least(0, INT32_MAX));
    read_link(obj, s.nameservers.link);
    read_start(obj, s.duration_ms, s.nameservers.start);
  }
  for (const auto& name : nameserver_names(s)) nodes.add(root, "nameservers", name, "nameservers");
}

void read_broker_groups(const Obj& root, Scenario& s, NameRegistry& nodes) {
  const Json& list = required_list(root, "broker_groups");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Obj entry(s.file, list[i], detail::index_path("broker_groups", i));
    entry.allow({"name", "name_prefix", "count", "cluster", "slaves", "config", "link", "start",
                 "start_ms"},
                broker_config_field_names(s.profile));
    BrokerGroupSpec spec;
    spec.cluster = entry.has("cluster") ? checked_name(entry, "cluster", false) : spec.cluster;
    spec.slaves = static_cast<int>(entry.integer("slaves", 0, IntRange::at_least(0, kMaxSlaves)));
    spec.config = default_broker_config(s.profile);
    detail::read_broker_config(entry, s.profile, spec.config);
    spec.nameservers =
        detail::resolve_namesrv_addr(entry, spec.config.namesrv_addr, s.nameservers.count);
    read_link(entry, spec.link);
    read_start(entry, s.duration_ms, spec.start);
    const std::string key = entry.has("name") ? "name" : "name_prefix";
    const std::string owner = entry.path();
    for (auto& name : entry_names(entry, kMaxBrokerGroups, false)) {
      nodes.add(entry, key, name, owner);
      for (int id = 0; id <= spec.slaves; ++id) {
        nodes.add(entry, key, broker_node_name(name, id), owner, "broker ");
      }
      spec.name = std::move(name);
      s.broker_groups.push_back(spec);
    }
    if (s.broker_groups.size() > static_cast<std::size_t>(kMaxBrokerGroups)) {
      root.fail_at("broker_groups", "more than " + std::to_string(kMaxBrokerGroups) + " groups");
    }
  }
}

void read_topics(const Obj& root, Scenario& s) {
  std::vector<std::string> groups;
  for (const auto& group : s.broker_groups) groups.push_back(group.name);
  NameRegistry topics;
  std::size_t placements = 0;
  const Json& list = required_list(root, "topics");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Obj entry(s.file, list[i], detail::index_path("topics", i));
    entry.allow(
        {"name", "name_prefix", "count", "groups", "readQueueNums", "writeQueueNums", "perm"});
    TopicSpec spec;
    spec.groups =
        entry.has("groups") ? read_references(entry, "groups", groups, "broker group") : groups;
    const auto queues = IntRange::at_least(0, detail::kMaxQueueNums);
    spec.read_queue_nums = static_cast<int>(entry.integer("readQueueNums", 16, queues));
    spec.write_queue_nums = static_cast<int>(entry.integer("writeQueueNums", 16, queues));
    spec.perm = static_cast<int>(entry.integer("perm", 6, IntRange::at_least(0, 7)));
    const std::string key = entry.has("name") ? "name" : "name_prefix";
    std::vector<std::string> names = entry_names(entry, kMaxTopics, true);
    placements += names.size() * spec.groups.size();
    if (placements > kMaxTopicPlacements) {
      entry.fail_here("more than " + std::to_string(kMaxTopicPlacements) +
                      " topic-on-group placements in all (topics x groups)");
    }
    for (auto& name : names) {
      topics.add(entry, key, name, entry.path());
      spec.name = std::move(name);
      s.topics.push_back(spec);
    }
    if (s.topics.size() > static_cast<std::size_t>(kMaxTopics)) {
      root.fail_at("topics", "more than " + std::to_string(kMaxTopics) + " topics");
    }
  }
}

// "instance_of": the earlier set (without one itself) whose processes `spec` runs in. What is
// the process's or the instance's is refused here, so that each is written once, where it holds.
std::size_t read_instance_of(const Obj& entry, const Scenario& s) {
  const std::string host = entry.required_string("instance_of");
  std::size_t found = s.producers.size();
  for (std::size_t i = 0; i < s.producers.size(); ++i) {
    if (s.producers[i].name_prefix == host) found = i;
  }
  if (found == s.producers.size()) {
    entry.fail_at("instance_of",
                  "expected the name_prefix of an earlier producer set, got " + quote(host));
  }
  if (s.producers[found].instance_of) {
    entry.fail_at("instance_of", quote(host) + " runs in another set's instance itself: name " +
                                     "the set that owns the processes");
  }
  const std::string owner = detail::index_path("producers", found);
  for (const char* key : {"count", "link", "start", "start_ms"}) {
    if (entry.has(key)) {
      entry.fail_at(key, "is the process's: this set runs in the processes of " + owner +
                             " (instance_of), set it there");
    }
  }
  if (entry.has("config") && entry.at("config").is_object()) {
    for (const auto& item : entry.at("config").items()) {
      if (detail::is_client_instance_setting(item.key())) {
        detail::fail(
            s.file, entry.path("config") + "." + item.key(),
            "is the client instance's, which takes the ClientConfig of the first producer in it "
            "(MQClientManager#getOrCreateMQClientInstance): set it on " +
                owner);
      }
    }
  }
  return found;
}

void read_producer(const Obj& entry, Scenario& s, NameRegistry& nodes, std::size_t& pairs) {
  entry.allow({"name_prefix", "count", "topics", "rate_per_s", "arrival", "message_size_bytes",
               "config", "link", "start", "start_ms", "instance_of"},
              producer_config_field_names(s.profile));
  ProducerSpec spec;
  if (entry.has("name_prefix")) spec.name_prefix = checked_name(entry, "name_prefix", false);
  if (entry.has("instance_of")) spec.instance_of = read_instance_of(entry, s);
  const ProducerSpec* host = spec.instance_of ? &s.producers[*spec.instance_of] : nullptr;
  spec.count =
      host != nullptr
          ? host->count
          : static_cast<int>(entry.integer("count", 1, IntRange::at_least(1, kMaxProducers)));
  const Json* listed = entry.has("topics") ? &entry.at("topics") : nullptr;
  pairs += static_cast<std::size_t>(spec.count) * (listed == nullptr    ? s.topics.size()
                                                   : listed->is_array() ? listed->size()
                                                                        : 0);
  if (pairs > kMaxProducerTopicPairs) {
    entry.fail_here("more than " + std::to_string(kMaxProducerTopicPairs) +
                    " producer-topic pairs in all (count x topics)");
  }
  std::vector<std::string> topics;
  for (const auto& topic : s.topics) topics.push_back(topic.name);
  spec.topics = entry.has("topics") ? read_references(entry, "topics", topics, "topic") : topics;
  spec.rate_per_s = entry.number("rate_per_s", 1.0, 0.0, true, kMaxRatePerS);
  const std::string arrival = entry.string("arrival", "fixed");
  if (arrival != "fixed" && arrival != "poisson") {
    entry.fail_at("arrival", "must be \"fixed\" or \"poisson\", got " + quote(arrival));
  }
  spec.arrival = arrival == "fixed" ? Arrival::kFixed : Arrival::kPoisson;
  spec.message_size_bytes = static_cast<int>(
      entry.integer("message_size_bytes", 1024, IntRange::positive(kMaxMessageSizeBytes)));
  spec.config = default_producer_config(s.profile);
  detail::read_producer_config(entry, s.profile, spec.config);
  nodes.add(entry, "name_prefix", spec.name_prefix, entry.path());
  if (host != nullptr) {
    detail::copy_client_instance_settings(host->config, spec.config);
    spec.nameservers = host->nameservers;
    spec.link = host->link;
    spec.start = host->start;
    s.producers.push_back(std::move(spec));
    return;
  }
  spec.nameservers =
      detail::resolve_namesrv_addr(entry, spec.config.namesrv_addr, s.nameservers.count);
  read_link(entry, spec.link);
  read_start(entry, s.duration_ms, spec.start);
  for (int i = 0; i < spec.count; ++i) {
    nodes.add(entry, "name_prefix", producer_name(spec.name_prefix, i), entry.path(), "producer ");
  }
  s.producers.push_back(std::move(spec));
}

void read_producers(const Obj& root, Scenario& s, NameRegistry& nodes) {
  if (!root.has("producers")) return;
  const Json& list = detail::read_array(s.file, root.at("producers"), "producers");
  std::int64_t total = 0;
  std::size_t pairs = 0;  // checked before each entry copies its topic list
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Obj entry(s.file, list[i], detail::index_path("producers", i));
    read_producer(entry, s, nodes, pairs);
    total += s.producers.back().count;
    if (total > kMaxProducers) {
      root.fail_at("producers", "more than " + std::to_string(kMaxProducers) + " producers");
    }
  }
}

void read_name(const Obj& root, Scenario& s) {
  s.name = root.required_string("name");
  const bool ok = !s.name.empty() && s.name.size() <= kMaxNameLength &&
                  std::all_of(s.name.begin(), s.name.end(), [](char c) {
                    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
                  });
  if (!ok)
    root.fail_at("name", "must be 1 to 127 characters of a-z, 0-9 and _, got " + quote(s.name));
}

}  // namespace

Scenario parse_scenario(const std::string& json_text, const std::string& file_label,
                        const LoadOptions& options) {
  Json document = detail::parse_document(json_text, file_label);
  for (const auto& assignment : options.set) detail::apply_set(document, assignment, file_label);

  Scenario s;
  s.file = file_label;
  s.set = options.set;
  const Obj root(s.file, document, "");
  root.allow({"$schema", "name", "description", "profile", "seed", "duration_ms", "nameservers",
              "broker_groups", "topics", "producers", "consumers", "faults", "expect", "sweep",
              "explore"});
  read_name(root, s);
  s.description = root.string("description", "");
  s.profile = read_profile(root, options);
  s.seed = read_seed(root, options);
  s.duration_ms = root.required_integer("duration_ms", IntRange::positive(detail::kMaxRunMs));

  NameRegistry nodes;
  for (const char* keyword : {"nameservers", "brokers", "producers", "consumers", "all"}) {
    nodes.reserve(keyword);
  }
  read_nameservers(root, s, nodes);
  read_broker_groups(root, s, nodes);
  read_topics(root, s);
  read_producers(root, s, nodes);
  detail::read_consumers(root, s, nodes);
  detail::read_faults(root, s);
  detail::read_expectations(root, s);
  detail::read_explore(root, s);
  return s;
}

Scenario load_scenario_file(const std::string& path, const LoadOptions& options) {
  std::error_code error;
  if (!std::filesystem::exists(path, error)) throw ScenarioError(path + ": no such file");
  if (std::filesystem::is_directory(path, error)) {
    throw ScenarioError(path + ": is a directory, not a scenario file");
  }
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  if (!in || in.bad()) throw ScenarioError(path + ": cannot be read");
  return parse_scenario(text.str(), path, options);
}

}  // namespace nssim::sim

// The shipped scenarios/*.json all load, under both profiles, and no mutation of them can make
// the loader do anything but load or throw ScenarioError.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "sim/scenario/rng.h"
#include "sim/scenario/scenario_loader.h"

namespace nssim::sim {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path scenarios_dir() {
  const char* source = std::getenv("NSSIM_SOURCE_DIR");
  return fs::path(source != nullptr ? source : ".") / "scenarios";
}

std::vector<fs::path> shipped_scenarios() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(scenarios_dir())) {
    if (entry.path().extension() == ".json" && entry.path().filename() != "schema.json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(ScenarioFiles, TheDocumentedScenariosAreShipped) {
  std::vector<std::string> names;
  for (const auto& path : shipped_scenarios()) names.push_back(path.stem().string());
  for (const char* expected :
       {"steady_state", "broker_kill", "broker_poweroff", "broker_shutdown",
        "broker_partition_one_nameserver", "broker_partition_from_producers",
        "nameserver_crash_restart", "nameserver_restart_5322", "single_broker_topic_dies",
        "broker_pause", "broker_flapping", "latency_fault_4_9_vs_5x", "client_scheduler_2728",
        "silent_rack_5x"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), expected), names.end()) << expected;
  }
}

TEST(ScenarioFiles, EveryShippedScenarioLoads) {
  const auto files = shipped_scenarios();
  ASSERT_FALSE(files.empty()) << "no scenarios under " << scenarios_dir();
  for (const auto& path : files) {
    SCOPED_TRACE(path.string());
    try {
      const Scenario s = load_scenario_file(path.string(), {});
      EXPECT_EQ(s.name, path.stem().string()) << "name should match the file name";
      EXPECT_GE(s.description.size(), 100u) << "say what it shows and why";
      EXPECT_EQ(s.nameservers.count, 3);
    } catch (const ScenarioError& error) {
      ADD_FAILURE() << error.what();
    }
  }
}

// The nodes a scenario file names, worked out from its JSON alone with the naming rules of
// scenario.h: NameServers "ns-<i>", brokers "<group>-<brokerId>", producers and consumers
// "<prefix>-<i>".
struct FileNodes {
  std::vector<std::string> nameservers;
  std::map<std::string, std::vector<std::string>> groups;     // group -> its brokers
  std::map<std::string, std::vector<std::string>> producers;  // name_prefix -> its producers
  std::map<std::string, std::vector<std::string>> consumers;  // name_prefix -> its consumers

  explicit FileNodes(const json& file) {
    const int ns_count = file.contains("nameservers") ? file["nameservers"].value("count", 3) : 3;
    for (int i = 0; i < ns_count; ++i) nameservers.push_back("ns-" + std::to_string(i));
    for (const auto& entry : file["broker_groups"]) {
      for (const auto& name : entry_names(entry)) {
        for (int id = 0; id <= entry.value("slaves", 0); ++id) {
          groups[name].push_back(name + "-" + std::to_string(id));
        }
      }
    }
    for (const auto& entry : file.value("producers", json::array())) {
      const std::string prefix = entry.value("name_prefix", "producer");
      for (int i = 0; i < entry.value("count", 1); ++i) {
        producers[prefix].push_back(prefix + "-" + std::to_string(i));
      }
    }
    for (const auto& entry : file.value("consumers", json::array())) {
      const std::string prefix = entry.value("name_prefix", "consumer");
      for (int i = 0; i < entry.value("count", 1); ++i) {
        consumers[prefix].push_back(prefix + "-" + std::to_string(i));
      }
    }
  }

  static std::vector<std::string> entry_names(const json& entry) {
    if (entry.contains("name")) return {entry["name"].get<std::string>()};
    std::vector<std::string> names;
    for (int i = 0; i < entry.value("count", 0); ++i) {
      names.push_back(entry["name_prefix"].get<std::string>() + std::to_string(i));
    }
    return names;
  }

  // A fault target or partition side entry: a keyword, a group, a client set or a node.
  std::set<std::string> resolve(const std::string& name) const {
    std::set<std::string> out;
    auto add_all = [&out](const std::map<std::string, std::vector<std::string>>& sets) {
      for (const auto& [key, nodes] : sets) out.insert(nodes.begin(), nodes.end());
    };
    if (name == "nameservers" || name == "all") {
      out.insert(nameservers.begin(), nameservers.end());
    } else if (name == "brokers") {
      add_all(groups);
    } else if (name == "producers") {
      add_all(producers);
    } else if (name == "consumers") {
      add_all(consumers);
    } else if (groups.count(name) != 0) {
      out.insert(groups.at(name).begin(), groups.at(name).end());
    } else if (producers.count(name) != 0) {
      out.insert(producers.at(name).begin(), producers.at(name).end());
    } else if (consumers.count(name) != 0) {
      out.insert(consumers.at(name).begin(), consumers.at(name).end());
    } else {
      out.insert(name);
    }
    return out;
  }
};

std::vector<std::string> strings_of(const json& list) {
  std::vector<std::string> out;
  for (const auto& item : list) out.push_back(item.get<std::string>());
  return out;
}

void expect_faults_as_written(const json& file, const Scenario& s, const FileNodes& nodes) {
  const json faults = file.value("faults", json::array());
  ASSERT_EQ(s.faults.size(), faults.size());
  for (std::size_t i = 0; i < s.faults.size(); ++i) {
    const FaultSpec& fault = s.faults[i];
    ASSERT_LT(fault.file_index, faults.size());
    const json& written = faults[fault.file_index];
    SCOPED_TRACE("faults[" + std::to_string(fault.file_index) + "]");
    if (i > 0) {
      EXPECT_LE(s.faults[i - 1].at_ms, fault.at_ms) << "sorted by at_ms";
    }
    EXPECT_EQ(fault_kind_name(fault.kind), written["kind"].get<std::string>());
    EXPECT_EQ(fault.at_ms, written["at_ms"].get<std::int64_t>());
    EXPECT_EQ(fault.duration_ms.has_value(), written.contains("duration_ms"));
    if (written.contains("duration_ms")) {
      EXPECT_EQ(*fault.duration_ms, written["duration_ms"].get<std::int64_t>());
    }
    for (const char* key : {"node", "group", "nameserver", "nameservers"}) {
      if (!written.contains(key)) continue;
      EXPECT_EQ(std::set<std::string>(fault.nodes.begin(), fault.nodes.end()),
                nodes.resolve(written[key].get<std::string>()))
          << key;
    }
    if (written.contains("from")) {
      std::set<std::string> from, to;
      for (const auto& name : strings_of(written["from"])) from.merge(nodes.resolve(name));
      for (const auto& name : strings_of(written["to"])) to.merge(nodes.resolve(name));
      EXPECT_EQ(std::set<std::string>(fault.side_a.begin(), fault.side_a.end()), from);
      EXPECT_EQ(std::set<std::string>(fault.side_b.begin(), fault.side_b.end()), to);
      EXPECT_EQ(fault.one_way, written.value("one_way", false));
    }
    if (written.contains("broker_name")) {
      EXPECT_EQ(fault.broker_name, written["broker_name"].get<std::string>());
    }
  }
}

// What the loader made of a file under a profile override, against the file's JSON read on its
// own: node counts and names, topics, producers, faults and expectations as written, and the
// override's own defaults (registerBrokerTimeoutMills 6000 in 4.9, 24000 in 5.x) wherever the
// file leaves a setting out.
void expect_loaded_as_written(const json& file, const Scenario& s, core::Profile profile) {
  const FileNodes nodes(file);
  EXPECT_EQ(s.profile, profile);
  EXPECT_EQ(s.name, file["name"].get<std::string>());
  EXPECT_EQ(s.seed, file.value("seed", std::uint64_t{1}));
  EXPECT_EQ(s.duration_ms, file["duration_ms"].get<std::int64_t>());
  EXPECT_EQ(nameserver_names(s), nodes.nameservers);

  std::map<std::string, json> group_entries;  // expanded name -> its entry in the file
  for (const auto& entry : file["broker_groups"]) {
    for (const auto& name : FileNodes::entry_names(entry)) group_entries[name] = entry;
  }
  std::set<std::string> loaded_groups;
  for (const auto& group : s.broker_groups) {
    loaded_groups.insert(group.name);
    ASSERT_EQ(group_entries.count(group.name), 1u) << group.name;
    const json& entry = group_entries[group.name];
    EXPECT_EQ(group.slaves, entry.value("slaves", 0)) << group.name;
    const std::int64_t timeout = profile == core::Profile::kV4_9 ? 6000 : 24000;
    EXPECT_EQ(group.config.register_broker_timeout_mills,
              entry.value("config", json::object()).value("registerBrokerTimeoutMills", timeout))
        << group.name;
  }
  EXPECT_EQ(loaded_groups.size(), s.broker_groups.size()) << "a group is listed twice";
  EXPECT_EQ(loaded_groups.size(), group_entries.size());
  std::set<std::string> brokers;
  for (const auto& node : broker_nodes(s)) brokers.insert(node.name);
  EXPECT_EQ(brokers, nodes.resolve("brokers"));

  std::vector<std::string> all_groups;
  for (const auto& entry : file["broker_groups"]) {
    for (const auto& name : FileNodes::entry_names(entry)) all_groups.push_back(name);
  }
  std::size_t topic = 0;
  for (const auto& entry : file["topics"]) {
    for (const auto& name : FileNodes::entry_names(entry)) {
      ASSERT_LT(topic, s.topics.size()) << name;
      const TopicSpec& spec = s.topics[topic++];
      EXPECT_EQ(spec.name, name);
      EXPECT_EQ(spec.read_queue_nums, entry.value("readQueueNums", 16)) << name;
      EXPECT_EQ(spec.write_queue_nums, entry.value("writeQueueNums", 16)) << name;
      EXPECT_EQ(spec.perm, entry.value("perm", 6)) << name;
      EXPECT_EQ(spec.groups, entry.contains("groups") ? strings_of(entry["groups"]) : all_groups)
          << name;
    }
  }
  EXPECT_EQ(topic, s.topics.size());

  const json producers = file.value("producers", json::array());
  ASSERT_EQ(s.producers.size(), producers.size());
  for (std::size_t i = 0; i < producers.size(); ++i) {
    const json& written = producers[i];
    const ProducerSpec& spec = s.producers[i];
    EXPECT_EQ(spec.name_prefix, written.value("name_prefix", "producer"));
    EXPECT_EQ(spec.count, written.value("count", 1));
    EXPECT_DOUBLE_EQ(spec.rate_per_s, written.value("rate_per_s", 1.0));
    EXPECT_EQ(spec.arrival == Arrival::kPoisson, written.value("arrival", "fixed") == "poisson");
    if (written.contains("topics")) {
      EXPECT_EQ(spec.topics, strings_of(written["topics"]));
    }
    const json config = written.value("config", json::object());
    EXPECT_EQ(spec.config.send_latency_fault_enable, config.value("sendLatencyFaultEnable", false));
  }

  expect_faults_as_written(file, s, nodes);

  std::vector<std::string> expect;
  for (const auto& expectation : s.expect) expect.push_back(expectation.source);
  EXPECT_EQ(expect, strings_of(file.value("expect", json::array())));
  EXPECT_EQ(s.sweep.has_value(), file.contains("sweep"));
  if (s.sweep && file.contains("sweep")) {
    if (file["sweep"].contains("seeds")) {
      EXPECT_EQ(s.sweep->seeds, file["sweep"]["seeds"].get<std::int64_t>());
    }
    std::vector<std::string> sweep_expect;
    for (const auto& expectation : s.sweep->expect) sweep_expect.push_back(expectation.source);
    EXPECT_EQ(sweep_expect, strings_of(file["sweep"].value("expect", json::array())));
  }
}

TEST(ScenarioFiles, EveryShippedScenarioLoadsAsWrittenUnderBothProfiles) {
  const auto files = shipped_scenarios();
  ASSERT_FALSE(files.empty()) << "no scenarios under " << scenarios_dir();
  for (const auto& path : files) {
    const json file = json::parse(read_text(path));
    for (core::Profile profile : {core::Profile::kV4_9, core::Profile::kV5}) {
      SCOPED_TRACE(path.filename().string() + " under " + core::profile_name(profile));
      LoadOptions options;
      options.profile = profile;
      try {
        expect_loaded_as_written(file, load_scenario_file(path.string(), options), profile);
      } catch (const ScenarioError& error) {
        ADD_FAILURE() << error.what();
      }
    }
  }
}

TEST(ScenarioFiles, LatencyFaultScenarioEnablesTheStrategyUnder49) {
  const Scenario s =
      load_scenario_file((scenarios_dir() / "latency_fault_4_9_vs_5x.json").string(), {});
  EXPECT_EQ(s.profile, core::Profile::kV4_9);
  ASSERT_FALSE(s.producers.empty());
  for (const auto& producer : s.producers) EXPECT_TRUE(producer.config.send_latency_fault_enable);
}

// Loading must end in a Scenario or a ScenarioError, never anything else.
void expect_loads_or_rejects(const std::string& text) {
  try {
    parse_scenario(text, "fuzz.json", {});
  } catch (const ScenarioError& error) {
    const std::string what = error.what();
    EXPECT_EQ(what.rfind("fuzz.json: ", 0), 0u) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  } catch (const std::exception& other) {
    ADD_FAILURE() << "not a ScenarioError: " << other.what() << "\ninput: " << text;
  }
}

TEST(ScenarioFiles, ByteMutationsNeverCrash) {
  const std::string base = read_text(scenarios_dir() / "broker_kill.json");
  ASSERT_FALSE(base.empty());
  const std::string alphabet = "{}[]\",:-.0123456789eE+ atrufnl\\\n";
  Rng rng(2024);
  for (int round = 0; round < 2000; ++round) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(rng.uniform_u64(3));
    for (int e = 0; e < edits && !text.empty(); ++e) {
      const std::size_t at = static_cast<std::size_t>(rng.uniform_u64(text.size()));
      switch (rng.uniform_u64(3)) {
        case 0:
          text.erase(at, 1);
          break;
        case 1:
          text.insert(at, 1, alphabet[rng.uniform_u64(alphabet.size())]);
          break;
        default:
          text[at] = alphabet[rng.uniform_u64(alphabet.size())];
          break;
      }
    }
    expect_loads_or_rejects(text);
  }
}

void collect_pointers(const json& value, const json::json_pointer& here,
                      std::vector<json::json_pointer>& out) {
  out.push_back(here);
  if (value.is_object()) {
    for (const auto& item : value.items()) collect_pointers(item.value(), here / item.key(), out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) collect_pointers(value[i], here / i, out);
  }
}

TEST(ScenarioFiles, ValueMutationsNeverCrash) {
  const std::vector<json> replacements = {json(nullptr),
                                          json(true),
                                          json(-1),
                                          json(0),
                                          json(1),
                                          json(2147483648LL),
                                          json(-9223372036854775807LL - 1),
                                          json(18446744073709551615ULL),
                                          json(1e300),
                                          json(-0.5),
                                          json("x"),
                                          json(""),
                                          json("ns-0"),
                                          json("all"),
                                          json("brokers"),
                                          json::array(),
                                          json::object(),
                                          json::array({json::array({json::array()})}),
                                          json::array({"broker-a-0"})};
  for (const auto& path : shipped_scenarios()) {
    const json base = json::parse(read_text(path));
    std::vector<json::json_pointer> pointers;
    collect_pointers(base, json::json_pointer(), pointers);
    Rng rng = Rng::derive(7, path.filename().string());
    for (int round = 0; round < 150; ++round) {
      json doc = base;
      const auto& pointer = pointers[rng.uniform_u64(pointers.size())];
      if (pointer.empty()) continue;
      doc[pointer] = replacements[rng.uniform_u64(replacements.size())];
      expect_loads_or_rejects(doc.dump());
    }
  }
}

}  // namespace
}  // namespace nssim::sim

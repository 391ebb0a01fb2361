// The shipped scenarios/*.json all load, under both profiles, and no mutation of them can make
// the loader do anything but load or throw ScenarioError.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "sim/model/rng.h"
#include "sim/model/scenario_loader.h"

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
  for (const char* expected : {"steady_state", "broker_kill", "broker_poweroff", "broker_shutdown",
                               "broker_partition_one_nameserver", "broker_partition_from_producers",
                               "nameserver_crash_restart", "single_broker_topic_dies",
                               "broker_pause", "broker_flapping", "latency_fault_4_9_vs_5x"}) {
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

TEST(ScenarioFiles, EveryShippedScenarioLoadsUnderBothProfiles) {
  for (const auto& path : shipped_scenarios()) {
    for (core::Profile profile : {core::Profile::kV4_9, core::Profile::kV5}) {
      LoadOptions options;
      options.profile = profile;
      try {
        EXPECT_EQ(load_scenario_file(path.string(), options).profile, profile);
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

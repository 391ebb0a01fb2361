// Every way a scenario's document, topology and settings can be wrong, each with the exact
// one-line message a user sees: "<file>: <json path>: <what was expected>".
#include <gtest/gtest.h>

#include "scenario_error_helpers.h"

namespace nssim::sim {
namespace {

using nlohmann::json;
using scenario_testing::error_of;
using scenario_testing::error_of_text;
using scenario_testing::error_with;
using scenario_testing::minimal;

TEST(ScenarioErrors, JsonSyntaxErrorHasLineAndColumn) {
  EXPECT_EQ(error_of_text("{\n  \"name\": \"t\",\n  oops\n}"),
            "x.json: line 3, column 3: invalid JSON: syntax error while parsing object key - "
            "invalid literal; last read: '\"t\",<U+000A>  o'; expected string literal");
}

TEST(ScenarioErrors, EmptyInputIsInvalidJson) {
  EXPECT_EQ(error_of_text(""),
            "x.json: line 1, column 1: invalid JSON: syntax error while parsing value - "
            "unexpected end of input; expected '[', '{', or a literal");
}

TEST(ScenarioErrors, DuplicateFieldIsNamed) {
  EXPECT_EQ(error_of_text(R"({"nameservers": {"count": 1, "count": 2}})"),
            "x.json: nameservers.count: duplicate field");
}

TEST(ScenarioErrors, DeepNestingIsRefused) {
  const std::string text = "{\"d\":" + std::string(100, '[') + std::string(100, ']') + "}";
  const std::string error = error_of_text(text);
  EXPECT_EQ(error.rfind("x.json: d[0][0]", 0), 0u) << error;
  EXPECT_NE(error.find(": nested deeper than 64 levels"), std::string::npos) << error;
}

TEST(ScenarioErrors, MissingFileIsNamed) {
  try {
    load_scenario_file("/nonexistent/dir/x.json", {});
    FAIL() << "loaded";
  } catch (const ScenarioError& error) {
    EXPECT_STREQ(error.what(), "/nonexistent/dir/x.json: no such file");
  }
}

TEST(ScenarioErrors, DirectoryIsNotAFile) {
  try {
    load_scenario_file("/", {});
    FAIL() << "loaded";
  } catch (const ScenarioError& error) {
    EXPECT_STREQ(error.what(), "/: is a directory, not a scenario file");
  }
}

TEST(ScenarioErrors, DocumentMustBeAnObject) {
  EXPECT_EQ(error_of_text("[1]"), "x.json: (document): must be an object, got an array");
}

TEST(ScenarioErrors, UnknownTopLevelFieldSuggestsTheClosest) {
  json doc = minimal();
  doc["duraton_ms"] = 5;
  EXPECT_EQ(error_of(doc), "x.json: duraton_ms: unknown field (did you mean duration_ms?)");
}

TEST(ScenarioErrors, UnknownFieldListsTheChoicesWhenNothingIsClose) {
  json doc = minimal();
  doc["nameservers"] = json::parse(R"({"link": {"zzz": 1}})");
  EXPECT_EQ(error_of(doc),
            "x.json: nameservers.link.zzz: unknown field (expected one of latency_ms, "
            "bandwidth_mbps)");
}

TEST(ScenarioErrors, UnknownProducerConfigSuggestsTheClosest) {
  json doc = minimal();
  doc["producers"][0]["config"] = {{"sendMsgTimout", 3000}};
  EXPECT_EQ(error_of(doc),
            "x.json: producers[0].config.sendMsgTimout: unknown field (did you mean "
            "sendMsgTimeout?)");
}

// A setting nssim parses but cannot model is refused unless it keeps upstream's default, so a
// value meant to change something is never silently ignored.
TEST(ScenarioErrors, NotModelledSettingIsRefusedUnlessItKeepsTheDefault) {
  json doc = minimal();
  doc["producers"][0]["config"] = {{"retryAnotherBrokerWhenNotStoreOK", true}};
  EXPECT_EQ(error_of(doc),
            "x.json: producers[0].config.retryAnotherBrokerWhenNotStoreOK: is not modelled: "
            "nssim's brokers answer every send they get with SEND_OK (no flush or slave "
            "timeouts), so the retry it enables never happens; only upstream's default is "
            "accepted: remove it");
  doc["producers"][0]["config"] = {{"retryAnotherBrokerWhenNotStoreOK", false}};
  EXPECT_EQ(error_of(doc), "(loaded)");
}

// A setting written beside "config" rather than inside it says where it goes.
TEST(ScenarioErrors, SettingOutsideConfigIsPointedThere) {
  json doc = minimal();
  doc["producers"][0]["sendMsgTimeout"] = 100;
  EXPECT_EQ(error_of(doc),
            "x.json: producers[0].sendMsgTimeout: is a setting: write it inside \"config\" "
            "(producers[0].config.sendMsgTimeout)");
  doc = minimal();
  doc["broker_groups"][0]["forceRegister"] = false;
  EXPECT_EQ(error_of(doc),
            "x.json: broker_groups[0].forceRegister: is a setting: write it inside \"config\" "
            "(broker_groups[0].config.forceRegister)");
}

TEST(ScenarioErrors, FiveOnlyBrokerKeyIsRejectedUnder49) {
  json doc = minimal();
  doc["profile"] = "4.9";
  doc["broker_groups"][0]["config"] = {{"enableSlaveActingMaster", true}};
  EXPECT_EQ(error_of(doc),
            "x.json: broker_groups[0].config.enableSlaveActingMaster: only exists in profile 5.x "
            "(this scenario runs profile 4.9)");
}

TEST(ScenarioErrors, FiveOnlyProducerKeyIsRejectedUnderProfileOverride) {
  json doc = minimal();
  doc["producers"][0]["config"] = {{"sendMsgMaxTimeoutPerRequest", 1000}};
  LoadOptions options;
  options.profile = core::Profile::kV4_9;
  EXPECT_EQ(error_of(doc, options),
            "x.json: producers[0].config.sendMsgMaxTimeoutPerRequest: only exists in profile 5.x "
            "(this scenario runs profile 4.9)");
}

TEST(ScenarioErrors, FiveOnlyNamesrvKeyIsRejectedUnder49) {
  json doc = minimal();
  doc["profile"] = "4.9";
  doc["nameservers"] = json::parse(R"({"config": {"scanNotActiveBrokerInterval": 5000}})");
  EXPECT_EQ(error_of(doc),
            "x.json: nameservers.config.scanNotActiveBrokerInterval: only exists in profile 5.x "
            "(this scenario runs profile 4.9)");
}

TEST(ScenarioErrors, NamesrvConfigValueMustParse) {
  json doc = minimal();
  doc["nameservers"] = json::parse(R"({"config": {"scanNotActiveBrokerInterval": "soon"}})");
  EXPECT_EQ(error_of(doc),
            "x.json: nameservers.config.scanNotActiveBrokerInterval: expected an integer, got "
            "'soon'");
  doc["nameservers"] = json::parse(R"({"config": {"clusterTest": [true]}})");
  EXPECT_EQ(error_of(doc),
            "x.json: nameservers.config.clusterTest: must be a string, number or boolean, got an "
            "array");
  doc["nameservers"] = json::parse(R"({"config": {"scanNotActiveBrokerInterval": 0}})");
  EXPECT_EQ(error_of(doc), "x.json: nameservers.config.scanNotActiveBrokerInterval: must be > 0");
  doc["nameservers"] = json::parse(R"({"config": {"scanInterval": 1}})");
  EXPECT_EQ(error_of(doc), "x.json: nameservers.config.scanInterval: unknown field");
}

TEST(ScenarioErrors, BrokerConfigValuesAreTyped) {
  json doc = minimal();
  doc["broker_groups"][0]["config"] = {{"forceRegister", "false"}};
  EXPECT_EQ(error_of(doc),
            "x.json: broker_groups[0].config.forceRegister: must be true or false, got \"false\"");
  doc["broker_groups"][0]["config"] = {{"brokerPermission", 8}};
  EXPECT_EQ(error_of(doc), "x.json: broker_groups[0].config.brokerPermission: must be <= 7");
  doc["broker_groups"][0]["config"] = {{"registerNameServerPeriod", 0}};
  EXPECT_EQ(error_of(doc), "x.json: broker_groups[0].config.registerNameServerPeriod: must be > 0");
  doc["broker_groups"][0]["config"] = {{"registerBrokerTimeoutMills", 3000000000LL}};
  EXPECT_EQ(error_of(doc),
            "x.json: broker_groups[0].config.registerBrokerTimeoutMills: must be <= 2147483647");
}

TEST(ScenarioErrors, NameIsRequiredAndLowercase) {
  json doc = minimal();
  doc.erase("name");
  EXPECT_EQ(error_of(doc), "x.json: name: is required");
  doc["name"] = "Bad-Name";
  EXPECT_EQ(error_of(doc),
            "x.json: name: must be 1 to 127 characters of a-z, 0-9 and _, got 'Bad-Name'");
}

TEST(ScenarioErrors, ControlCharactersStayOnOneLine) {
  json doc = minimal();
  doc["name"] = "a\nb";
  EXPECT_EQ(error_of(doc),
            "x.json: name: must be 1 to 127 characters of a-z, 0-9 and _, got 'a\\x0ab'");
}

TEST(ScenarioErrors, ProfileMustBeKnown) {
  EXPECT_EQ(error_with("profile", R"("5.3")"),
            "x.json: profile: must be \"4.9\" or \"5.x\", got '5.3'");
  EXPECT_EQ(error_with("profile", "4.9"), "x.json: profile: must be a string, got 4.9");
}

TEST(ScenarioErrors, SeedMustBeANonNegativeInteger) {
  EXPECT_EQ(error_with("seed", "-1"), "x.json: seed: must be >= 0");
  EXPECT_EQ(error_with("seed", R"("1")"),
            "x.json: seed: must be a non-negative integer, got \"1\"");
}

TEST(ScenarioErrors, DurationMustBePositiveAndBounded) {
  EXPECT_EQ(error_with("duration_ms", "0"), "x.json: duration_ms: must be > 0");
  EXPECT_EQ(error_with("duration_ms", "1.5"), "x.json: duration_ms: must be an integer, got 1.5");
  EXPECT_EQ(error_with("duration_ms", "1e300"), "x.json: duration_ms: must be <= 604800000");
  EXPECT_EQ(error_with("duration_ms", "-1e300"), "x.json: duration_ms: must be > 0");
  EXPECT_EQ(error_with("duration_ms", "99999999999999999999999"),
            "x.json: duration_ms: must be <= 604800000");
  EXPECT_EQ(error_with("duration_ms", "18446744073709551615"),
            "x.json: duration_ms: must be <= 604800000");
}

TEST(ScenarioErrors, NumberOverflowIsInvalidJson) {
  EXPECT_EQ(error_of_text(R"({"duration_ms": 1e999})"),
            "x.json: line 1, column 17: invalid JSON: number overflow parsing '1e999'");
}

TEST(ScenarioErrors, BrokerGroupsAreRequired) {
  json doc = minimal();
  doc.erase("broker_groups");
  EXPECT_EQ(error_of(doc), "x.json: broker_groups: is required");
  EXPECT_EQ(error_with("broker_groups", "[]"),
            "x.json: broker_groups: must have at least one entry");
  EXPECT_EQ(error_with("broker_groups", "{}"),
            "x.json: broker_groups: must be an array, got an object");
}

TEST(ScenarioErrors, GroupEntryNeedsNameOrPrefixAndCount) {
  EXPECT_EQ(error_with("broker_groups", R"([{"slaves": 1}])"),
            "x.json: broker_groups[0]: needs name, or name_prefix and count");
  EXPECT_EQ(error_with("broker_groups", R"([{"name": "a", "name_prefix": "b"}])"),
            "x.json: broker_groups[0].name_prefix: give name or name_prefix, not both");
  EXPECT_EQ(error_with("broker_groups", R"([{"name": "a", "count": 2}])"),
            "x.json: broker_groups[0].count: needs name_prefix instead of name");
  EXPECT_EQ(error_with("broker_groups", R"([{"name_prefix": "b-"}])"),
            "x.json: broker_groups[0].count: is required");
  EXPECT_EQ(error_with("broker_groups", R"([{"name_prefix": "b-", "count": 0}])"),
            "x.json: broker_groups[0].count: must be >= 1");
  EXPECT_EQ(error_with("broker_groups", R"([{"name": "a b"}])"),
            "x.json: broker_groups[0].name: must be 1 to 127 characters of letters, digits, _ "
            "and -, got 'a b'");
}

TEST(ScenarioErrors, NamesMustBeUnique) {
  EXPECT_EQ(error_with("broker_groups", R"([{"name": "broker-a"}, {"name": "broker-a"}])"),
            "x.json: broker_groups[1].name: 'broker-a' is already used by broker_groups[0]");
  EXPECT_EQ(error_with("broker_groups", R"([{"name": "b-1"}, {"name_prefix": "b-", "count": 3}])"),
            "x.json: broker_groups[1].name_prefix: 'b-1' is already used by broker_groups[0]");
  EXPECT_EQ(error_with("broker_groups", R"([{"name": "ns"}])"),
            "x.json: broker_groups[0].name: broker 'ns-0' is already used by nameservers");
  EXPECT_EQ(error_with("broker_groups", R"([{"name": "brokers"}])"),
            "x.json: broker_groups[0].name: 'brokers' is reserved (a partition keyword)");
  EXPECT_EQ(error_with("producers", R"([{"count": 1}, {"count": 2}])"),
            "x.json: producers[1].name_prefix: 'producer' is already used by producers[0]");
  EXPECT_EQ(error_with("producers", R"([{"name_prefix": "broker-a"}])"),
            "x.json: producers[0].name_prefix: 'broker-a' is already used by broker_groups[0]");
  EXPECT_EQ(error_with("topics", R"([{"name": "T"}, {"name": "T"}])"),
            "x.json: topics[1].name: 'T' is already used by topics[0]");
}

TEST(ScenarioErrors, TopicGroupsMustExist) {
  EXPECT_EQ(error_with("topics", R"([{"name": "T", "groups": ["broker-z"]}])"),
            "x.json: topics[0].groups[0]: no broker group named 'broker-z' (did you mean "
            "broker-a?)");
  EXPECT_EQ(error_with("topics", R"([{"name": "T", "groups": []}])"),
            "x.json: topics[0].groups: must not be empty (leave it out to mean all broker "
            "groups)");
  EXPECT_EQ(error_with("topics", R"([{"name": "T", "groups": ["broker-a", "broker-a"]}])"),
            "x.json: topics[0].groups[1]: 'broker-a' is listed twice");
  EXPECT_EQ(error_with("topics", R"([{"name": "T", "perm": 8}])"),
            "x.json: topics[0].perm: must be <= 7");
  EXPECT_EQ(error_with("topics", R"([{"name": "T", "readQueueNums": -1}])"),
            "x.json: topics[0].readQueueNums: must be >= 0");
  EXPECT_EQ(error_with("topics", R"([{"name": "a/b"}])"),
            "x.json: topics[0].name: must be 1 to 127 characters of letters, digits, _ - % |, "
            "got 'a/b'");
}

TEST(ScenarioErrors, ProducerFieldsAreChecked) {
  EXPECT_EQ(error_with("producers", R"([{"rate_per_s": 0}])"),
            "x.json: producers[0].rate_per_s: must be > 0");
  EXPECT_EQ(error_with("producers", R"([{"count": 0}])"),
            "x.json: producers[0].count: must be >= 1");
  EXPECT_EQ(error_with("producers", R"([{"arrival": "bursty"}])"),
            "x.json: producers[0].arrival: must be \"fixed\" or \"poisson\", got 'bursty'");
  EXPECT_EQ(error_with("producers", R"([{"topics": ["Topictest"]}])"),
            "x.json: producers[0].topics[0]: no topic named 'Topictest' (did you mean "
            "TopicTest?)");
  EXPECT_EQ(error_with("producers", R"([{"message_size_bytes": 5000000}])"),
            "x.json: producers[0].message_size_bytes: must be <= 4194304");
}

TEST(ScenarioErrors, StartIsCheckedAgainstTheRun) {
  EXPECT_EQ(error_with("producers", R"([{"start": {"min_ms": 10, "max_ms": 5}}])"),
            "x.json: producers[0].start.max_ms: must be >= min_ms");
  EXPECT_EQ(error_with("producers", R"([{"start_ms": 600000}])"),
            "x.json: producers[0].start_ms: must be < duration_ms (600000)");
  EXPECT_EQ(error_with("producers", R"([{"start_ms": 1, "start": {"min_ms": 0, "max_ms": 1}}])"),
            "x.json: producers[0].start_ms: give start or start_ms, not both");
  EXPECT_EQ(error_with("producers", R"([{"start": {"min_ms": 0}}])"),
            "x.json: producers[0].start.max_ms: is required");
}

TEST(ScenarioErrors, SimulatorLimitsStopHugeExpansions) {
  json doc = minimal();
  doc["broker_groups"] = json::parse(R"([{"name_prefix": "g", "count": 20}])");
  doc["topics"] = json::parse(R"([{"name_prefix": "t", "count": 60000}])");
  doc.erase("producers");
  EXPECT_EQ(error_of(doc),
            "x.json: topics[0]: more than 1000000 topic-on-group placements in all (topics x "
            "groups)");
  doc = minimal();
  doc["topics"] = json::parse(R"([{"name_prefix": "t", "count": 100000}])");
  doc["producers"] = json::parse(R"([{"count": 101}])");
  EXPECT_EQ(error_of(doc),
            "x.json: producers[0]: more than 10000000 producer-topic pairs in all (count x "
            "topics)");
  EXPECT_EQ(error_with("broker_groups", R"([{"name": "a", "slaves": 17}])"),
            "x.json: broker_groups[0].slaves: must be <= 16");
  EXPECT_EQ(error_with("nameservers", R"({"count": 65})"),
            "x.json: nameservers.count: must be <= 64");
}

}  // namespace
}  // namespace nssim::sim

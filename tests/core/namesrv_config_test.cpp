// NamesrvConfig: upstream's defaults per profile, and setting a field by name as
// MixAll#properties2Object does (lenient) or as the command line does (strict).
#include "nameserver_core/namesrv_config.h"

#include <gtest/gtest.h>

namespace nssim::core {
namespace {

using Properties = std::vector<std::pair<std::string, std::string>>;

// Java: NamesrvConfig field initialisers of 5.3.3 (user.home spelt "~", rocketmqHome unset).
TEST(NamesrvConfig, DefaultsOf5xEqualUpstream) {
  const Properties expected = {
      {"clientRequestThreadPoolNums", "8"},
      {"clientRequestThreadPoolQueueCapacity", "50000"},
      {"clusterTest", "false"},
      {"configBlackList", "configBlackList;configStorePath;kvConfigPath"},
      {"configStorePath", "~/namesrv/namesrv.properties"},
      {"defaultThreadPoolNums", "16"},
      {"defaultThreadPoolQueueCapacity", "10000"},
      {"deleteTopicWithBrokerRegistration", "false"},
      {"enableAllTopicList", "true"},
      {"enableControllerInNamesrv", "false"},
      {"enableTopicList", "true"},
      {"kvConfigPath", "~/namesrv/kvConfig.json"},
      {"needWaitForService", "false"},
      {"notifyMinBrokerIdChanged", "false"},
      {"orderMessageEnable", "false"},
      {"productEnvName", "center"},
      {"returnOrderTopicConfigToBroker", "true"},
      {"rocketmqHome", ""},
      {"scanNotActiveBrokerInterval", "5000"},
      {"supportActingMaster", "false"},
      {"unRegisterBrokerQueueCapacity", "3000"},
      {"waitSecondsForService", "45"},
  };
  EXPECT_EQ(namesrv_config_properties(NamesrvConfig{}, Profile::kV5), expected);
}

// Java: NamesrvConfig of 4.9.8 has seven fields and none of 5.x's.
TEST(NamesrvConfig, DefaultsOf4xEqualUpstream) {
  const Properties expected = {
      {"clusterTest", "false"},
      {"configBlackList", "configBlackList;configStorePath;kvConfigPath"},
      {"configStorePath", "~/namesrv/namesrv.properties"},
      {"kvConfigPath", "~/namesrv/kvConfig.json"},
      {"orderMessageEnable", "false"},
      {"productEnvName", "center"},
      {"rocketmqHome", ""},
  };
  EXPECT_EQ(namesrv_config_properties(NamesrvConfig{}, Profile::kV4_9), expected);
}

TEST(NamesrvConfig, FieldsOf5xAreUnknownTo4x) {
  NamesrvConfig config;
  EXPECT_TRUE(set_namesrv_config_field(config, Profile::kV4_9, "supportActingMaster", "true",
                                       ConfigParse::kStrict)
                  .has_value());
  EXPECT_FALSE(set_namesrv_config_field(config, Profile::kV4_9, "supportActingMaster", "true",
                                        ConfigParse::kLenient)
                   .has_value());
  EXPECT_FALSE(config.support_acting_master);
  EXPECT_FALSE(set_namesrv_config_field(config, Profile::kV5, "supportActingMaster", "true",
                                        ConfigParse::kStrict)
                   .has_value());
  EXPECT_TRUE(config.support_acting_master);
}

// properties2Object only looks for setters of the names it knows: others are ignored.
TEST(NamesrvConfig, UnknownNameIsAnErrorOnlyWhenStrict) {
  NamesrvConfig config;
  auto error =
      set_namesrv_config_field(config, Profile::kV5, "noSuchField", "1", ConfigParse::kStrict);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("noSuchField"), std::string::npos);
  EXPECT_FALSE(
      set_namesrv_config_field(config, Profile::kV5, "noSuchField", "1", ConfigParse::kLenient));
}

// Java: Boolean.parseBoolean, true only for "true" in any case, untrimmed; strict mode insists
// on true or false.
TEST(NamesrvConfig, BooleansFollowParseBoolean) {
  const std::vector<std::pair<std::string, bool>> cases = {
      {"true", true}, {"TRUE", true}, {"True", true},  {"false", false},
      {"yes", false}, {"1", false},   {" true", false}};
  for (const auto& [text, expected] : cases) {
    SCOPED_TRACE(text);
    NamesrvConfig config;
    config.order_message_enable = !expected;
    EXPECT_FALSE(set_namesrv_config_field(config, Profile::kV4_9, "orderMessageEnable", text,
                                          ConfigParse::kLenient));
    EXPECT_EQ(config.order_message_enable, expected);

    const bool strict_ok = text == "true" || text == "TRUE" || text == "True" || text == "false";
    EXPECT_EQ(!set_namesrv_config_field(config, Profile::kV4_9, "orderMessageEnable", text,
                                        ConfigParse::kStrict)
                   .has_value(),
              strict_ok);
  }
}

// Java: Integer.parseInt / Long.parseLong (optional sign, digits, no blanks, in range). A value
// that does not parse keeps the old one when lenient (properties2Object swallows the exception).
TEST(NamesrvConfig, IntegersFollowParseIntAndParseLong) {
  const std::vector<std::pair<std::string, std::optional<int>>> int_cases = {
      {"7", 7},
      {"+7", 7},
      {"-7", -7},
      {"0", 0},
      {" 7", std::nullopt},
      {"7 ", std::nullopt},
      {"+-7", std::nullopt},
      {"", std::nullopt},
      {"7.0", std::nullopt},
      {"2147483647", 2147483647},
      {"2147483648", std::nullopt}};
  for (const auto& [text, expected] : int_cases) {
    SCOPED_TRACE(text);
    NamesrvConfig config;
    EXPECT_FALSE(set_namesrv_config_field(config, Profile::kV5, "unRegisterBrokerQueueCapacity",
                                          text, ConfigParse::kLenient));
    EXPECT_EQ(config.un_register_broker_queue_capacity, expected.value_or(3000));
    EXPECT_EQ(set_namesrv_config_field(config, Profile::kV5, "unRegisterBrokerQueueCapacity", text,
                                       ConfigParse::kStrict)
                  .has_value(),
              !expected.has_value());
  }
  NamesrvConfig config;
  EXPECT_FALSE(set_namesrv_config_field(config, Profile::kV5, "scanNotActiveBrokerInterval",
                                        "2147483648", ConfigParse::kStrict));
  EXPECT_EQ(config.scan_not_active_broker_interval, 2147483648LL);
}

// Java: properties2Object trims String values in 5.3.3 (String#trim) but not in 4.9.8.
TEST(NamesrvConfig, StringsAreTrimmedOnlyIn5x) {
  NamesrvConfig v4;
  set_namesrv_config_field(v4, Profile::kV4_9, "productEnvName", " env \t", ConfigParse::kLenient);
  EXPECT_EQ(v4.product_env_name, " env \t");
  NamesrvConfig v5;
  set_namesrv_config_field(v5, Profile::kV5, "productEnvName", " env \t", ConfigParse::kLenient);
  EXPECT_EQ(v5.product_env_name, "env");
  set_namesrv_config_field(v5, Profile::kV5, "productEnvName", " \f ", ConfigParse::kLenient);
  EXPECT_EQ(v5.product_env_name, "");
}

// Every listed name can be set back to the value it is listed with (GET then UPDATE round trip).
TEST(NamesrvConfig, PropertiesRoundTrip) {
  for (Profile profile : {Profile::kV4_9, Profile::kV5}) {
    SCOPED_TRACE(profile_name(profile));
    NamesrvConfig changed;
    changed.cluster_test = true;
    changed.product_env_name = "test";
    changed.wait_seconds_for_service = 7;
    const auto properties = namesrv_config_properties(changed, profile);
    NamesrvConfig copy;
    for (const auto& [name, value] : properties) {
      EXPECT_FALSE(set_namesrv_config_field(copy, profile, name, value, ConfigParse::kStrict))
          << name;
    }
    EXPECT_EQ(namesrv_config_properties(copy, profile), properties);
  }
}

}  // namespace
}  // namespace nssim::core

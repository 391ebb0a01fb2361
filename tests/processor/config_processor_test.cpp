// UPDATE_NAMESRV_CONFIG and GET_NAMESRV_CONFIG. Ported from DefaultRequestProcessorTest (4.9.8)
// and RequestProcessorTest (5.3.3), plus the black list and parsing branches.
#include <gtest/gtest.h>

#include "processor_test_support.h"

namespace nssim::core {
namespace {

using namespace processor_testing;
namespace rc = request_code;

RemotingRequest update(const std::string& text) {
  return Request(rc::kUpdateNamesrvConfig).body(text);
}

// DefaultRequestProcessorTest#testProcessRequest_UpdateConfigPath (both tags)
TEST(ConfigProcessor, UpdateConfigRefusesBlackListedKeys) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    EXPECT_EQ(server.call(update("enableTopicList=true\n")).code, response_code::kSuccess);
    for (const char* text : {"configStorePath=test/path\n", "kvConfigPath=test/path\n",
                             "configBlackList=test;path\n", "rocketmqHome=/opt\n"}) {
      const auto response = server.call(update(text));
      EXPECT_EQ(response.code, response_code::kNoPermission) << text;
      EXPECT_EQ(response.remark, "Can not update config in black list.") << text;
    }
    EXPECT_EQ(server.ns().config().kv_config_path, "~/namesrv/kvConfig.json");
  }
}

// DefaultRequestProcessorTest#testUpdateConfig: a HashMap's toString is still properties text
// ("{key" = "value}").
TEST(ConfigProcessor, UpdateConfigAcceptsAnyParsableText) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    EXPECT_EQ(server.call(update("{key=value}")).code, response_code::kSuccess);
  }
}

TEST(ConfigProcessor, UpdateConfigAppliesKnownFieldsAndSkipsTheRest) {
  Server server(Profile::kV5);
  const auto response = server.call(
      update("orderMessageEnable = TRUE\nwaitSecondsForService: 7\ndefaultThreadPoolNums=many\n"
             "noSuchField=1\n"));
  EXPECT_EQ(response.code, response_code::kSuccess);
  EXPECT_TRUE(server.ns().config().order_message_enable);
  EXPECT_EQ(server.ns().config().wait_seconds_for_service, 7);
  EXPECT_EQ(server.ns().config().default_thread_pool_nums, 16);  // unparsable: kept
}

TEST(ConfigProcessor, FourNineIgnoresFiveXOnlyFields) {
  Server server(Profile::kV4_9);
  EXPECT_EQ(server.call(update("enableAllTopicList=false\n")).code, response_code::kSuccess);
  EXPECT_TRUE(server.ns().config().enable_all_topic_list);
}

TEST(ConfigProcessor, MalformedUnicodeEscapeIsString2PropertiesError) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const auto response = server.call(update("productEnvName=\\u12G4\n"));
    EXPECT_EQ(response.code, response_code::kSystemError);
    EXPECT_EQ(response.remark, "string2Properties error");
  }
}

TEST(ConfigProcessor, UpdateConfigWithoutBodyIsSuccess) {
  Server server(Profile::kV5);
  EXPECT_EQ(server.call(Request(rc::kUpdateNamesrvConfig)).code, response_code::kSuccess);
}

// The black list is fixed when the processor is built, from configBlackList plus the four
// names 4.9.8 and 5.3.3 always add; String#split keeps a lone empty name.
TEST(ConfigProcessor, ConfiguredBlackListIsAddedToTheFixedOne) {
  NamesrvConfig config;
  config.config_black_list = "orderMessageEnable;;productEnvName;";
  Server server(Profile::kV5, config);
  EXPECT_EQ(server.call(update("orderMessageEnable=true")).code, response_code::kNoPermission);
  EXPECT_EQ(server.call(update("productEnvName=x")).code, response_code::kNoPermission);
  EXPECT_EQ(server.call(update("=value")).code, response_code::kNoPermission);  // "" is listed
  EXPECT_EQ(server.call(update("rocketmqHome=x")).code, response_code::kNoPermission);

  config.config_black_list = "";
  Server empty(Profile::kV5, config);
  EXPECT_EQ(empty.call(update("=value")).code, response_code::kNoPermission);
  EXPECT_EQ(empty.call(update("clusterTest=false")).code, response_code::kSuccess);
}

// DefaultRequestProcessorTest#testGetConfig
TEST(ConfigProcessor, GetConfigListsTheProfilesFieldsSortedByName) {
  Server v4(Profile::kV4_9);
  const auto response = v4.call(Request(rc::kGetNamesrvConfig));
  EXPECT_EQ(response.code, response_code::kSuccess);
  EXPECT_EQ(std::get<std::string>(response.body),
            "clusterTest=false\n"
            "configBlackList=configBlackList;configStorePath;kvConfigPath\n"
            "configStorePath=~/namesrv/namesrv.properties\n"
            "kvConfigPath=~/namesrv/kvConfig.json\n"
            "orderMessageEnable=false\n"
            "productEnvName=center\n");
  Server v5(Profile::kV5);
  const std::string text = std::get<std::string>(v5.call(Request(rc::kGetNamesrvConfig)).body);
  EXPECT_EQ(text.rfind("clientRequestThreadPoolNums=8\n", 0), 0u);
  EXPECT_NE(text.find("\nunRegisterBrokerQueueCapacity=3000\nwaitSecondsForService=45\n"),
            std::string::npos);
}

TEST(ConfigProcessor, GetConfigShowsUpdatesAndASetRocketmqHome) {
  NamesrvConfig config;
  config.rocketmq_home = "/opt/rocketmq";
  Server server(Profile::kV4_9, config);
  server.call(update("productEnvName=test"));
  const std::string text = std::get<std::string>(server.call(Request(rc::kGetNamesrvConfig)).body);
  EXPECT_NE(text.find("productEnvName=test\n"), std::string::npos);
  EXPECT_NE(text.find("rocketmqHome=/opt/rocketmq\n"), std::string::npos);
}

// Properties#load reads the UTF-8 bytes as ISO-8859-1, so "é" arrives as two characters.
TEST(ConfigProcessor, NonAsciiValuesArriveAsLatin1Mojibake) {
  Server server(Profile::kV5);
  server.call(update("productEnvName=caf\xC3\xA9"));
  EXPECT_EQ(server.ns().config().product_env_name, "caf\xC3\x83\xC2\xA9");
}

}  // namespace
}  // namespace nssim::core

// PUT_KV_CONFIG, GET_KV_CONFIG, DELETE_KV_CONFIG and GET_KVLIST_BY_NAMESPACE (the same in both
// profiles). Ported from DefaultRequestProcessorTest (4.9.8) and RequestProcessorTest (5.3.3).
#include <gtest/gtest.h>

#include "processor_test_support.h"

namespace nssim::core {
namespace {

using namespace processor_testing;
namespace rc = request_code;

// DefaultRequestProcessorTest#testProcessRequest_PutKVConfig (both tags)
TEST(KvProcessor, PutKvConfigStoresTheValue) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const auto response = server.call(Request(rc::kPutKvConfig)
                                          .ext("namespace", "namespace")
                                          .ext("key", "key")
                                          .ext("value", "value"));
    EXPECT_EQ(response.code, response_code::kSuccess);
    EXPECT_FALSE(response.remark.has_value());
    EXPECT_EQ(server.ns().kv_config_manager().get_kv_config("namespace", "key"), "value");
  }
}

TEST(KvProcessor, PutKvConfigWithoutNamespaceOrKeyIsSystemError) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    for (const auto& request :
         {Request(rc::kPutKvConfig).ext("key", "k").ext("value", "v"),
          Request(rc::kPutKvConfig).ext("namespace", "ns").ext("value", "v")}) {
      const auto response = server.call(request);
      EXPECT_EQ(response.code, response_code::kSystemError);
      EXPECT_EQ(response.remark, "namespace or key is null");
    }
    EXPECT_TRUE(server.ns().kv_config_manager().config_table().empty());
  }
}

// Java stores the null value: the namespace exists, the key reads as absent.
TEST(KvProcessor, PutKvConfigWithoutValueCreatesTheNamespaceButNoReadableKey) {
  Server server(Profile::kV5);
  server.call(Request(rc::kPutKvConfig).ext("namespace", "ns").ext("key", "k").ext("value", "v"));
  EXPECT_EQ(server.call(Request(rc::kPutKvConfig).ext("namespace", "ns").ext("key", "k")).code,
            response_code::kSuccess);
  EXPECT_EQ(server.call(Request(rc::kGetKvConfig).ext("namespace", "ns").ext("key", "k")).code,
            response_code::kQueryNotFound);
  const auto list = server.call(Request(rc::kGetKvlistByNamespace).ext("namespace", "ns"));
  EXPECT_EQ(list.code, response_code::kSuccess);
  EXPECT_EQ(std::get<KvTable>(list.body), KvTable{});
}

// DefaultRequestProcessorTest#testProcessRequest_GetKVConfigReturnNotNull
TEST(KvProcessor, GetKvConfigAnswersTheValueHeader) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.ns().kv_config_manager().put_kv_config("namespace", "key", "value");
    const auto response =
        server.call(Request(rc::kGetKvConfig).ext("namespace", "namespace").ext("key", "key"));
    EXPECT_EQ(response.code, response_code::kSuccess);
    EXPECT_FALSE(response.remark.has_value());
    EXPECT_EQ(response.ext_fields.at("value"), "value");
  }
}

// DefaultRequestProcessorTest#testProcessRequest_GetKVConfigReturnNull
TEST(KvProcessor, GetKvConfigOfAMissingKeyIsQueryNotFound) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const auto response =
        server.call(Request(rc::kGetKvConfig).ext("namespace", "namespace").ext("key", "key"));
    EXPECT_EQ(response.code, response_code::kQueryNotFound);
    EXPECT_EQ(response.remark, "No config item, Namespace: namespace Key: key");
    EXPECT_EQ(response.ext_fields.count("value"), 0u);
  }
}

// A missing @CFNotNull field decodes as null (the decoder swallows its own exception).
TEST(KvProcessor, GetKvConfigWithoutHeaderFieldsLooksUpNull) {
  Server server(Profile::kV4_9);
  const auto response = server.call(Request(rc::kGetKvConfig));
  EXPECT_EQ(response.code, response_code::kQueryNotFound);
  EXPECT_EQ(response.remark, "No config item, Namespace: null Key: null");
}

// DefaultRequestProcessorTest#testProcessRequest_DeleteKVConfig
TEST(KvProcessor, DeleteKvConfigRemovesTheKey) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    server.ns().kv_config_manager().put_kv_config("namespace", "key", "value");
    const auto response =
        server.call(Request(rc::kDeleteKvConfig).ext("namespace", "namespace").ext("key", "key"));
    EXPECT_EQ(response.code, response_code::kSuccess);
    EXPECT_FALSE(response.remark.has_value());
    EXPECT_FALSE(server.ns().kv_config_manager().get_kv_config("namespace", "key").has_value());
  }
}

TEST(KvProcessor, DeleteKvConfigOfNothingIsSuccess) {
  Server server(Profile::kV5);
  EXPECT_EQ(server.call(Request(rc::kDeleteKvConfig).ext("namespace", "ns").ext("key", "k")).code,
            response_code::kSuccess);
  EXPECT_EQ(server.call(Request(rc::kDeleteKvConfig)).code, response_code::kSuccess);
}

// DefaultRequestProcessorTest#testGetKVListByNamespace
TEST(KvProcessor, GetKvListByNamespaceIsQueryNotFoundUntilTheNamespaceExists) {
  for (Profile profile : kBothProfiles) {
    SCOPED_TRACE(name_of(profile));
    Server server(profile);
    const RemotingRequest request =
        Request(rc::kGetKvlistByNamespace).ext("namespace", "default-namespace-1");
    const auto missing = server.call(request);
    EXPECT_EQ(missing.code, response_code::kQueryNotFound);
    EXPECT_EQ(missing.remark, "No config item, Namespace: default-namespace-1");
    server.ns().kv_config_manager().put_kv_config("default-namespace-1", "key", "value");
    const auto found = server.call(request);
    EXPECT_EQ(found.code, response_code::kSuccess);
    EXPECT_EQ(std::get<KvTable>(found.body), (KvTable{{"key", "value"}}));
  }
}

TEST(KvProcessor, AnEmptiedNamespaceIsStillListed) {
  Server server(Profile::kV4_9);
  server.call(Request(rc::kPutKvConfig).ext("namespace", "ns").ext("key", "k").ext("value", "v"));
  server.call(Request(rc::kDeleteKvConfig).ext("namespace", "ns").ext("key", "k"));
  const auto response = server.call(Request(rc::kGetKvlistByNamespace).ext("namespace", "ns"));
  EXPECT_EQ(response.code, response_code::kSuccess);
  EXPECT_TRUE(std::get<KvTable>(response.body).empty());
  EXPECT_EQ(server.call(Request(rc::kGetKvlistByNamespace)).remark,
            "No config item, Namespace: null");
}

}  // namespace
}  // namespace nssim::core

// KVConfigManager: namespaces of key/value pairs (order-topic configuration lives in one). Ported
// from upstream's KVConfigManagerTest (identical in 4.9.8 and 5.3.3).
#include "nameserver_core/kv_config_manager.h"

#include <gtest/gtest.h>

namespace nssim::core {
namespace {

// KVConfigManagerTest#testPutKVConfig
TEST(KvConfigManager, PutKvConfig) {
  KvConfigManager kv;
  kv.put_kv_config(kNamespaceOrderTopicConfig, "UnitTest", "test");
  auto table = kv.get_kv_list_by_namespace(kNamespaceOrderTopicConfig);
  ASSERT_TRUE(table.has_value());
  EXPECT_EQ(*table, (KvTable{{"UnitTest", "test"}}));
  EXPECT_EQ(kv.get_kv_config(kNamespaceOrderTopicConfig, "UnitTest"), "test");
}

// KVConfigManagerTest#testDeleteKVConfig (on a fresh manager: the namespace was never created)
TEST(KvConfigManager, DeleteKvConfig) {
  KvConfigManager kv;
  kv.delete_kv_config(kNamespaceOrderTopicConfig, "UnitTest");
  EXPECT_FALSE(kv.get_kv_list_by_namespace(kNamespaceOrderTopicConfig).has_value());
  EXPECT_FALSE(kv.get_kv_config(kNamespaceOrderTopicConfig, "UnitTest").has_value());
  EXPECT_TRUE(kv.config_table().empty());
}

// Java: deleteKVConfig removes the key only; an emptied namespace still answers an empty table.
TEST(KvConfigManager, EmptiedNamespaceStays) {
  KvConfigManager kv;
  kv.put_kv_config("ns", "k", "v");
  kv.delete_kv_config("ns", "k");
  auto table = kv.get_kv_list_by_namespace("ns");
  ASSERT_TRUE(table.has_value());
  EXPECT_TRUE(table->empty());
  EXPECT_FALSE(kv.get_kv_config("ns", "k").has_value());
}

TEST(KvConfigManager, PutOverwritesAndNamespacesAreSeparate) {
  KvConfigManager kv;
  kv.put_kv_config("ns1", "k", "v1");
  kv.put_kv_config("ns1", "k", "v2");
  kv.put_kv_config("ns2", "k", "other");
  kv.delete_kv_config("ns1", "missing");
  EXPECT_EQ(kv.get_kv_config("ns1", "k"), "v2");
  EXPECT_EQ(kv.get_kv_config("ns2", "k"), "other");
  EXPECT_FALSE(kv.get_kv_config("ns1", "missing").has_value());
  EXPECT_FALSE(kv.get_kv_config("ns3", "k").has_value());
  EXPECT_EQ(kv.config_table().size(), 2u);
}

TEST(KvConfigManager, OrderTopicNamespaceName) {
  EXPECT_STREQ(kNamespaceOrderTopicConfig, "ORDER_TOPIC_CONFIG");
}

}  // namespace
}  // namespace nssim::core

// File: KVConfigManager, the NameServer's namespace/key/value store (order-topic configuration
// lives here). Java persists it to kvConfigPath on every change and reloads it at start; the core
// keeps it in memory, and the owner decides what survives a restart.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace nssim::core {

// Java: NamesrvUtil.NAMESPACE_ORDER_TOPIC_CONFIG.
inline constexpr const char* kNamespaceOrderTopicConfig = "ORDER_TOPIC_CONFIG";

using KvTable = std::map<std::string, std::string>;

class KvConfigManager {
 public:
  void put_kv_config(const std::string& name_space, const std::string& key,
                     const std::string& value);
  void delete_kv_config(const std::string& name_space, const std::string& key);
  // Java: getKVListByNamespace; null when the namespace was never created (an emptied one stays).
  std::optional<KvTable> get_kv_list_by_namespace(const std::string& name_space) const;
  std::optional<std::string> get_kv_config(const std::string& name_space,
                                           const std::string& key) const;

  const std::map<std::string, KvTable>& config_table() const { return config_table_; }

 private:
  std::map<std::string, KvTable> config_table_;
};

}  // namespace nssim::core

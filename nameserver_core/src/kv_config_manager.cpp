// File: KVConfigManager's operations (Java: org.apache.rocketmq.namesrv.kvconfig.KVConfigManager).
#include "nameserver_core/kv_config_manager.h"

namespace nssim::core {

// Java: KVConfigManager#putKVConfig.
void KvConfigManager::put_kv_config(const std::string& name_space, const std::string& key,
                                    const std::string& value) {
  config_table_[name_space][key] = value;
}

// Java: KVConfigManager#deleteKVConfig. The namespace stays, even when emptied.
void KvConfigManager::delete_kv_config(const std::string& name_space, const std::string& key) {
  auto table = config_table_.find(name_space);
  if (table != config_table_.end()) table->second.erase(key);
}

std::optional<KvTable> KvConfigManager::get_kv_list_by_namespace(
    const std::string& name_space) const {
  auto table = config_table_.find(name_space);
  if (table == config_table_.end()) return std::nullopt;
  return table->second;
}

std::optional<std::string> KvConfigManager::get_kv_config(const std::string& name_space,
                                                          const std::string& key) const {
  auto table = config_table_.find(name_space);
  if (table == config_table_.end()) return std::nullopt;
  auto value = table->second.find(key);
  if (value == table->second.end()) return std::nullopt;
  return value->second;
}

}  // namespace nssim::core

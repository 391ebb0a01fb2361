// File: NamesrvConfig with upstream's field names and defaults (4.9.8 and 5.3.3), settable by
// name as broker.conf-style properties are. Fields that exist only in 5.x are ignored by 4.9.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nameserver_core/profile.h"

namespace nssim::core {

struct NamesrvConfig {
  // Both versions. Java reads rocketmqHome and user.home from the environment; the core has none,
  // so the paths are spelt with "~" and rocketmqHome is empty. They are only ever echoed back.
  std::string rocketmq_home;
  std::string kv_config_path = "~/namesrv/kvConfig.json";
  std::string config_store_path = "~/namesrv/namesrv.properties";
  std::string product_env_name = "center";
  bool cluster_test = false;
  bool order_message_enable = false;
  std::string config_black_list = "configBlackList;configStorePath;kvConfigPath";

  // 5.x only.
  bool return_order_topic_config_to_broker = true;
  int client_request_thread_pool_nums = 8;
  int default_thread_pool_nums = 16;
  int client_request_thread_pool_queue_capacity = 50000;
  int default_thread_pool_queue_capacity = 10000;
  std::int64_t scan_not_active_broker_interval = 5000;
  int un_register_broker_queue_capacity = 3000;
  bool support_acting_master = false;
  bool enable_all_topic_list = true;
  bool enable_topic_list = true;
  bool notify_min_broker_id_changed = false;
  bool enable_controller_in_namesrv = false;
  bool need_wait_for_service = false;
  int wait_seconds_for_service = 45;
  bool delete_topic_with_broker_registration = false;
};

// How a value text that does not parse is treated.
enum class ConfigParse {
  kStrict,   // an error is returned (command-line --config)
  kLenient,  // Java: MixAll#properties2Object swallows the exception and keeps the old value
};

// Sets the field called `name` (its upstream name) for `profile`. Booleans follow
// Boolean.parseBoolean in lenient mode ("true" in any case is true, anything else false) and must
// be true/false in strict mode. Returns an error text, or nothing on success. Unknown names are an
// error in strict mode and ignored in lenient mode, as properties2Object ignores them.
std::optional<std::string> set_namesrv_config_field(NamesrvConfig& config, Profile profile,
                                                    const std::string& name,
                                                    const std::string& value, ConfigParse mode);

// A setting a NameServer cannot start with, as (upstream name, what it must be), or nothing. Java's
// scheduleAtFixedRate (scanNotActiveBrokerInterval) and LinkedBlockingQueue
// (unRegisterBrokerQueueCapacity) throw IllegalArgumentException at start for these.
std::optional<std::pair<std::string, std::string>> namesrv_startup_error(
    const NamesrvConfig& config);

// Every field of `profile` as (upstream name, value text), sorted by name.
std::vector<std::pair<std::string, std::string>> namesrv_config_properties(
    const NamesrvConfig& config, Profile profile);

}  // namespace nssim::core

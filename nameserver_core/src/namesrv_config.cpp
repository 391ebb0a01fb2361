// File: NamesrvConfig by field name: the table behind --config NAME=VALUE, UPDATE_NAMESRV_CONFIG
// and GET_NAMESRV_CONFIG. Parsing mirrors Java's Integer/Long/Boolean.parseX.
#include "nameserver_core/namesrv_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <type_traits>
#include <variant>

namespace nssim::core {

namespace {

using Member = std::variant<bool NamesrvConfig::*, int NamesrvConfig::*,
                            std::int64_t NamesrvConfig::*, std::string NamesrvConfig::*>;

struct Field {
  const char* name;
  bool v5_only;
  Member member;
};

// Upstream names, sorted; v5_only marks fields that 4.9.8's NamesrvConfig does not have.
const Field kFields[] = {
    {"clientRequestThreadPoolNums", true, &NamesrvConfig::client_request_thread_pool_nums},
    {"clientRequestThreadPoolQueueCapacity", true,
     &NamesrvConfig::client_request_thread_pool_queue_capacity},
    {"clusterTest", false, &NamesrvConfig::cluster_test},
    {"configBlackList", false, &NamesrvConfig::config_black_list},
    {"configStorePath", false, &NamesrvConfig::config_store_path},
    {"defaultThreadPoolNums", true, &NamesrvConfig::default_thread_pool_nums},
    {"defaultThreadPoolQueueCapacity", true, &NamesrvConfig::default_thread_pool_queue_capacity},
    {"deleteTopicWithBrokerRegistration", true,
     &NamesrvConfig::delete_topic_with_broker_registration},
    {"enableAllTopicList", true, &NamesrvConfig::enable_all_topic_list},
    {"enableControllerInNamesrv", true, &NamesrvConfig::enable_controller_in_namesrv},
    {"enableTopicList", true, &NamesrvConfig::enable_topic_list},
    {"kvConfigPath", false, &NamesrvConfig::kv_config_path},
    {"needWaitForService", true, &NamesrvConfig::need_wait_for_service},
    {"notifyMinBrokerIdChanged", true, &NamesrvConfig::notify_min_broker_id_changed},
    {"orderMessageEnable", false, &NamesrvConfig::order_message_enable},
    {"productEnvName", false, &NamesrvConfig::product_env_name},
    {"returnOrderTopicConfigToBroker", true, &NamesrvConfig::return_order_topic_config_to_broker},
    {"rocketmqHome", false, &NamesrvConfig::rocketmq_home},
    {"scanNotActiveBrokerInterval", true, &NamesrvConfig::scan_not_active_broker_interval},
    {"supportActingMaster", true, &NamesrvConfig::support_acting_master},
    {"unRegisterBrokerQueueCapacity", true, &NamesrvConfig::un_register_broker_queue_capacity},
    {"waitSecondsForService", true, &NamesrvConfig::wait_seconds_for_service},
};

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Java: Integer.parseInt / Long.parseLong accept an optional sign and decimal digits only.
template <typename T>
std::optional<T> parse_integer(const std::string& text) {
  const char* begin = text.data();
  const char* end = begin + text.size();
  if (begin != end && *begin == '+') {
    ++begin;
    if (begin != end && *begin == '-') return std::nullopt;  // from_chars would take "+-5"
  }
  T value{};
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr != end || begin == end) return std::nullopt;
  return value;
}

// Java: String#trim drops every leading and trailing character up to and including ' '.
std::string trim(const std::string& text) {
  const auto blank = [](char c) { return static_cast<unsigned char>(c) <= ' '; };
  auto first = std::find_if_not(text.begin(), text.end(), blank);
  auto last = std::find_if_not(text.rbegin(), text.rend(), blank).base();
  return first < last ? std::string(first, last) : std::string();
}

}  // namespace

std::optional<std::string> set_namesrv_config_field(NamesrvConfig& config, Profile profile,
                                                    const std::string& name,
                                                    const std::string& value, ConfigParse mode) {
  const bool strict = mode == ConfigParse::kStrict;
  const Field* field = nullptr;
  for (const auto& candidate : kFields) {
    if (name == candidate.name && (profile == Profile::kV5 || !candidate.v5_only))
      field = &candidate;
  }
  if (field == nullptr) {
    if (!strict) return std::nullopt;
    return "unknown NamesrvConfig field '" + name + "' for profile " + profile_name(profile);
  }

  return std::visit(
      [&](auto member) -> std::optional<std::string> {
        auto& slot = config.*member;
        using T = std::decay_t<decltype(slot)>;
        if constexpr (std::is_same_v<T, bool>) {
          const std::string folded = lower(value);
          if (strict && folded != "true" && folded != "false") {
            return name + ": expected true or false, got '" + value + "'";
          }
          slot = folded == "true";  // Boolean.parseBoolean
        } else if constexpr (std::is_same_v<T, std::string>) {
          // Java: MixAll#properties2Object trims String values in 5.3.3, not in 4.9.8.
          slot = profile == Profile::kV5 ? trim(value) : value;
        } else {
          auto parsed = parse_integer<T>(value);
          if (!parsed) {
            if (!strict) return std::nullopt;  // properties2Object swallows the exception
            return name + ": expected an integer, got '" + value + "'";
          }
          slot = *parsed;
        }
        return std::nullopt;
      },
      field->member);
}

std::vector<std::pair<std::string, std::string>> namesrv_config_properties(
    const NamesrvConfig& config, Profile profile) {
  std::vector<std::pair<std::string, std::string>> properties;
  for (const auto& field : kFields) {
    if (field.v5_only && profile == Profile::kV4_9) continue;
    std::string text = std::visit(
        [&config](auto member) -> std::string {
          const auto& value = config.*member;
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, bool>) {
            return value ? "true" : "false";
          } else if constexpr (std::is_same_v<T, std::string>) {
            return value;
          } else {
            return std::to_string(value);
          }
        },
        field.member);
    properties.emplace_back(field.name, std::move(text));
  }
  return properties;
}

// Java: NamesrvController#initialize schedules the scan, and BatchUnregistrationService creates
// its queue, when the NameServer starts.
std::optional<std::pair<std::string, std::string>> namesrv_startup_error(
    const NamesrvConfig& config) {
  if (config.scan_not_active_broker_interval <= 0) {
    return std::pair<std::string, std::string>{"scanNotActiveBrokerInterval", "must be > 0"};
  }
  if (config.un_register_broker_queue_capacity <= 0) {
    return std::pair<std::string, std::string>{"unRegisterBrokerQueueCapacity", "must be > 0"};
  }
  return std::nullopt;
}

}  // namespace nssim::core

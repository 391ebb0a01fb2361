// File: the upstream-named settings a scenario may change (NameServer, broker, producer and
// consumer), as tables: name, whether only 5.x has it, the field, and the range it must be in
// (Java int fields stay within int's range; intervals and timeouts must be positive, as Java's
// schedulers and timeouts need).
#include "sim/scenario/scenario_config.h"

#include <algorithm>
#include <climits>
#include <set>
#include <variant>

#include "sim/scenario/scenario_faults.h"

namespace nssim::sim::detail {

namespace {

constexpr std::int64_t kJavaIntMax = INT_MAX;
constexpr std::int64_t kMaxRetries = 100;  // simulator limit

template <typename Config>
struct ConfigField {
  const char* name;
  bool v5_only;
  std::variant<bool Config::*, int Config::*, std::int64_t Config::*, std::string Config::*> member;
  IntRange range;  // integers only
  // Why nssim cannot model the setting, for one it parses but no rule reads: only upstream's
  // default is accepted, so that a value meant to change something is refused, not ignored.
  const char* not_modelled = nullptr;
};

const std::vector<ConfigField<BrokerConfig>>& broker_fields() {
  using C = BrokerConfig;
  static const std::vector<ConfigField<C>> fields = {
      {"autoCreateTopicEnable", false, &C::auto_create_topic_enable, {}},
      {"brokerHeartbeatInterval", true, &C::broker_heartbeat_interval,
       IntRange::positive(kJavaIntMax)},
      {"brokerNotActiveTimeoutMillis", true, &C::broker_not_active_timeout_millis,
       IntRange::positive()},
      {"brokerPermission", false, &C::broker_permission, IntRange::at_least(0, 7)},
      {"compatibleWithOldNameSrv", true, &C::compatible_with_old_name_srv, {}},
      {"defaultTopicQueueNums", false, &C::default_topic_queue_nums,
       IntRange::positive(kMaxQueueNums)},
      {"enableSlaveActingMaster", true, &C::enable_slave_acting_master, {}},
      {"forceRegister", false, &C::force_register, {}},
      {"namesrvAddr", false, &C::namesrv_addr, {}},
      {"registerBrokerTimeoutMills", false, &C::register_broker_timeout_mills,
       IntRange::positive(kJavaIntMax)},
      {"registerNameServerPeriod", false, &C::register_name_server_period,
       IntRange::positive(kJavaIntMax)},
  };
  return fields;
}

const std::vector<ConfigField<ProducerConfig>>& producer_fields() {
  using C = ProducerConfig;
  static const std::vector<ConfigField<C>> fields = {
      {"clientCloseSocketIfTimeout", false, &C::client_close_socket_if_timeout, {}},
      {"connectTimeoutMillis", false, &C::connect_timeout_millis, IntRange::positive(kJavaIntMax)},
      {"heartbeatBrokerInterval", false, &C::heartbeat_broker_interval,
       IntRange::positive(kJavaIntMax)},
      {"mqClientApiTimeout", false, &C::mq_client_api_timeout, IntRange::positive(kJavaIntMax)},
      {"namesrvAddr", false, &C::namesrv_addr, {}},
      {"pollNameServerInterval", false, &C::poll_name_server_interval,
       IntRange::positive(kJavaIntMax)},
      {"retryAnotherBrokerWhenNotStoreOK",
       false,
       &C::retry_another_broker_when_not_store_ok,
       {},
       "nssim's brokers answer every send they get with SEND_OK (no flush or slave timeouts), so "
       "the retry it enables never happens"},
      {"retryTimesWhenSendFailed", false, &C::retry_times_when_send_failed,
       IntRange::at_least(0, kMaxRetries)},
      {"sendLatencyFaultEnable", false, &C::send_latency_fault_enable, {}},
      {"sendMsgMaxTimeoutPerRequest", true, &C::send_msg_max_timeout_per_request,
       IntRange::at_least(-1, kJavaIntMax)},
      {"sendMsgTimeout", false, &C::send_msg_timeout, IntRange::positive(kJavaIntMax)},
      {"startDetectorEnable", true, &C::start_detector_enable, {}},
  };
  return fields;
}

// Ranges as DefaultMQPushConsumerImpl#checkConfig holds them (consumeThreadMin/Max [1, 1000],
// pullBatchSize [1, 1024], pullInterval [0, 65535]); the other intervals and timeouts positive.
const std::vector<ConfigField<ConsumerConfig>>& consumer_fields() {
  using C = ConsumerConfig;
  static const std::vector<ConfigField<C>> fields = {
      {"brokerSuspendMaxTimeMillis", false, &C::broker_suspend_max_time_millis,
       IntRange::positive(kJavaIntMax)},
      {"clientCloseSocketIfTimeout", false, &C::client_close_socket_if_timeout, {}},
      {"connectTimeoutMillis", false, &C::connect_timeout_millis, IntRange::positive(kJavaIntMax)},
      {"consumeThreadMax", false, &C::consume_thread_max, IntRange::positive(1000)},
      {"consumeThreadMin", false, &C::consume_thread_min, IntRange::positive(1000)},
      {"heartbeatBrokerInterval", false, &C::heartbeat_broker_interval,
       IntRange::positive(kJavaIntMax)},
      {"mqClientApiTimeout", false, &C::mq_client_api_timeout, IntRange::positive(kJavaIntMax)},
      {"namesrvAddr", false, &C::namesrv_addr, {}},
      {"persistConsumerOffsetInterval", false, &C::persist_consumer_offset_interval,
       IntRange::positive(kJavaIntMax)},
      {"pollNameServerInterval", false, &C::poll_name_server_interval,
       IntRange::positive(kJavaIntMax)},
      {"pullBatchSize", false, &C::pull_batch_size, IntRange::positive(1024)},
      {"pullInterval", false, &C::pull_interval, IntRange::at_least(0, 65535)},
      {"pullTimeDelayMillsWhenException", false, &C::pull_time_delay_mills_when_exception,
       IntRange::positive(kJavaIntMax)},
      {"rocketmq.client.rebalance.minInterval", true, &C::rebalance_min_interval,
       IntRange::positive(kJavaIntMax)},
      {"rocketmq.client.rebalance.waitInterval", false, &C::rebalance_wait_interval,
       IntRange::positive(kJavaIntMax)},
  };
  return fields;
}

template <typename Config>
std::vector<std::string> field_names(const std::vector<ConfigField<Config>>& fields,
                                     core::Profile profile) {
  std::vector<std::string> names;
  for (const auto& field : fields) {
    if (profile == core::Profile::kV5 || !field.v5_only) names.emplace_back(field.name);
  }
  return names;
}

std::string only_in_5x(core::Profile profile) {
  return std::string("only exists in profile 5.x (this scenario runs profile ") +
         core::profile_name(profile) + ")";
}

// A setting nssim parses but does not model keeps upstream's default (`not_modelled` says why).
template <typename Config>
void refuse_unless_default(const Obj& object, const std::string& key,
                           const ConfigField<Config>& field, const Config& config) {
  const Config defaults;
  std::visit(
      [&](auto member) {
        if (config.*member == defaults.*member) return;
        object.fail_at(key, std::string("is not modelled: ") + field.not_modelled +
                                "; only upstream's default is accepted: remove it");
      },
      field.member);
}

template <typename Config>
void read_config(const Obj& owner, core::Profile profile,
                 const std::vector<ConfigField<Config>>& fields, Config& config) {
  if (!owner.has("config")) return;
  const Obj object(owner.file(), owner.at("config"), owner.path("config"));
  const std::vector<std::string> names = field_names(fields, profile);
  for (const auto& item : object.json().items()) {
    const std::string& key = item.key();
    const auto field =
        std::find_if(fields.begin(), fields.end(), [&key](const auto& f) { return key == f.name; });
    if (field == fields.end()) object.fail_at(key, unknown_field_message(key, names));
    if (field->v5_only && profile == core::Profile::kV4_9) object.fail_at(key, only_in_5x(profile));
    std::visit(
        [&](auto member) {
          auto& slot = config.*member;
          using T = std::decay_t<decltype(slot)>;
          if constexpr (std::is_same_v<T, bool>) {
            slot = read_boolean(object.file(), item.value(), object.path(key));
          } else if constexpr (std::is_same_v<T, std::string>) {
            slot = read_string(object.file(), item.value(), object.path(key));
          } else {
            slot = static_cast<T>(
                read_integer(object.file(), item.value(), object.path(key), field->range));
          }
        },
        field->member);
    if (field->not_modelled != nullptr) refuse_unless_default(object, key, *field, config);
  }
}

std::string namesrv_value_text(const Obj& object, const std::string& key, const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return value.get<bool>() ? "true" : "false";
  if (value.is_number_integer()) return value.dump();
  if (value.is_number_float()) {
    const double d = value.get<double>();
    if (d == static_cast<double>(static_cast<std::int64_t>(d)) && d > -9e18 && d < 9e18) {
      return std::to_string(static_cast<std::int64_t>(d));  // 5e3 is 5000
    }
    return value.dump();
  }
  object.fail_at(key, "must be a string, number or boolean, got " + describe(value));
}

std::vector<std::string> namesrv_names(core::Profile profile) {
  std::vector<std::string> names;
  for (auto& [name, value] : core::namesrv_config_properties(core::NamesrvConfig{}, profile)) {
    names.push_back(name);
  }
  return names;
}

}  // namespace

void read_namesrv_config(const Obj& owner, core::Profile profile, core::NamesrvConfig& config) {
  if (!owner.has("config")) return;
  const Obj object(owner.file(), owner.at("config"), owner.path("config"));
  const std::vector<std::string> names = namesrv_names(profile);
  const std::vector<std::string> v5_names = namesrv_names(core::Profile::kV5);
  for (const auto& item : object.json().items()) {
    const std::string& key = item.key();
    if (std::find(names.begin(), names.end(), key) == names.end()) {
      if (std::find(v5_names.begin(), v5_names.end(), key) != v5_names.end()) {
        object.fail_at(key, only_in_5x(profile));
      }
      object.fail_at(key, unknown_field_message(key, names));
    }
    const std::string text = namesrv_value_text(object, key, item.value());
    if (auto error = core::set_namesrv_config_field(config, profile, key, text,
                                                    core::ConfigParse::kStrict)) {
      const std::string prefix = key + ": ";
      object.fail_at(key, error->rfind(prefix, 0) == 0 ? error->substr(prefix.size()) : *error);
    }
  }
  if (const auto error = core::namesrv_startup_error(config)) {
    object.fail_at(error->first, error->second);
  }
}

void read_broker_config(const Obj& owner, core::Profile profile, BrokerConfig& config) {
  read_config(owner, profile, broker_fields(), config);
}

void read_producer_config(const Obj& owner, core::Profile profile, ProducerConfig& config) {
  read_config(owner, profile, producer_fields(), config);
}

void read_consumer_config(const Obj& owner, core::Profile profile, ConsumerConfig& config) {
  read_config(owner, profile, consumer_fields(), config);
}

bool is_client_instance_setting(const std::string& name) {
  static const std::set<std::string> names = {
      "clientCloseSocketIfTimeout", "connectTimeoutMillis", "heartbeatBrokerInterval",
      "mqClientApiTimeout",         "namesrvAddr",          "pollNameServerInterval"};
  return names.count(name) != 0;
}

void copy_client_instance_settings(const ProducerConfig& from, ProducerConfig& to) {
  to.client_close_socket_if_timeout = from.client_close_socket_if_timeout;
  to.connect_timeout_millis = from.connect_timeout_millis;
  to.heartbeat_broker_interval = from.heartbeat_broker_interval;
  to.mq_client_api_timeout = from.mq_client_api_timeout;
  to.namesrv_addr = from.namesrv_addr;
  to.poll_name_server_interval = from.poll_name_server_interval;
}

// Java: MixAll / NettyRemotingClient#updateNameServerAddressList split namesrvAddr on ';'. Each
// entry names a NameServer of the scenario by its address (10.0.0.1:9876) or, as nssim allows,
// by its node name (ns-0).
std::vector<int> resolve_namesrv_addr(const Obj& owner, const std::string& text, int count) {
  std::vector<int> indices;
  if (text.empty()) return indices;
  const std::string path = owner.path("config") + ".namesrvAddr";
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string entry = text.substr(start, end - start);
    int found = -1;
    for (int i = 0; i < count && found < 0; ++i) {
      if (entry == nameserver_address(i) || entry == nameserver_name(i)) found = i;
    }
    if (found < 0) {
      fail(owner.file(), path,
           "no NameServer " + quote(entry) + " (expected addresses like " + nameserver_address(0) +
               " or names like " + nameserver_name(0) + " separated by ';', of the " +
               std::to_string(count) + " NameServers)");
    }
    if (std::find(indices.begin(), indices.end(), found) != indices.end()) {
      fail(owner.file(), path, quote(entry) + " is listed twice");
    }
    indices.push_back(found);
    start = end + 1;
  }
  return indices;
}

}  // namespace nssim::sim::detail

namespace nssim::sim {

std::vector<std::string> broker_config_field_names(core::Profile profile) {
  return detail::field_names(detail::broker_fields(), profile);
}

std::vector<std::string> producer_config_field_names(core::Profile profile) {
  return detail::field_names(detail::producer_fields(), profile);
}

std::vector<std::string> consumer_config_field_names(core::Profile profile) {
  return detail::field_names(detail::consumer_fields(), profile);
}

}  // namespace nssim::sim

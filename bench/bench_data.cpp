// File: builders for the benchmark inputs declared in bench_data.h.
#include "bench_data.h"

#include <cstdio>
#include <ctime>
#include <utility>

namespace nssim::bench {

namespace {

core::TopicConfig default_topic_config(std::string name) {
  core::TopicConfig config;  // upstream defaults
  config.topic_name = std::move(name);
  return config;
}

core::DataVersion data_version_at(std::int64_t timestamp_ms, std::int64_t counter) {
  return core::DataVersion{timestamp_ms, counter, 0};
}

}  // namespace

std::string broker_addr(int index) {
  char text[32];
  std::snprintf(text, sizeof text, "10.0.%d.%d:10911", index / 250, index % 250 + 1);
  return text;
}

std::string ha_server_addr(int index) {
  char text[32];
  std::snprintf(text, sizeof text, "10.0.%d.%d:10912", index / 250, index % 250 + 1);
  return text;
}

std::string broker_name(int index) {
  char text[32];
  std::snprintf(text, sizeof text, "broker-%04d", index);
  return text;
}

std::string topic_name(int index) {
  char text[32];
  std::snprintf(text, sizeof text, "topic-%04d", index);
  return text;
}

core::TopicConfigSerializeWrapper make_user_topics(int first_topic, int topic_count,
                                                   std::int64_t timestamp_ms) {
  core::TopicConfigSerializeWrapper wrapper;
  for (int i = first_topic; i < first_topic + topic_count; ++i) {
    std::string name = topic_name(i);
    wrapper.topic_config_table.emplace(name, default_topic_config(name));
  }
  wrapper.data_version = data_version_at(timestamp_ms, topic_count);
  return wrapper;
}

core::TopicConfigSerializeWrapper make_system_topics(int broker_index, std::int64_t timestamp_ms) {
  core::TopicConfigSerializeWrapper wrapper;
  const std::string names[] = {"SELF_TEST_TOPIC",     "TBW102",
                               "BenchmarkTest",       "OFFSET_MOVED_EVENT",
                               "SCHEDULE_TOPIC_XXXX", "RMQ_SYS_TRANS_HALF_TOPIC",
                               kClusterName,          broker_name(broker_index)};
  for (const auto& name : names) {
    wrapper.topic_config_table.emplace(name, default_topic_config(name));
  }
  wrapper.data_version = data_version_at(timestamp_ms, 8);
  return wrapper;
}

core::RegisterBrokerRequest make_master_request(core::Profile profile, int broker_index,
                                                core::TopicConfigSerializeWrapper wrapper) {
  core::RegisterBrokerRequest request;
  request.cluster_name = kClusterName;
  request.broker_addr = broker_addr(broker_index);
  request.broker_name = broker_name(broker_index);
  request.broker_id = core::kMasterId;
  request.ha_server_addr = ha_server_addr(broker_index);
  if (profile == core::Profile::kV5) request.enable_acting_master = false;
  request.topic_config_wrapper = std::move(wrapper);
  request.filter_server_list = core::FilterServerList{};
  request.channel = core::ConnectionId{static_cast<std::uint64_t>(broker_index) + 1};
  return request;
}

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

const core::NamesrvConfig& default_config() {
  static const core::NamesrvConfig config;
  return config;
}

std::vector<int> scattered_order(int count) {
  constexpr long long kStride = 7919;  // prime; coprime with the powers of ten used here
  std::vector<int> order;
  order.reserve(static_cast<std::size_t>(count));
  for (long long i = 0; i < count; ++i) order.push_back(static_cast<int>(i * kStride % count));
  return order;
}

}  // namespace nssim::bench

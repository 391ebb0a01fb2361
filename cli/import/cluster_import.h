// File: a scenario from what a live cluster's NameServers answered (`nssim import`): the
// NameServers with their settings, the broker groups with their slaves, the topics with their
// queues, and the producers the caller asks for. Pure: the answers come in as JSON and text, so
// the tests need no cluster.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace nssim::cli {

// The answers of one NameServer.
struct NameServerAnswers {
  std::string address;
  // The response header's version: the server's MQVersion.Version ordinal (a server from
  // core::kVersionV5_0_0 on is nssim's 5.x profile, one before it 4.9).
  int version = 0;
  std::map<std::string, std::string> config;  // GET_NAMESRV_CONFIG's properties
};

struct ClusterAnswers {
  std::vector<NameServerAnswers> nameservers;    // in --namesrv order; the first was asked the rest
  nlohmann::json cluster_info;                   // GET_BROKER_CLUSTER_INFO's ClusterInfo
  std::map<std::string, nlohmann::json> routes;  // topic -> GET_ROUTEINFO_BY_TOPIC's route
};

struct ImportOptions {
  std::string name = "imported";
  std::int64_t duration_ms = 600000;
  std::optional<int> producer_count;  // --producers COUNT@RATE
  double producer_rate_per_s = 0;
  std::map<std::string, std::string> broker_config;  // --broker-config FILE's properties
  std::string broker_config_file;
};

// What cannot become a scenario (no broker group, a version nssim has no profile for...).
struct ImportError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Topics a NameServer lists that are RocketMQ's own (TopicValidator#isSystemTopic: TBW102,
// SCHEDULE_TOPIC_XXXX, rmq_sys_*, %RETRY%/%DLQ% groups' topics...), a cluster's or broker's
// name or a cluster's <cluster>_REPLY_TOPIC (each broker registers them): left out unless
// --topics names them.
bool is_system_or_name_topic(const std::string& topic, const nlohmann::json& cluster_info);

// The scenario, in the order its README documents the fields, with a description that says where
// each part came from and what could not be known.
nlohmann::ordered_json import_scenario(const ClusterAnswers& answers, const ImportOptions& options);

}  // namespace nssim::cli

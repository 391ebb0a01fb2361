// File: helpers for the request-processor tests: a request builder with upstream header names, a
// REGISTER_BROKER builder, and a NameServer wrapper that answers with a response or fails.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "nameserver_core/name_server.h"
#include "nameserver_core/remoting.h"

namespace nssim::core::processor_testing {

inline constexpr Profile kBothProfiles[] = {Profile::kV4_9, Profile::kV5};
inline constexpr ConnectionId kChannel{1};
inline constexpr std::int64_t kNow = 1'000'000;

// A typed request, built field by field as upstream tests do with addExtField.
class Request {
 public:
  explicit Request(int code) { request_.code = code; }

  Request& ext(const std::string& name, const std::string& value) {
    request_.ext_fields[name] = value;
    return *this;
  }
  Request& version(int version) {
    request_.version = version;
    return *this;
  }
  Request& body(RequestBody body) {
    request_.body = std::move(body);
    return *this;
  }
  Request& body_crc32(std::uint32_t crc) {
    request_.body_crc32 = crc;
    return *this;
  }
  Request& oneway() {
    request_.oneway = true;
    return *this;
  }
  operator RemotingRequest() const { return request_; }  // NOLINT: a builder converts implicitly

 private:
  RemotingRequest request_;
};

inline TopicConfig topic(const std::string& name, int queues = 8, int perm_bits = 6,
                         int sys_flag = 0) {
  TopicConfig config;
  config.topic_name = name;
  config.read_queue_nums = queues;
  config.write_queue_nums = queues;
  config.perm = perm_bits;
  config.topic_sys_flag = sys_flag;
  return config;
}

// A REGISTER_BROKER request as a broker of `version` sends it: header fields and, for version
// >= V3_0_11, a RegisterBrokerBody with the topics and the given DataVersion.
struct Registration {
  std::string cluster = "cluster";
  std::string name = "broker-a";
  std::string addr = "10.0.0.1:10911";
  std::int64_t id = 0;
  std::vector<TopicConfig> topics = {topic("TopicA"), topic("TopicB")};
  DataVersion data_version{500, 1, 0};
  int version = kVersionV5_3_3;
  std::optional<std::string> enable_acting_master = "false";  // a 5.x broker sends it

  RemotingRequest request() const {
    Request builder(request_code::kRegisterBroker);
    builder.version(version)
        .ext("clusterName", cluster)
        .ext("brokerName", name)
        .ext("brokerAddr", addr)
        .ext("brokerId", std::to_string(id))
        .ext("haServerAddr", addr + "-ha");
    if (enable_acting_master) builder.ext("enableActingMaster", *enable_acting_master);
    TopicConfigSerializeWrapper wrapper;
    for (const auto& config : topics) wrapper.topic_config_table[config.topic_name] = config;
    wrapper.data_version = data_version;
    if (version >= kVersionV3_0_11) {
      builder.body(RegisterBrokerBody{wrapper, FilterServerList{}});
    } else {
      builder.body(wrapper);
    }
    return builder;
  }
};

// One NameServer of `profile`, started at 0.
class Server {
 public:
  explicit Server(Profile profile, NamesrvConfig config = {})
      : ns_(profile, std::move(config), 0) {}

  // The response to `request`, which must get one.
  RemotingResponse call(const RemotingRequest& request, std::int64_t now_ms = kNow,
                        ConnectionId channel = kChannel) {
    auto response = ns_.process(request, channel, now_ms);
    EXPECT_TRUE(response.has_value()) << "request code " << request.code << " got no response";
    return response.value_or(RemotingResponse{-1, "no response", {}, {}});
  }

  // The response to registration.request().
  RemotingResponse register_broker(const Registration& registration, std::int64_t now_ms = kNow,
                                   ConnectionId channel = kChannel) {
    return call(registration.request(), now_ms, channel);
  }

  NameServer& ns() { return ns_; }
  const RouteInfoManager& rim() const { return ns_.route_info_manager(); }

 private:
  NameServer ns_;
};

inline const char* name_of(Profile profile) { return profile_name(profile); }

}  // namespace nssim::core::processor_testing

// File: the "config" objects of a scenario (internal to the loader): NamesrvConfig, BrokerConfig
// and the clients' ClientConfig/DefaultMQProducer/DefaultMQPushConsumer settings, each by upstream
// field name, strict, with the profile deciding which names exist.
#pragma once

#include "nameserver_core/namesrv_config.h"
#include "nameserver_core/profile.h"
#include "sim/scenario/scenario.h"
#include "sim/scenario/scenario_json.h"

namespace nssim::sim::detail {

// Each reads `owner`'s "config" field, if present, over the defaults already in `config`.
void read_namesrv_config(const Obj& owner, core::Profile profile, core::NamesrvConfig& config);
void read_broker_config(const Obj& owner, core::Profile profile, BrokerConfig& config);
void read_producer_config(const Obj& owner, core::Profile profile, ProducerConfig& config);
void read_consumer_config(const Obj& owner, core::Profile profile, ConsumerConfig& config);

// The producer settings that are the client instance's, not one producer's: MQClientInstance
// takes them from the ClientConfig it was created with (the first producer's) and the remoting
// client and scheduler it builds read them; connectTimeoutMillis is a JVM-wide system property.
// A set that runs in another's instance ("instance_of") takes them from that set.
bool is_client_instance_setting(const std::string& name);
void copy_client_instance_settings(const ProducerConfig& from, ProducerConfig& to);

// namesrvAddr ("addr;addr" or "ns-0;ns-1") to NameServer indices in the order written; empty for
// an empty text (every NameServer). Unknown or repeated entries fail at owner's config path.
std::vector<int> resolve_namesrv_addr(const Obj& owner, const std::string& text, int count);

}  // namespace nssim::sim::detail

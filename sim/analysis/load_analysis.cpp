// File: nameserver_load_json and broker_load_json (see load_analysis.h).
#include "sim/analysis/load_analysis.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "nameserver_core/remoting.h"

namespace nssim::sim {

namespace {

using nlohmann::json;

// A mean rounded to 3 decimals, as sweeps write figures (reports' figure_json), so a sweep's
// per-seed figures equal run's result.json.
double rate(std::int64_t count, double seconds) {
  return seconds > 0 ? std::round(static_cast<double>(count) / seconds * 1000.0) / 1000.0 : 0.0;
}

// The run's length in seconds, the divisor of every mean.
double run_seconds(std::int64_t end_ms) { return static_cast<double>(end_ms) / 1000.0; }

// Requests per bucket, summed into `into` (which grows to the longer of the two).
void add_buckets(std::vector<std::int64_t>& into, const std::vector<std::int64_t>& buckets) {
  if (into.size() < buckets.size()) into.resize(buckets.size(), 0);
  for (std::size_t k = 0; k < buckets.size(); ++k) into[k] += buckets[k];
}

// {total, mean_per_s, peak_per_s} of the buckets that start before end_ms.
json load_json(const std::vector<std::int64_t>& buckets, std::int64_t end_ms) {
  std::int64_t total = 0;
  std::int64_t peak = 0;
  for (std::size_t k = 0; k < buckets.size(); ++k) {
    if (static_cast<std::int64_t>(k) * kLoadBucketMs >= end_ms) break;
    total += buckets[k];
    peak = std::max(peak, buckets[k]);
  }
  const double seconds = run_seconds(end_ms);
  return {{"total", total}, {"mean_per_s", rate(total, seconds)}, {"peak_per_s", peak}};
}

std::string code_key(int code) {
  const char* name = core::request_code_name(code);
  return name != nullptr ? name : "code_" + std::to_string(code);
}

json by_code_json(const std::map<int, std::vector<std::int64_t>>& codes, std::int64_t end_ms) {
  json out = json::object();
  for (const auto& [code, buckets] : codes) out[code_key(code)] = load_json(buckets, end_ms);
  return out;
}

struct BrokerLoad {
  std::string node;
  std::int64_t registrations = 0;
  std::int64_t heartbeats = 0;
};

}  // namespace

json nameserver_load_json(const Topology& topology, const NameServerRequests& requests,
                          std::int64_t end_ms) {
  static const std::map<int, std::vector<std::int64_t>> kNone;
  std::vector<std::int64_t> all;
  std::map<int, std::vector<std::int64_t>> all_by_code;
  json per_nameserver = json::object();
  double max_mean = 0;
  std::int64_t max_peak = 0;
  for (const NodeId id : topology.nameservers) {
    const std::string& name = topology.nodes[static_cast<std::size_t>(id)].name;
    const auto found = requests.per_second().find(name);
    const auto& codes = found != requests.per_second().end() ? found->second : kNone;
    std::vector<std::int64_t> served;
    for (const auto& [code, buckets] : codes) {
      add_buckets(served, buckets);
      add_buckets(all_by_code[code], buckets);
    }
    add_buckets(all, served);
    json figures = load_json(served, end_ms);
    max_mean = std::max(max_mean, figures["mean_per_s"].get<double>());
    max_peak = std::max(max_peak, figures["peak_per_s"].get<std::int64_t>());
    figures["by_code"] = by_code_json(codes, end_ms);
    per_nameserver[name] = std::move(figures);
  }
  json out = {{"bucket_ms", kLoadBucketMs}};
  out.update(load_json(all, end_ms));
  out["by_code"] = by_code_json(all_by_code, end_ms);
  out["max_per_nameserver"] = {{"mean_per_s", max_mean}, {"peak_per_s", max_peak}};
  out["per_nameserver"] = std::move(per_nameserver);
  return out;
}

json broker_load_json(const Topology& topology, const NameServerRequests& requests,
                      const SendStats& sends, std::int64_t end_ms) {
  std::map<NodeId, BrokerLoad> brokers;
  for (const NodeId id : topology.brokers) {
    BrokerLoad& load = brokers[id];
    load.node = topology.nodes[static_cast<std::size_t>(id)].name;
    if (const auto sent = requests.by_sender().find(load.node);
        sent != requests.by_sender().end()) {
      const auto registered = sent->second.find(core::request_code::kRegisterBroker);
      if (registered != sent->second.end()) load.registrations = registered->second;
    }
  }
  // Java: ClientManageProcessor#heartBeat, once per HEART_BEAT the broker read (ChannelHeartbeats).
  for (const auto& [client, schedule] : sends.schedules()) {
    for (const auto& [handle, beats] : schedule.channels) {
      brokers[topology.broker_addresses.at(beats.address)].heartbeats += beats.processed;
    }
  }
  const double seconds = run_seconds(end_ms);
  const auto per_s = [seconds](std::int64_t count) { return rate(count, seconds); };
  std::vector<const BrokerLoad*> listed;
  std::int64_t registrations = 0, heartbeats = 0, max_registrations = 0, max_heartbeats = 0;
  for (const auto& [id, load] : brokers) {
    registrations += load.registrations;
    heartbeats += load.heartbeats;
    max_registrations = std::max(max_registrations, load.registrations);
    max_heartbeats = std::max(max_heartbeats, load.heartbeats);
    listed.push_back(&load);
  }
  std::sort(listed.begin(), listed.end(), [](const BrokerLoad* a, const BrokerLoad* b) {
    if (a->heartbeats != b->heartbeats) return a->heartbeats > b->heartbeats;
    return a->node < b->node;
  });
  if (listed.size() > kListedLoadBrokers) listed.resize(kListedLoadBrokers);
  json per_broker = json::array();
  for (const BrokerLoad* load : listed) {
    per_broker.push_back({{"node", load->node},
                          {"registrations", load->registrations},
                          {"registrations_per_s", per_s(load->registrations)},
                          {"heartbeats_processed", load->heartbeats},
                          {"heartbeats_per_s", per_s(load->heartbeats)}});
  }
  return {{"brokers", brokers.size()},
          {"registrations", registrations},
          {"heartbeats_processed", heartbeats},
          {"max_per_broker",
           {{"registrations_per_s", per_s(max_registrations)},
            {"heartbeats_per_s", per_s(max_heartbeats)}}},
          {"per_broker", std::move(per_broker)}};
}

}  // namespace nssim::sim

// File: what the run asked of its servers, as result.json's "nameserver_load" (the requests each
// NameServer served, by request code, per second) and "broker_load" (each broker's registrations
// at the NameServers and the client heartbeats it processed): the price of a setting beside what
// it buys. The figures are defined in reports/README.md "Server load".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>

#include "sim/record/nameserver_requests.h"
#include "sim/record/send_stats.h"
#include "sim/scenario/topology.h"

namespace nssim::sim {

// Requests are counted in 1 s buckets of simulated time, [k s, (k+1) s); a peak is the fullest
// bucket.
inline constexpr std::int64_t kLoadBucketMs = 1000;

// The "nameserver_load" object of every NameServer node of the topology, over the run's buckets
// that start before end_ms.
nlohmann::json nameserver_load_json(const Topology& topology, const NameServerRequests& requests,
                                    std::int64_t end_ms);

// The "broker_load" object: every broker node of the topology, busiest first, at most
// kListedLoadBrokers of them listed.
inline constexpr std::size_t kListedLoadBrokers = 100;
nlohmann::json broker_load_json(const Topology& topology, const NameServerRequests& requests,
                                const SendStats& sends, std::int64_t end_ms);

}  // namespace nssim::sim

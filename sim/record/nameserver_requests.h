// File: the requests each NameServer served over the run, by request code, counted per second of
// simulated time, and per sender for the brokers' requests: the price a setting puts on the
// NameServers (a shorter route poll multiplies GET_ROUTEINFO_BY_TOPIC) and what each broker asks
// of them. The NameServer actors count what they process; the producers' route queries, which
// are evaluated without a message (sim/nameserver/route_history.h), are counted from the route
// updates the producers report (SendStats).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace nssim::sim {

class NameServerRequests {
 public:
  // `nameserver` processed a request of `code` at t_ms (>= 0); `sender` names the node that
  // sent it when the count per sender is kept (brokers), else empty.
  void add(const std::string& nameserver, int code, std::int64_t t_ms,
           const std::string& sender = {});

  // nameserver -> code -> requests processed in second k of the run ([k s, k+1 s)) at index k;
  // the vector ends at the last second with any.
  const std::map<std::string, std::map<int, std::vector<std::int64_t>>>& per_second() const {
    return per_second_;
  }
  // sender -> code -> requests the NameServers processed from it, over the run.
  const std::map<std::string, std::map<int, std::int64_t>>& by_sender() const { return by_sender_; }

 private:
  std::map<std::string, std::map<int, std::vector<std::int64_t>>> per_second_;
  std::map<std::string, std::map<int, std::int64_t>> by_sender_;
};

}  // namespace nssim::sim

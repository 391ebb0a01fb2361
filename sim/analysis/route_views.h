// File: a NameServer's broker table as its route_view events rebuild it. Each route_view lists
// only the groups that changed since the one before (with their ids and addresses now, or null
// for a group gone). The route replay (route_replay.h) walks the events once and keeps one of
// these per NameServer, emptied at each process_start, so the analysis costs what changed, not
// views x brokers (sim/world/nameserver_actor.cpp says why the events hold changes only).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

namespace nssim::sim {

class RouteViewTable {
 public:
  // Called for each broker address whose listing changes: listed now or not.
  using OnAddress = std::function<void(const std::string& addr, bool listed)>;

  // Applies one route_view event's fields.
  void apply(const nlohmann::json& fields, const OnAddress& on_address = {});
  // The process (re)started: it lists nothing until its first registration.
  void clear(const OnAddress& on_address = {});

  bool lists(const std::string& addr) const { return addresses_.count(addr) != 0; }
  bool empty() const { return groups_.empty(); }
  // Equal for two tables exactly when their groups, ids, addresses and topics digest are (up to
  // a 64-bit hash collision): what makes two NameServers agree.
  std::uint64_t fingerprint() const { return groups_hash_ ^ digest_hash_; }

 private:
  void set_group(const std::string& group, const nlohmann::json& ids, const OnAddress& on_address);
  void drop_group(const std::string& group, const OnAddress& on_address);

  std::map<std::string, std::map<std::string, std::string>> groups_;  // group -> id -> address
  std::map<std::string, int> addresses_;  // address -> how many group entries list it
  std::uint64_t groups_hash_ = 0;         // XOR of each group's hash, kept as groups change
  std::uint64_t digest_hash_ = 0;
};

}  // namespace nssim::sim

// File: RouteViewTable (see route_views.h).
#include "sim/analysis/route_views.h"

namespace nssim::sim {

namespace {

// splitmix64's finaliser over FNV-1a: a well-mixed 64-bit hash of a group's whole entry.
std::uint64_t mix(std::uint64_t x) {
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

std::uint64_t group_hash(const std::string& group, const std::map<std::string, std::string>& ids) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  auto add = [&h](const std::string& text) {
    for (unsigned char c : text) h = (h ^ c) * 0x100000001b3ULL;
    h = (h ^ 0xff) * 0x100000001b3ULL;
  };
  add(group);
  for (const auto& [id, addr] : ids) {
    add(id);
    add(addr);
  }
  return mix(h);
}

void notify(const RouteViewTable::OnAddress& on_address, const std::string& addr, bool listed) {
  if (on_address) on_address(addr, listed);
}

}  // namespace

void RouteViewTable::apply(const nlohmann::json& fields, const OnAddress& on_address) {
  for (const auto& [group, ids] : fields["changed"].items()) {
    if (ids.is_null()) {
      drop_group(group, on_address);
    } else {
      set_group(group, ids, on_address);
    }
  }
  digest_hash_ = mix(fields["topics_digest"].get<std::uint64_t>() ^ 0x5bd1e995ULL);
}

void RouteViewTable::clear(const OnAddress& on_address) {
  for (const auto& [addr, count] : addresses_) notify(on_address, addr, false);
  groups_.clear();
  addresses_.clear();
  groups_hash_ = 0;
  digest_hash_ = 0;
}

void RouteViewTable::set_group(const std::string& group, const nlohmann::json& ids,
                               const OnAddress& on_address) {
  std::map<std::string, std::string> entry;
  for (const auto& [id, addr] : ids.items()) entry[id] = addr.get<std::string>();
  // Add the new addresses before dropping the old, so one that stays is never reported gone.
  for (const auto& [id, addr] : entry) {
    if (addresses_[addr]++ == 0) notify(on_address, addr, true);
  }
  drop_group(group, on_address);
  groups_hash_ ^= group_hash(group, entry);
  groups_.emplace(group, std::move(entry));
}

void RouteViewTable::drop_group(const std::string& group, const OnAddress& on_address) {
  const auto found = groups_.find(group);
  if (found == groups_.end()) return;
  for (const auto& [id, addr] : found->second) {
    const auto count = addresses_.find(addr);
    if (--count->second == 0) {
      addresses_.erase(count);
      notify(on_address, addr, false);
    }
  }
  groups_hash_ ^= group_hash(group, found->second);
  groups_.erase(found);
}

}  // namespace nssim::sim

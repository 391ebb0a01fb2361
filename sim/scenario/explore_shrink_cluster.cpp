// File: the shrink passes over the cluster (explore_shrink_passes.h): fewer producer sets,
// producers, sends, broker groups, NameServers and topics, and a shorter run. What a fault names
// is never proposed to go; a candidate the loader refuses anyway (a topic's groups, a producer's
// topics or namesrvAddr naming what went) costs no run.
#include <algorithm>
#include <cctype>
#include <set>

#include "sim/scenario/explore_shrink_passes.h"
#include "sim/scenario/scenario.h"

namespace nssim::sim::shrink {

namespace {

// A name such as "ns-0" (of `prefix` "ns"): the index after "<prefix>-", if the rest is digits.
std::optional<std::int64_t> index_after(const std::string& name, const std::string& prefix) {
  if (name.size() <= prefix.size() + 1 || name.compare(0, prefix.size(), prefix) != 0 ||
      name[prefix.size()] != '-') {
    return std::nullopt;
  }
  const std::string digits = name.substr(prefix.size() + 1);
  if (digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), [](char c) {
        return std::isdigit(static_cast<unsigned char>(c)) != 0;
      })) {
    return std::nullopt;
  }
  return std::stoll(digits);
}

// Every string the faults hold: their targets, partition sides, groups and topics (and kinds,
// which name nothing a cluster has).
std::set<std::string> names_in(const Json& value) {
  std::set<std::string> names;
  if (value.is_string()) names.insert(value.get<std::string>());
  if (value.is_array() || value.is_object()) {
    for (const auto& item : value) names.merge(names_in(item));
  }
  return names;
}

// Whether a fault names `entity` (a group, a producer set, a topic) or one of its nodes
// ("<entity>-<i>").
bool named(const std::set<std::string>& names, const std::string& entity) {
  return std::any_of(names.begin(), names.end(), [&entity](const std::string& name) {
    return name == entity || index_after(name, entity).has_value();
  });
}

// The number at `key` of `document[array][index]` (or of `document[array]` when index is
// npos), `fallback` when absent, shrunk toward `floor`: the floor first, then halved while the
// failure stays. Counts stay whole; a rate that is not whole halves as a number.
bool shrink_number(ShrinkSession& session, const std::string& array, std::size_t index,
                   const char* key, const Json& fallback, std::int64_t floor) {
  const auto slot = [&](Json& document) -> Json& {
    Json& owner = index == std::string::npos ? document[array] : document[array][index];
    return owner[key];
  };
  const auto label =
      array + (index == std::string::npos ? "" : "[" + std::to_string(index) + "]") + "." + key;
  Json document = session.document();
  const Json current = slot(document).is_null() ? Json(fallback) : slot(document);
  if (current.get<double>() <= static_cast<double>(floor)) return false;
  const auto propose = [&](const Json& value, const Json& from) {
    Json candidate = session.document();
    slot(candidate) = value;
    return session.try_candidate(candidate, label + " " + from.dump() + " -> " + value.dump());
  };
  const Json lowest = current.is_number_integer() ? Json(floor) : Json(static_cast<double>(floor));
  if (propose(lowest, current)) return true;
  bool changed = false;
  Json value = current;
  while (!session.budget_spent()) {
    const Json half = value.is_number_integer() ? Json(value.get<std::int64_t>() / 2)
                                                : Json(value.get<double>() / 2);
    if (half.get<double>() <= static_cast<double>(floor) || !propose(half, value)) break;
    value = half;
    changed = true;
  }
  return changed;
}

// Drops entries of `document[array]` that no fault names (`name_of` an entry, or nullopt when
// the entry does not go this way), last first so the indices still to try stay, each with
// `and_then` applied to the candidate (it removes references the loader would refuse; false skips
// the candidate). One entry always stays.
template <typename NameOf, typename AndThen>
bool drop_unnamed(ShrinkSession& session, const std::string& array, const NameOf& name_of,
                  const AndThen& and_then) {
  bool changed = false;
  if (!session.document().contains(array)) return false;
  const std::set<std::string> names = names_in(session.faults());
  for (std::size_t i = session.document()[array].size(); i-- > 0;) {
    if (session.budget_spent() || session.document()[array].size() < 2) break;
    const std::optional<std::string> name = name_of(session.document()[array][i]);
    if (!name || named(names, *name)) continue;
    Json candidate = session.document();
    candidate[array].erase(candidate[array].begin() + static_cast<std::ptrdiff_t>(i));
    if (!and_then(candidate, *name)) continue;
    changed = session.try_candidate(
                  candidate, "drop " + array + "[" + std::to_string(i) + "] (" + *name + ")") ||
              changed;
  }
  return changed;
}

// Broker groups and topics: an entry of one `name` may go; one of the counted form
// (`name_prefix` and `count`) shrinks its count.
template <typename AndThen>
bool reduce_named_entries(ShrinkSession& session, const std::string& array,
                          const AndThen& and_then) {
  if (!session.document().contains(array)) return false;
  bool changed = drop_unnamed(
      session, array,
      [](const Json& entry) -> std::optional<std::string> {
        if (!entry.contains("name")) return std::nullopt;
        return entry["name"].get<std::string>();
      },
      and_then);
  for (std::size_t i = 0; i < session.document()[array].size(); ++i) {
    if (session.document()[array][i].contains("name_prefix")) {
      changed = shrink_number(session, array, i, "count", 1, 1) || changed;
    }
  }
  return changed;
}

// Removes `name` from every `document[array][].key` list; false when one would be left empty.
bool remove_references(Json& document, const char* array, const char* key,
                       const std::string& name) {
  if (!document.contains(array)) return true;
  for (auto& entry : document[array]) {
    if (!entry.contains(key)) continue;
    Json kept = Json::array();
    for (const auto& item : entry[key]) {
      if (item != name) kept.push_back(item);
    }
    if (kept.empty()) return false;
    entry[key] = std::move(kept);
  }
  return true;
}

bool reduce_producers(ShrinkSession& session) {
  if (!session.document().contains("producers")) return false;
  bool changed = drop_unnamed(
      session, "producers",
      [](const Json& entry) -> std::optional<std::string> {
        return entry.value("name_prefix", std::string("producer"));
      },
      [](const Json&, const std::string&) { return true; });
  for (std::size_t i = 0; i < session.document()["producers"].size(); ++i) {
    // A set in another's processes (instance_of) has no count of its own.
    if (!session.document()["producers"][i].contains("instance_of")) {
      changed = shrink_number(session, "producers", i, "count", 1, 1) || changed;
    }
    // rate_per_s's default, one send a second, is the floor: fewer sends show a route no sooner.
    changed = shrink_number(session, "producers", i, "rate_per_s", 1, 1) || changed;
  }
  return changed;
}

// The NameServers a fault names (ns-<i>) stay: the count goes down to one past the highest.
bool reduce_nameservers(ShrinkSession& session) {
  std::int64_t floor = 1;
  for (const auto& name : names_in(session.faults())) {
    if (const auto index = index_after(name, "ns")) floor = std::max(floor, *index + 1);
  }
  // Absent, the count is the loader's default, written out when it shrinks.
  return shrink_number(session, "nameservers", std::string::npos, "count", NameServerSpec{}.count,
                       floor);
}

}  // namespace

bool reduce_cluster(ShrinkSession& session) {
  bool changed = reduce_producers(session);
  changed = reduce_named_entries(session, "broker_groups",
                                 [](Json& candidate, const std::string& group) {
                                   return remove_references(candidate, "topics", "groups", group);
                                 }) ||
            changed;
  changed = reduce_nameservers(session) || changed;
  changed =
      reduce_named_entries(session, "topics",
                           [](Json& candidate, const std::string& topic) {
                             return remove_references(candidate, "producers", "topics", topic);
                           }) ||
      changed;
  return changed;
}

bool shorten_run(ShrinkSession& session, std::int64_t settle_ms) {
  std::int64_t last_heal = 0;
  for (const auto& fault : session.faults()) {
    const std::int64_t at = fault["at_ms"].get<std::int64_t>();
    last_heal = std::max(last_heal, at + fault.value("duration_ms", std::int64_t{0}));
  }
  const auto seconds_up = [](std::int64_t ms) {
    return (ms + kShortestStepMs - 1) / kShortestStepMs * kShortestStepMs;
  };
  std::int64_t fails_at = session.document()["duration_ms"].get<std::int64_t>();
  std::int64_t holds_at = seconds_up(last_heal + settle_ms);
  const auto propose = [&session, &fails_at](std::int64_t duration) {
    Json candidate = session.document();
    candidate["duration_ms"] = duration;
    const std::string change =
        "duration_ms " + std::to_string(fails_at) + " -> " + std::to_string(duration);
    return session.try_candidate(candidate, change);
  };
  if (holds_at >= fails_at) return false;
  if (propose(holds_at)) return true;
  bool changed = false;
  // Bisection between a length that holds and one that fails, to a second.
  while (fails_at - holds_at > kShortestStepMs && !session.budget_spent()) {
    const std::int64_t middle = seconds_up(holds_at + (fails_at - holds_at) / 2);
    if (middle >= fails_at) break;
    if (propose(middle)) {
      fails_at = middle;
      changed = true;
    } else {
      holds_at = middle;
    }
  }
  return changed;
}

}  // namespace nssim::sim::shrink

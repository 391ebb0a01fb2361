// File: RouteHistory (see route_history.h).
#include "sim/nameserver/route_history.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "sim/client/publish_info.h"

namespace nssim::sim {

namespace {

bool same_answer(const std::optional<core::TopicRouteData>& a,
                 const std::optional<core::TopicRouteData>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || !topic_route_data_changed(&*a, *b, core::Profile::kV5);
}

}  // namespace

RouteHistory::RouteHistory(std::vector<std::string> topics) : topics_(std::move(topics)) {
  std::sort(topics_.begin(), topics_.end());
  topics_.erase(std::unique(topics_.begin(), topics_.end()), topics_.end());
  for (std::size_t i = 0; i < topics_.size(); ++i) index_.emplace(topics_[i], i);
}

std::optional<std::size_t> RouteHistory::topic_index(const std::string& topic) const {
  const auto it = index_.find(topic);
  if (it == index_.end()) return std::nullopt;
  return it->second;
}

void RouteHistory::record(NodeId nameserver, std::size_t topic,
                          std::optional<core::TopicRouteData> answer, std::int64_t t_ms) {
  if (topic >= topics_.size()) {
    std::fprintf(stderr, "RouteHistory: topic index %zu out of range\n", topic);
    std::abort();
  }
  auto& per_topic = entries_[nameserver];
  if (per_topic.empty()) per_topic.resize(topics_.size());
  std::vector<Entry>& entries = per_topic[topic];
  if (!entries.empty() && t_ms < entries.back().since_ms) {
    std::fprintf(stderr, "RouteHistory: answers must be recorded in time order\n");
    std::abort();
  }
  if (!entries.empty() && entries.back().since_ms == t_ms) entries.pop_back();
  if (!entries.empty() && same_answer(entries.back().answer, answer)) return;
  entries.push_back(Entry{t_ms, std::move(answer)});
}

const core::TopicRouteData* RouteHistory::answer_at(NodeId nameserver, const std::string& topic,
                                                    std::int64_t t_ms) const {
  const auto index = topic_index(topic);
  const auto per_topic = entries_.find(nameserver);
  if (!index || per_topic == entries_.end()) return nullptr;
  const std::vector<Entry>& entries = per_topic->second[*index];
  const auto after =
      std::upper_bound(entries.begin(), entries.end(), t_ms,
                       [](std::int64_t t, const Entry& e) { return t < e.since_ms; });
  if (after == entries.begin()) return nullptr;
  const Entry& entry = *(after - 1);
  return entry.answer ? &*entry.answer : nullptr;
}

std::size_t RouteHistory::size() const {
  std::size_t n = 0;
  for (const auto& [nameserver, per_topic] : entries_) {
    for (const auto& entries : per_topic) n += entries.size();
  }
  return n;
}

}  // namespace nssim::sim

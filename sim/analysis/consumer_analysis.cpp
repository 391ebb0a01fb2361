// File: consumers_json (see consumer_analysis.h).
#include "sim/analysis/consumer_analysis.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "sim/analysis/distribution.h"

namespace nssim::sim {

namespace {

constexpr std::size_t kLongestStallsShown = 5;

struct Stall {
  std::uint32_t queue = 0;
  std::int64_t from_ms = 0;
  std::int64_t to_ms = 0;
};

std::string queue_name(const ConsumerRecord::GroupQueue& queue) {
  return queue.queue.broker_name + "/" + queue.queue.topic + "/" +
         std::to_string(queue.queue.queue_id);
}

// The stalls of one queue: within the union of [stored + threshold, first delivery) over its
// offsets, the stretches of at least the threshold with no delivery.
void queue_stalls(std::uint32_t queue, const QueueMessages& messages,
                  const std::vector<std::int64_t>& first_delivery,
                  std::vector<std::int64_t> delivery_times, std::int64_t end_ms,
                  std::vector<Stall>& out) {
  std::sort(delivery_times.begin(), delivery_times.end());
  std::vector<std::pair<std::int64_t, std::int64_t>> backlog;
  for (std::int64_t offset = 0; offset < messages.size(); ++offset) {
    const std::int64_t from = messages.stored_ms(offset) + kStallThresholdMs;
    const std::int64_t to = std::min(first_delivery[static_cast<std::size_t>(offset)], end_ms);
    if (from >= to) continue;
    if (!backlog.empty() && from <= backlog.back().second) {
      backlog.back().second = std::max(backlog.back().second, to);
    } else {
      backlog.emplace_back(from, to);
    }
  }
  for (const auto& [from, to] : backlog) {
    std::int64_t quiet_since = from;
    auto next = std::lower_bound(delivery_times.begin(), delivery_times.end(), from);
    for (; next != delivery_times.end() && *next < to; ++next) {
      if (*next - quiet_since >= kStallThresholdMs) out.push_back({queue, quiet_since, *next});
      quiet_since = std::max(quiet_since, *next);
    }
    if (to - quiet_since >= kStallThresholdMs) out.push_back({queue, quiet_since, to});
  }
}

// Time each queue spent with no owner and with two or more, from `from_ms` to `end_ms`.
std::pair<std::vector<std::int64_t>, std::vector<std::int64_t>> ownership_gaps(
    const std::vector<std::uint32_t>& queues, const ConsumerRecord& record, std::int64_t from_ms,
    std::int64_t end_ms) {
  std::map<std::uint32_t, std::vector<std::pair<std::int64_t, int>>> changes;
  for (const auto& o : record.ownerships) {
    changes[o.queue].emplace_back(o.from_ms, +1);
    changes[o.queue].emplace_back(o.to_ms, -1);
  }
  std::vector<std::int64_t> none;
  std::vector<std::int64_t> several;
  for (const std::uint32_t queue : queues) {
    auto& steps = changes[queue];
    std::sort(steps.begin(), steps.end());
    std::int64_t none_ms = 0;
    std::int64_t several_ms = 0;
    int owners = 0;
    std::int64_t since = from_ms;
    auto account = [&](std::int64_t until) {
      const std::int64_t span = std::max<std::int64_t>(0, until - std::max(since, from_ms));
      if (owners == 0) none_ms += span;
      if (owners >= 2) several_ms += span;
    };
    for (const auto& [t, delta] : steps) {
      const std::int64_t at = std::min(t, end_ms);
      account(at);
      since = std::max(since, at);
      owners += delta;
    }
    account(end_ms);
    none.push_back(none_ms);
    several.push_back(several_ms);
  }
  return {none, several};
}

nlohmann::json total_and_max(const std::vector<std::int64_t>& values) {
  std::int64_t total = 0;
  std::int64_t max = 0;
  for (const std::int64_t v : values) {
    total += v;
    max = std::max(max, v);
  }
  return {{"total", total}, {"max_per_queue", max}};
}

nlohmann::json group_json(const std::string& group, const ConsumerRecord& record,
                          const StoredMessages& stored, std::int64_t end_ms) {
  std::vector<std::uint32_t> queues;
  for (std::uint32_t q = 0; q < record.queues.size(); ++q) {
    if (record.queues[q].group == group) queues.push_back(q);
  }
  std::map<std::uint32_t, std::vector<std::int64_t>> first;
  std::map<std::uint32_t, std::vector<std::int64_t>> times;
  std::map<std::uint32_t, std::vector<int>> counts;
  std::int64_t stored_total = 0;
  for (const std::uint32_t q : queues) {
    const auto found = stored.queues().find(record.queues[q].queue);
    const std::int64_t n = found == stored.queues().end() ? 0 : found->second.max_offset_at(end_ms);
    stored_total += n;
    first[q].assign(static_cast<std::size_t>(n), kNever);
    counts[q].assign(static_cast<std::size_t>(n), 0);
  }
  std::vector<std::int64_t> latencies;
  std::int64_t deliveries = 0;
  for (const auto& d : record.deliveries) {
    const auto f = first.find(d.queue);
    if (f == first.end() || d.offset >= static_cast<std::int64_t>(f->second.size())) continue;
    ++deliveries;
    times[d.queue].push_back(d.at_ms);
    int& seen = counts[d.queue][static_cast<std::size_t>(d.offset)];
    if (seen++ == 0) {
      f->second[static_cast<std::size_t>(d.offset)] = d.at_ms;
      latencies.push_back(d.at_ms - d.stored_ms);
    }
  }
  std::int64_t delivered = 0;
  std::int64_t duplicate_offsets = 0;
  for (const auto& [q, per_offset] : counts) {
    for (const int n : per_offset) {
      delivered += n > 0 ? 1 : 0;
      duplicate_offsets += n > 1 ? 1 : 0;
    }
  }
  std::vector<Stall> stalls;
  for (const std::uint32_t q : queues) {
    const auto found = stored.queues().find(record.queues[q].queue);
    if (found == stored.queues().end()) continue;
    queue_stalls(q, found->second, first[q], times[q], end_ms, stalls);
  }
  std::int64_t stall_total = 0;
  for (const Stall& s : stalls) stall_total += s.to_ms - s.from_ms;
  std::stable_sort(stalls.begin(), stalls.end(), [](const Stall& a, const Stall& b) {
    return a.to_ms - a.from_ms > b.to_ms - b.from_ms;
  });
  nlohmann::json longest = nlohmann::json::array();
  for (std::size_t k = 0; k < stalls.size() && k < kLongestStallsShown; ++k) {
    longest.push_back({{"queue", queue_name(record.queues[stalls[k].queue])},
                       {"from_ms", stalls[k].from_ms},
                       {"to_ms", stalls[k].to_ms},
                       {"ms", stalls[k].to_ms - stalls[k].from_ms}});
  }
  std::int64_t owned_from = end_ms;
  std::int64_t members = 0;
  for (std::size_t c = 0; c < record.consumers.size(); ++c) {
    if (record.consumers[c].group == group) ++members;
  }
  for (const auto& o : record.ownerships) {
    if (record.queues[o.queue].group == group) owned_from = std::min(owned_from, o.from_ms);
  }
  const auto [none, several] = ownership_gaps(queues, record, owned_from, end_ms);
  std::map<std::string, std::int64_t> failures;
  for (const auto& f : record.pull_failures) {
    if (record.queues[f.queue].group == group) ++failures[f.cause];
  }
  std::map<std::string, std::int64_t> removals = {
      {"channel_close", 0}, {"expiry_scan", 0}, {"idle_close", 0}};
  std::int64_t notified = 0;
  std::vector<std::int64_t> after_death;
  for (const auto& r : record.removals) {
    const auto& member = record.consumers[r.consumer];
    if (member.group != group) continue;
    ++removals[r.how];
    notified += r.notified ? 1 : 0;
    if (member.ended_ms < end_ms && r.at_ms >= member.ended_ms) {
      after_death.push_back(r.at_ms - member.ended_ms);
    }
  }
  const std::int64_t never = stored_total - delivered;
  return {{"group", group},
          {"incarnations", members},
          {"queues", queues.size()},
          {"stored", stored_total},
          {"delivered", delivered},
          {"never_delivered", never},
          {"deliveries", deliveries},
          {"duplicates", deliveries - delivered},
          {"duplicate_offsets", duplicate_offsets},
          {"stall_ms",
           {{"total", stall_total},
            {"max", stalls.empty() ? 0 : stalls.front().to_ms - stalls.front().from_ms},
            {"count", stalls.size()}}},
          {"longest_stalls", std::move(longest)},
          {"owned_from_ms", owned_from},
          {"no_owner_ms", total_and_max(none)},
          {"two_owners_ms", total_and_max(several)},
          {"latency_ms", distribution_json(std::move(latencies), static_cast<std::size_t>(never))},
          {"pull_failures", failures},
          {"member_removals", removals},
          {"member_removals_notified", notified},
          {"removal_after_death_ms", distribution_json(std::move(after_death), 0)}};
}

}  // namespace

nlohmann::json consumers_json(const Scenario& scenario, const ConsumerRecord& record,
                              const StoredMessages& stored, std::int64_t end_ms) {
  nlohmann::json groups = nlohmann::json::array();
  for (const ConsumerSpec& spec : scenario.consumers) {
    groups.push_back(group_json(spec.group, record, stored, end_ms));
  }
  return {{"groups", std::move(groups)}, {"rebalance_runs", record.rebalance_runs}};
}

}  // namespace nssim::sim

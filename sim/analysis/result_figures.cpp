// File: the catalogue of result.json's figures (see result_figures.h), built from the blocks the
// analysis writes: distributions, send counts, route-health kinds.
#include "sim/analysis/result_figures.h"

#include <algorithm>
#include <string_view>

#include "sim/record/send_record.h"
#include "sim/scenario/scenario_json.h"

namespace nssim::sim {

namespace {

using Patterns = std::vector<std::string>;

// A distribution over producers or NameServers (analysis' distribution_json).
void add_distribution(Patterns& out, const std::string& prefix) {
  for (const char* stat : {"count", "never", "min", "p50", "p99", "max"}) {
    out.push_back(prefix + "." + stat);
  }
}

// failed.<every send cause but ok> and failed.total.
void add_failures(Patterns& out, const std::string& prefix) {
  for (const SendCause cause :
       {SendCause::kConnectTimeout, SendCause::kConnectRefused, SendCause::kRequestTimeout,
        SendCause::kConnectionReset, SendCause::kSendTimeoutBudget, SendCause::kNoRoute,
        SendCause::kBrokerError}) {
    out.push_back(prefix + ".failed." + send_cause_name(cause));
  }
  out.push_back(prefix + ".failed.total");
}

void add_send_counts(Patterns& out, const std::string& prefix, bool with_totals) {
  out.push_back(prefix + ".attempts");
  out.push_back(prefix + ".ok");
  if (with_totals) {
    out.push_back(prefix + ".total");
    out.push_back(prefix + ".retries_succeeded");
    out.push_back(prefix + ".duplicates_stored");
    out.push_back(prefix + ".failed_but_stored");
  }
  add_failures(out, prefix);
}

// stale, lost and missing windows, for the whole run or one outage.
void add_route_health(Patterns& out, const std::string& prefix) {
  for (const char* kind : {"stale", "lost", "missing"}) {
    const std::string at = prefix + "." + kind;
    add_distribution(out, at);
    out.push_back(at + ".total_ms");
    out.push_back(at + ".by_cause.*");
    out.push_back(at + ".end_causes.*");
  }
}

// What the clients' scheduler threads did (client_scheduler_analysis.h).
void add_client_scheduler(Patterns& out, const std::string& prefix) {
  for (const char* count :
       {"clients", "route_polls", "heartbeat_runs", "heartbeat_attempts", "heartbeat_failures"}) {
    out.push_back(prefix + "." + count);
  }
  for (const char* figure :
       {"route_poll_delay_max_ms", "route_poll_delay_p99_ms", "behind_ms", "f_minus_r_ms"}) {
    add_distribution(out, prefix + "." + figure);
  }
  for (const char* figure :
       {"route_polls", "route_poll_delay_max_ms", "route_poll_delay_p99_ms", "behind_ms",
        "heartbeat_runs", "heartbeat_attempts", "heartbeat_failures"}) {
    out.push_back(prefix + ".per_client[]." + figure);
  }
  out.push_back(prefix + ".heartbeats_by_broker[].broker_id");
  add_send_counts(out, prefix + ".heartbeats_by_broker[]", false);
  out.push_back(prefix + ".removals[].removed_at_ms");
  out.push_back(prefix + ".removals[].clients");
  add_distribution(out, prefix + ".removals[].f_minus_r_ms");
}

// What the brokers' client tables went through (broker_clients_analysis.h).
void add_broker_clients(Patterns& out, const std::string& prefix) {
  out.push_back(prefix + ".brokers");
  for (const std::string& at : {prefix, prefix + ".per_broker[]"}) {
    out.push_back(at + ".heartbeats_processed");
    out.push_back(at + ".producer_channels_at_end");
    for (const char* cause : {"scan_expiry", "channel_close", "idle", "restart"}) {
      out.push_back(at + ".removals." + cause);
    }
  }
  add_distribution(out, prefix + ".scan_expiry_delay_ms");
}

// What the consumer groups received (consumer_analysis.h).
void add_consumers(Patterns& out) {
  const std::string at = "consumers.groups[]";
  for (const char* count : {"incarnations",
                            "queues",
                            "stored",
                            "delivered",
                            "never_delivered",
                            "deliveries",
                            "duplicates",
                            "duplicate_offsets",
                            "stall_ms.total",
                            "stall_ms.max",
                            "stall_ms.count",
                            "owned_from_ms",
                            "no_owner_ms.total",
                            "no_owner_ms.max_per_queue",
                            "two_owners_ms.total",
                            "two_owners_ms.max_per_queue",
                            "pull_failures.*",
                            "member_removals.*",
                            "member_removals_notified",
                            "longest_stalls[].from_ms",
                            "longest_stalls[].to_ms",
                            "longest_stalls[].ms"}) {
    out.push_back(at + "." + count);
  }
  add_distribution(out, at + ".latency_ms");
  add_distribution(out, at + ".removal_after_death_ms");
  out.push_back("consumers.rebalance_runs");
}

// What the run asked of its servers (load_analysis.h).
void add_load(Patterns& out) {
  const auto add_rates = [&out](const std::string& at) {
    for (const char* figure : {"total", "mean_per_s", "peak_per_s"})
      out.push_back(at + "." + figure);
  };
  out.push_back("nameserver_load.bucket_ms");
  for (const std::string& at :
       {std::string("nameserver_load"), std::string("nameserver_load.per_nameserver.*")}) {
    add_rates(at);
    add_rates(at + ".by_code.*");
  }
  out.push_back("nameserver_load.max_per_nameserver.mean_per_s");
  out.push_back("nameserver_load.max_per_nameserver.peak_per_s");
  for (const char* figure :
       {"brokers", "registrations", "heartbeats_processed", "max_per_broker.registrations_per_s",
        "max_per_broker.heartbeats_per_s"}) {
    out.push_back(std::string("broker_load.") + figure);
  }
  for (const char* figure :
       {"registrations", "registrations_per_s", "heartbeats_processed", "heartbeats_per_s"}) {
    out.push_back(std::string("broker_load.per_broker[].") + figure);
  }
}

Patterns build_patterns() {
  Patterns out = {"scenario.duration_ms",
                  "scenario.seed",
                  "settings.brokerChannelExpiredTime",
                  "settings.pollNameServerInterval",
                  "settings.registerNameServerPeriod",
                  "settings.scanNotActiveBrokerInterval",
                  "settings.sendMsgTimeout",
                  "settings.serverChannelMaxIdleTimeSeconds",
                  "nodes[].start_ms",
                  "faults[].index",
                  "faults[].at_ms",
                  "faults[].duration_ms",
                  "faults[].latency_ms",
                  "nameserver_disagreement.count",
                  "nameserver_disagreement.total_ms",
                  "nameserver_disagreement.intervals[].start_ms",
                  "nameserver_disagreement.intervals[].end_ms",
                  "nameserver_disagreement.intervals[].duration_ms",
                  "nameserver_restarts[].restart_ms",
                  "nameserver_restarts[].first_registration_ms",
                  "nameserver_restarts[].no_route.failed",
                  "nameserver_restarts[].no_route.after_first_registration_ms",
                  "nameserver_restarts[].no_route.last_end_ms",
                  "route_health.route_windows[].start_ms",
                  "route_health.route_windows[].end_ms",
                  "route_health.missing_windows[].start_ms",
                  "route_health.missing_windows[].end_ms",
                  "timeseries[].t_s",
                  "timeseries[].ok",
                  "timeseries[].ok_by_broker.*",
                  "timeseries[].stale_producers",
                  "timeseries[].lost_producers",
                  "timelines.brokers[].broker_id",
                  "timelines.brokers[].faults[]",
                  "timelines.brokers[].process[].start_ms",
                  "timelines.brokers[].process[].end_ms",
                  "timelines.brokers[].process[].fault",
                  "timelines.brokers[].in_routes[].intervals[].start_ms",
                  "timelines.brokers[].in_routes[].intervals[].end_ms",
                  "timelines.brokers[].in_routes[].missing[].start_ms",
                  "timelines.brokers[].in_routes[].missing[].end_ms",
                  "timelines.nameservers[].process[].start_ms",
                  "timelines.nameservers[].process[].end_ms",
                  "timelines.nameservers[].process[].fault",
                  "timelines.detections[].t_ms",
                  "outages[].fault",
                  "outages[].start_ms",
                  "outages[].end_ms",
                  "outages[].nameservers_missed",
                  "outages[].nameservers[].delay_ms",
                  "outages[].nameservers[].dropped_at_ms",
                  "outages[].nameservers[].unreachable_ms",
                  "outages[].recovery.nameservers[].back_at_ms",
                  "outages[].predicted.nameserver_removal_ms.min_ms",
                  "outages[].predicted.nameserver_removal_ms.max_ms",
                  "outages[].predicted.producer_stale_route_ms.min_ms",
                  "outages[].predicted.producer_stale_route_ms.max_ms",
                  "outages[].predicted.earliest_removal_ms",
                  "outages[].producers.affected",
                  "outages[].producers.never_reasons.*",
                  "outages[].producers.per_producer[].stale_route_ms",
                  "outages[].sends.latency_ms.p50",
                  "outages[].sends.latency_ms.p99",
                  "outages[].sends.latency_ms.max",
                  "admin[].fault",
                  "admin[].at_ms",
                  "admin[].predicted.followed_ms.min_ms",
                  "admin[].predicted.followed_ms.max_ms",
                  "admin[].producers.affected",
                  "admin[].producers.per_producer[].followed_ms"};
  add_failures(out, "timeseries[]");
  add_send_counts(out, "sends", true);
  add_send_counts(out, "sends_by_producer_group[]", true);
  add_send_counts(out, "sends_by_broker[]", false);
  add_send_counts(out, "outages[].sends", true);
  add_distribution(out, "outages[].nameserver_drop_ms");
  add_distribution(out, "outages[].producers.stale_route_ms");
  add_distribution(out, "outages[].recovery.nameserver_ms");
  add_distribution(out, "outages[].recovery.producer_ms");
  add_distribution(out, "admin[].producers.followed_ms");
  add_route_health(out, "route_health");
  add_route_health(out, "outages[].route_health");
  add_client_scheduler(out, "client_scheduler");
  add_broker_clients(out, "broker_clients");
  add_consumers(out);
  add_load(out);
  std::sort(out.begin(), out.end());
  return out;
}

// Splits "a.b[3].c" into "a", "b", "[]", "c" (indices as "[]").
std::vector<std::string> segments_of(std::string_view path) {
  std::vector<std::string> segments;
  std::string key;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const char c = path[i];
    if (c == '.' || c == '[') {
      if (!key.empty()) segments.push_back(key);
      key.clear();
      if (c == '[') {
        while (i < path.size() && path[i] != ']') ++i;
        segments.push_back("[]");
      }
    } else {
      key += c;
    }
  }
  if (!key.empty()) segments.push_back(key);
  return segments;
}

bool matches(const std::vector<std::string>& path, const std::vector<std::string>& pattern) {
  if (path.size() != pattern.size()) return false;
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (pattern[i] == path[i]) continue;
    if (pattern[i] == "*" && path[i] != "[]") continue;
    return false;
  }
  return true;
}

// `pattern` with the indices of `path` in place of its "[]" (in order; [0] where path has fewer).
std::string with_indices_of(const std::string& pattern, std::string_view path) {
  std::vector<std::string_view> indices;
  for (std::size_t open = path.find('['); open != std::string_view::npos;
       open = path.find('[', open + 1)) {
    const std::size_t close = path.find(']', open);
    if (close == std::string_view::npos) break;
    indices.push_back(path.substr(open, close - open + 1));
  }
  std::string out;
  std::size_t used = 0;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern.compare(i, 2, "[]") == 0) {
      out += used < indices.size() ? std::string(indices[used++]) : "[0]";
      ++i;
    } else {
      out += pattern[i];
    }
  }
  return out;
}

// The path with its indices as "[]", for comparing with patterns.
std::string shape_of(std::string_view path) {
  std::string out;
  for (std::size_t i = 0; i < path.size(); ++i) {
    out += path[i];
    if (path[i] == '[') {
      while (i < path.size() && path[i] != ']') ++i;
      out += ']';
    }
  }
  return out;
}

}  // namespace

const std::vector<std::string>& result_figure_patterns() {
  static const Patterns patterns = build_patterns();
  return patterns;
}

const std::vector<std::string>& sweep_only_figure_patterns() {
  static const Patterns patterns = {"outages[].within_predicted.nameserver_removal_ms",
                                    "outages[].within_predicted.producer_stale_route_ms"};
  return patterns;
}

std::optional<std::string> unknown_figure(const std::string& path, bool in_sweep) {
  std::vector<const Patterns*> lists = {&result_figure_patterns()};
  if (in_sweep) lists.push_back(&sweep_only_figure_patterns());
  const auto segments = segments_of(path);
  for (const Patterns* list : lists) {
    for (const auto& pattern : *list) {
      if (matches(segments, segments_of(pattern))) return std::nullopt;
    }
  }
  // Near enough to be the figure meant: a few letters off, as a field's typo (closest_name).
  std::vector<std::string> candidates;
  for (const Patterns* list : lists) {
    for (const auto& pattern : *list) {
      if (pattern.find('*') == std::string::npos) candidates.push_back(pattern);
    }
  }
  if (const auto closest = detail::closest_name(shape_of(path), candidates)) {
    return "unknown figure (did you mean " + with_indices_of(*closest, path) + "?)";
  }
  return std::string("unknown figure (the figures are listed in reports/README.md)");
}

}  // namespace nssim::sim

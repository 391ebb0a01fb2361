// File: one seed's run as a sweep sees it: the figures of its result.json flattened to paths with
// a number or null each, plus figures derived from the run (inside the predicted bounds or not).
// seeds.jsonl holds one such record per line; a sweep's distributions are built from them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace nssim::reports {

// Version of the line layout below; shard files name it so merges refuse another.
inline constexpr const char* kSeedRecordSchema = "nssim.seed/1";

struct SeedRecord {
  std::size_t point = 0;  // index of the grid point
  std::uint64_t seed = 0;
  std::string verdict;  // of the scenario's own expectations: pass, fail, no_expectations
  // Figure path (as in result.json, e.g. "outages[0].producers.stale_route_ms.max") to its
  // value; nullopt where the run has null ("never").
  std::map<std::string, std::optional<double>> figures;
  // What the sweep document says of each outage (index, fault, kind, brokers, start_ms, end_ms,
  // predicted): the same for every seed of a point, kept once per point by the sweep document;
  // not written to seeds.jsonl.
  nlohmann::json outages = nlohmann::json::array();
};

// The record of one run from its report.json (result plus verdict). Figures are the numeric
// leaves under sends, sends_by_broker[b], sends_by_producer_group[g], nameserver_disagreement,
// route_health, outages[i], admin[k], nameserver_load, broker_load, client_scheduler and consumers,
// except per-item lists (per_producer, disagreement intervals, route_windows, missing_windows,
// broker_load's per_broker, and client_scheduler's per_client, heartbeats_by_broker and
// removals, consumers' longest_stalls), counts keyed by what happened (never_reasons, by_cause,
// end_causes), predictions, and the leaves that place the run rather than measure it (fault,
// start_ms, end_ms, at_ms, dropped_at_ms, back_at_ms, owned_from_ms) or say how it was measured
// (bucket_ms). Added per outage with a prediction: within_predicted.nameserver_removal_ms and
// within_predicted.producer_stale_route_ms, 1 when every value lies inside the bounds, else 0.
SeedRecord seed_record_of(const nlohmann::json& report, std::size_t point, std::uint64_t seed);

// One compact JSON line (no newline): {"point", "seed", "verdict", "figures"}; whole numbers
// are written as integers, "never" as null. With `with_outages` the outages ride along too (shard
// files).
std::string seed_record_line(const SeedRecord& record, bool with_outages);

// The inverse of seed_record_line; returns nullopt and sets `error` on a malformed line.
std::optional<SeedRecord> parse_seed_record_line(const std::string& line, std::string& error);

// Whether a figure counts milliseconds, so pages show it in seconds: a leaf whose name ends in
// _ms ("...delay_ms", "route_health.lost.total_ms"), a statistic (min, p50, p90, p99, max, mean)
// of such a distribution ("...stale_route_ms.max"), or one of a route window kind
// ("route_health.lost.max", "outages[0].route_health.missing.p50"), whose windows are durations.
// Counts ("..._ms.count", "route_health.stale.never") and shares ("within_predicted.*") are not.
bool is_time_figure(const std::string& figure);

// The client scheduler's headline figures (reports/README.md "Client scheduler"), as the sweep
// and compare --seeds pages show them beside the route windows; a sweep has them only when its
// runs' clients reported a scheduler.
struct SchedulerHeadline {
  const char* figure;
  const char* caption;  // what one seed contributes
};
inline constexpr SchedulerHeadline kSchedulerHeadlines[] = {
    {"client_scheduler.route_poll_delay_max_ms.max", "latest route poll (start - due)"},
    {"client_scheduler.f_minus_r_ms.max",
     "slowest first route poll after a broker removal (F - R)"},
};

// A number as sweep documents write it: whole values as integers, others rounded to 3 decimals.
nlohmann::json figure_json(double value);

}  // namespace nssim::reports

// File: every figure result.json can hold, so a scenario's expectation that names no figure of
// any run (`sends.failed.totl`) is bad input, refused before the run with "did you mean", rather
// than a failed expectation after it. tests/sim_world/result_figures_test.cpp runs every shipped
// scenario under both profiles and checks that each number of its result.json is listed here.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace nssim::sim {

// The figures as patterns: "[]" stands for any index and "*" for any key of a map keyed by the
// run's own names (broker groups, causes of a route-health window), e.g.
// "outages[].producers.stale_route_ms.p99", "timeseries[].ok_by_broker.*".
const std::vector<std::string>& result_figure_patterns();

// What a sweep adds to each seed's figures (reports/sweep/sweep_figures.cpp): whether an outage
// stayed inside RocketMQ's predicted windows, 1 or 0.
const std::vector<std::string>& sweep_only_figure_patterns();

// nullopt when `path` ("outages[0].sends.failed.total") matches a pattern (a sweep's own too,
// with `in_sweep`); else why not, with the closest figure when one is near: "unknown figure (did
// you mean sends.failed.total?)".
std::optional<std::string> unknown_figure(const std::string& path, bool in_sweep = false);

}  // namespace nssim::sim

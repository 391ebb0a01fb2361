// File: the files a sweep writes (sweep.json and its renderings, seeds.jsonl), so that
// `nssim sweep` on one machine and `nssim sweep merge` of its shards write the same bytes.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "reports/junit_report.h"
#include "reports/report_files.h"
#include "reports/sweep/sweep_figures.h"

namespace nssim::reports {

// sweep.json, seeds.jsonl, sweep.html, sweep.md and junit.xml, in that order.
std::vector<ReportFile> render_sweep_files(const nlohmann::json& sweep,
                                           const std::vector<SeedRecord>& records);
// Their names, known before a sweep runs (the output folder's group).
const std::vector<std::string>& sweep_file_names();

// sweep.md: for a pull request. Per point the sweep expectations, per outage the headline
// distributions beside RocketMQ's predicted windows with the worst seeds' commands, then every
// figure in a folded table.
std::string render_sweep_markdown(const nlohmann::json& sweep);

// One suite named "<scenario> sweep", one case per sweep expectation and point (the point's
// label in brackets when there is a grid); a failure carries the message and the worst seed's
// command. Without expectations, one passing case "sweep".
JunitSuite junit_suite_from_sweep(const nlohmann::json& sweep);

}  // namespace nssim::reports

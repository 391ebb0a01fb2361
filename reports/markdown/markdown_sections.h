// File: the sections report.md is made of, one function per section, each returning its
// Markdown text ending with an empty line (private to the Markdown renderer).
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports::markdown {

// The sends table and the failed-by-cause table, for the whole run or one outage window.
std::string sends_section(const nlohmann::json& sends);

// "### outages[i]: faults[j] ..." with its detection, stale-route, sends and recovery parts;
// `position` is the outage's index in the report's outages[].
std::string outage_section(const nlohmann::json& outage, std::size_t position);

// markdown_route_health.cpp: stale, lost and missing windows as one table (windows, still open,
// min / p50 / p99 / max of the ended ones, total time, causes).
std::string route_health_table(const nlohmann::json& health);
// "## Route health" for the whole run: the table and the first windows of each list; empty when
// the report has no route_health.
std::string route_health_section(const nlohmann::json& health);
// A NameServer entry's outcome in words ("kept: reachable", "**missed**: unreachable for 2.0 s,
// kept"); "" when the entry has none.
std::string outcome_text(const nlohmann::json& entry);

// markdown_scheduler.cpp: "## Client scheduler": the clients with the latest route polls, the
// heartbeats per broker address and F - R per broker removal; empty when the report has no
// client_scheduler (its clients reported no scheduler runs).
std::string client_scheduler_section(const nlohmann::json& scheduler);

// markdown_broker_clients.cpp: "## Broker client tables": per broker its heartbeats, producer
// channels at the end and removals by cause; empty when the report has no broker_clients.
std::string broker_clients_section(const nlohmann::json& brokers);
// The consumers block (reports/README.md "Consumers"); empty without consumers.
std::string consumers_section(const nlohmann::json& consumers);

// markdown_load.cpp: "## Server load": per NameServer and request code the requests served (total,
// mean and peak per second), then per broker its registrations and heartbeats; empty when the
// report has no nameserver_load.
std::string server_load_section(const nlohmann::json& nameservers, const nlohmann::json& brokers);

// "## Admin operations" with one row per admin[] entry; empty when the run had none.
std::string admin_section(const nlohmann::json& admin);

}  // namespace nssim::reports::markdown

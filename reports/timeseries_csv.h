// File: timeseries.csv, the run second by second for spreadsheets and plotting scripts: sends
// that succeeded and failed (by cause), producers holding a stale route, and how many brokers
// each NameServer listed. Pure: the report document in, text out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports {

// Header `t_s,ok,failed_total,failed_<cause>...,stale_producers,routes_<nameserver>...`, then one
// row per timeseries entry. The causes are the keys of the report's sends.failed (without
// "total"), so every run of a build has the same cause columns; the NameServers are those of
// timelines.nameservers, and routes_<ns> counts the broker nodes in that NameServer's routes at
// the start of the second. A missing stale_producers reads 0; without timelines there are no
// routes columns.
std::string render_timeseries_csv(const nlohmann::json& report);

}  // namespace nssim::reports

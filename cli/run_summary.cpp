// File: print_run_summary (reads only result.json fields) and print_written_files (see
// run_summary.h).
#include "run_summary.h"

#include <iomanip>
#include <sstream>
#include <string>

namespace nssim::cli {

namespace {

std::string seconds(const nlohmann::json& ms) {
  if (ms.is_null()) return "never";
  std::ostringstream text;
  text << std::fixed << std::setprecision(1) << ms.get<double>() / 1000.0 << "s";
  return text.str();
}

std::string failures(const nlohmann::json& sends) {
  std::ostringstream text;
  text << sends["failed"]["total"].get<long long>() << "/" << sends["total"].get<long long>();
  std::string sep = " (";
  for (const auto& [cause, count] : sends["failed"].items()) {
    if (cause == "total" || count.get<long long>() == 0) continue;
    text << sep << cause << " " << count.get<long long>();
    sep = ", ";
  }
  if (sep == ", ") text << ")";
  return text.str();
}

}  // namespace

void print_run_summary(std::ostream& out, const nlohmann::json& result) {
  out << "sends: " << failures(result["sends"]) << " failed\n";
  for (std::size_t i = 0; i < result["outages"].size(); ++i) {
    const auto& outage = result["outages"][i];
    out << "outages[" << i << "] (faults[" << outage["fault"].get<int>()
        << "]): " << outage["kind"].get<std::string>() << " of " << outage["brokers"].dump()
        << " at " << seconds(outage["start_ms"]) << "\n";
    for (const auto& ns : outage["nameservers"]) {
      out << "  " << ns["nameserver"].get<std::string>() << " dropped "
          << ns["broker_addr"].get<std::string>() << ": "
          << seconds(ns.value("delay_ms", nlohmann::json()));
      if (ns.contains("path")) out << " by " << ns["path"].get<std::string>();
      out << "\n";
    }
    const auto& stale = outage["producers"]["stale_route_ms"];
    out << "  producers with a stale route: " << outage["producers"]["affected"].get<long long>()
        << ", stale for min " << seconds(stale["min"]) << " / p50 " << seconds(stale["p50"])
        << " / max " << seconds(stale["max"]);
    if (stale["never"].get<long long>() > 0)
      out << ", never dropped by " << stale["never"].get<long long>();
    out << "\n  sends in the outage: " << failures(outage["sends"]) << " failed\n";
  }
  const auto& disagreement = result["nameserver_disagreement"];
  out << "nameservers disagreed " << disagreement["count"].get<long long>() << " times, "
      << seconds(disagreement["total_ms"]) << " in total\n";
}

void print_written_files(std::ostream& out, const std::string& dir, bool trace) {
  if (trace) out << "trace: " << dir << "/trace.jsonl\n";
  out << "result: " << dir << "/result.json\n";
  out << "report: " << dir << "/report.html" << std::endl;
}

}  // namespace nssim::cli

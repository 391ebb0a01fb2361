// File: print_run_summary (reads only result.json fields) and print_written_files (see
// run_summary.h).
#include "cli/run/run_summary.h"

#include <sstream>
#include <string>

#include "reports/duration_text.h"
#include "reports/report_field.h"

namespace nssim::cli {

namespace {

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

// "stale 15 (p50 15.9s, max 29.5s; broker_down 15)": one kind of route window, with how many are
// still open at the end, the ended ones' p50 and max, and the causes; "" when there is none.
std::string route_windows(const char* kind, const nlohmann::json& stats) {
  const long long open = stats.value("never", 0LL);
  const long long total = stats.value("count", 0LL) + open;
  if (total == 0) return "";
  std::ostringstream text;
  text << kind << " " << total << " (";
  std::string sep;
  if (open > 0) {
    text << open << " still open";
    sep = ", ";
  }
  if (stats.value("count", 0LL) > 0) {
    text << sep << "p50 " << reports::duration_text(stats["p50"], "never") << ", max "
         << reports::duration_text(stats["max"], "never");
  }
  sep = "; ";
  const nlohmann::json causes = stats.value("by_cause", nlohmann::json::object());
  for (const auto& [cause, count] : causes.items()) {
    text << sep << cause << " " << count.get<long long>();
    sep = ", ";
  }
  text << ")";
  return text.str();
}

// One line over the kinds that have windows; nothing when none has.
void print_route_health(std::ostream& out, const nlohmann::json& health) {
  std::string line;
  for (const char* kind : {"stale", "lost", "missing"}) {
    const std::string part = route_windows(kind, health.value(kind, nlohmann::json::object()));
    if (!part.empty()) line += (line.empty() ? "" : ", ") + part;
  }
  if (!line.empty()) out << "route health: " << line << "\n";
}

// A NameServer that kept the broker is judged by its outcome (reports/README.md): keeping a
// broker it could reach, or one back within RocketMQ's detection window, is right.
void print_nameserver_outcome(std::ostream& out, const nlohmann::json& ns) {
  const std::string name = ns["nameserver"].get<std::string>();
  const std::string addr = ns["broker_addr"].get<std::string>();
  const std::string outcome = ns.value("outcome", "");
  if (!ns["dropped_at_ms"].is_null()) {
    out << "  " << name << " dropped " << addr << ": "
        << reports::duration_text(ns["delay_ms"], "never");
    if (ns.contains("path")) out << " by " << ns["path"].get<std::string>();
  } else if (outcome == "kept_reachable") {
    out << "  " << name << " kept " << addr << ": reachable from it throughout";
  } else if (outcome == "nameserver_down") {
    out << "  " << name << " kept " << addr << ": the NameServer itself was down for part of it";
  } else if (outcome == "kept_within_rules") {
    out << "  " << name << " kept " << addr << ": unreachable for "
        << reports::duration_text(ns["unreachable_ms"], "never")
        << ", too short for RocketMQ's rules to drop it";
  } else {
    out << "  " << name << " kept " << addr << ": MISSED, unreachable for "
        << reports::duration_text(ns.value("unreachable_ms", nlohmann::json()), "never")
        << ", longer than the rules allow";
  }
  out << "\n";
}

// The producers' stale route: how long they held it (route health's windows, however they
// ended), then when they dropped the broker, and "never dropped" said as such with the reasons,
// never as a stale time of "never" (reports/README.md, the terminal summary).
void print_producers(std::ostream& out, const nlohmann::json& outage) {
  using reports::field;
  const auto& producers = field(outage, "producers");
  const auto& dropped = field(producers, "stale_route_ms");
  const auto& held = field(field(outage, "route_health"), "stale");
  const auto number = [](const nlohmann::json& value) {
    return value.is_number() ? value.get<long long>() : 0LL;
  };
  out << "  producers with a stale route: " << number(field(producers, "affected"));
  if (number(field(held, "count")) > 0) {
    out << ", stale for p50 " << reports::duration_text(field(held, "p50"), "n/a") << " / max "
        << reports::duration_text(field(held, "max"), "n/a");
  }
  if (number(field(held, "never")) > 0) {
    out << ", " << number(field(held, "never")) << " stale to the end of the run";
  }
  if (number(field(dropped, "count")) > 0) {
    out << "; dropped the broker after min " << reports::duration_text(field(dropped, "min"), "n/a")
        << " / p50 " << reports::duration_text(field(dropped, "p50"), "n/a") << " / max "
        << reports::duration_text(field(dropped, "max"), "n/a");
  }
  if (number(field(dropped, "never")) > 0) {
    out << "; never dropped by " << number(field(dropped, "never"));
    const auto& reasons = field(producers, "never_reasons");
    std::string sep = " (";
    if (reasons.is_object()) {
      for (const auto& [reason, count] : reasons.items()) {
        out << sep << reason << " " << number(count);
        sep = ", ";
      }
    }
    if (sep == ", ") out << ")";
  }
}

// One line per consumer group (reports/README.md "Consumers").
void print_consumers(std::ostream& out, const nlohmann::json& consumers) {
  using reports::field;
  const auto number = [](const nlohmann::json& value) {
    return value.is_number() ? value.get<long long>() : 0LL;
  };
  for (const auto& group : field(consumers, "groups")) {
    const auto& stall = field(group, "stall_ms");
    const auto& latency = field(group, "latency_ms");
    out << "consumers " << reports::field_string(group, "group") << ": "
        << number(field(group, "delivered")) << "/" << number(field(group, "stored"))
        << " delivered, " << number(field(group, "duplicates")) << " duplicates, "
        << number(field(stall, "count")) << " stalls (longest "
        << reports::duration_text(field(stall, "max"), "none") << "), latency p99 "
        << reports::duration_text(field(latency, "p99"), "n/a") << "\n";
  }
}

}  // namespace

void print_run_summary(std::ostream& out, const nlohmann::json& result) {
  out << "sends: " << failures(result["sends"]) << " failed\n";
  for (std::size_t i = 0; i < result["outages"].size(); ++i) {
    const auto& outage = result["outages"][i];
    out << "outages[" << i << "] (faults[" << outage["fault"].get<int>()
        << "]): " << outage["kind"].get<std::string>() << " of " << outage["brokers"].dump()
        << " at " << reports::duration_text(outage["start_ms"], "never") << "\n";
    for (const auto& ns : outage["nameservers"]) print_nameserver_outcome(out, ns);
    print_producers(out, outage);
    out << "\n  sends in the outage: " << failures(outage["sends"]) << " failed\n";
  }
  if (result.contains("route_health")) print_route_health(out, result["route_health"]);
  if (result.contains("consumers")) print_consumers(out, result["consumers"]);
  const auto& disagreement = result["nameserver_disagreement"];
  out << "nameservers disagreed " << disagreement["count"].get<long long>() << " times, "
      << reports::duration_text(disagreement["total_ms"], "never") << " in total\n";
}

void print_written_files(std::ostream& out, const std::string& dir, bool trace) {
  if (trace) out << "trace: " << dir << "/trace.jsonl\n";
  out << "result: " << dir << "/result.json\n";
  out << "report: " << dir << "/report.html" << std::endl;
}

}  // namespace nssim::cli

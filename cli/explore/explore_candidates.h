// File: one candidate of `nssim explore`, a scenario file with a drawn (or shrunk) fault
// schedule: loaded, simulated, analysed and judged in a forked child exactly as `nssim run` does
// (analyze_run, judge_run), then judged against every property; the answer is one JSON line.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace nssim::cli {

// How near one property came to its bound in a run: of its lines with a measured value, the one
// with the least margin (|measured - bound| / max(|bound|, 1), negative when the line failed).
struct Nearness {
  std::string line;
  double measured = 0;
  double bound = 0;
  double margin = 0;
};

// What one candidate broke: property names in judging order, and per broken property the
// expectation lines (as a scenario's "expect" writes them) that failed; what the run reached
// (coverage: removal_paths, send_failures and route_health_causes, each {name: count}, only
// non-zero counts) and per property its nearness to its bound.
struct CandidateVerdict {
  std::vector<std::string> broken;
  std::map<std::string, std::vector<std::string>> failed_lines;
  std::map<std::string, std::map<std::string, std::uint64_t>> coverage;
  std::map<std::string, Nearness> nearest;
  bool breaks(const std::string& property) const;
};

// The coverage groups, in explore.json's order.
const std::vector<std::string>& coverage_groups();

// The answer line's JSON, as judge_candidate writes it and shard files carry it.
nlohmann::json candidate_verdict_json(const CandidateVerdict& verdict);

// The property name of the scenario's own expectation `index`: "expect_<index>".
std::string expectation_property(std::size_t index);

// Every property a candidate of the scenario is judged on: its expectations', then the built-in.
std::vector<std::string> property_names(std::size_t expectations);

// In the child: loads `document` (labelled `file` in messages), runs and judges it; the answer
// line for parse_candidate_verdict.
std::string judge_candidate(const nlohmann::ordered_json& document, const std::string& file);

// nullopt (with `problem` set) when `line` is not one judge_candidate wrote: every field is checked
// (shard files bring these answers from other machines).
std::optional<CandidateVerdict> parse_candidate_verdict(const std::string& line,
                                                        std::string& problem);

// Whether the loader takes `document` (a shrink candidate may overlap two faults on one node).
bool loads(const nlohmann::ordered_json& document, const std::string& file);

}  // namespace nssim::cli

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

// What one candidate broke: property names in judging order, and per broken property the
// expectation lines (as a scenario's "expect" writes them) that failed.
struct CandidateVerdict {
  std::vector<std::string> broken;
  std::map<std::string, std::vector<std::string>> failed_lines;
  bool breaks(const std::string& property) const;
};

// The property name of the scenario's own expectation `index`: "expect_<index>".
std::string expectation_property(std::size_t index);

// Every property a candidate of the scenario is judged on: its expectations', then the built-in.
std::vector<std::string> property_names(std::size_t expectations);

// In the child: loads `document` (labelled `file` in messages), runs and judges it; the answer
// line for parse_candidate_verdict.
std::string judge_candidate(const nlohmann::ordered_json& document, const std::string& file);

// nullopt (with `problem` set) when `line` is not one judge_candidate wrote.
std::optional<CandidateVerdict> parse_candidate_verdict(const std::string& line,
                                                        std::string& problem);

// Whether the loader takes `document` (a shrink candidate may overlap two faults on one node).
bool loads(const nlohmann::ordered_json& document, const std::string& file);

}  // namespace nssim::cli

// File: junit.xml, the report's expectations as JUnit test cases so CI systems (GitLab, Jenkins,
// GitHub test reporters) show each expectation as a test. Kept general: `nssim check` collects
// one suite per scenario, including failing suites for scenarios that did not run.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace nssim::reports {

struct JunitCase {
  std::string name;
  bool passed = false;
  std::string message;  // one line, the failure's message attribute
  std::string detail;   // the failure's body; may span lines or be empty
  // What was measured against what, on which seed and profile, and the command that repeats it,
  // passed or not: as <properties> (Jenkins, pytest-style readers) and as <system-out> (GitLab's
  // and GitHub's test reporters show it), so a green run shows its values too.
  std::vector<std::pair<std::string, std::string>> properties;
};

struct JunitSuite {
  std::string name;  // also the classname of its cases
  std::vector<JunitCase> cases;
};

// One case per expectation, named by its source text, in the suite named after the scenario,
// with the figure, measured value, bound, seed, profile and repeat command as its properties; a
// report without expectations gives one passing case "run" with the seed, profile and command.
JunitSuite junit_suite_from_report(const nlohmann::json& report);

// `<testsuites tests= failures=>` with one `<testsuite>` per suite, in order. Carries no
// timestamps, durations or host names, so the same suites give the same bytes.
std::string render_junit(const std::vector<JunitSuite>& suites);

}  // namespace nssim::reports

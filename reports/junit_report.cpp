// File: junit_suite_from_report and render_junit (see junit_report.h).
#include "reports/junit_report.h"

#include <cstddef>

#include "reports/report_field.h"

namespace nssim::reports {

namespace {

// XML 1.0 cannot carry most control characters even as references, so they become '?'. Inside
// attributes line breaks and tabs are references, or attribute normalisation would fold them.
std::string xml_escape(const std::string& text, bool attribute) {
  std::string escaped;
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&apos;";
        break;
      case '\n':
        escaped += attribute ? "&#10;" : "\n";
        break;
      case '\r':
        escaped += attribute ? "&#13;" : "\r";
        break;
      case '\t':
        escaped += attribute ? "&#9;" : "\t";
        break;
      default:
        escaped += byte < 0x20 || byte == 0x7f ? '?' : c;
    }
  }
  return escaped;
}

// "<= predicted.x (155000)", or "== 0" when the value is the number itself.
std::string expected_text(const nlohmann::json& expectation) {
  const std::string value = plain_text(field(expectation, "value"));
  const std::string expected = plain_text(field(expectation, "expected"));
  std::string text = plain_text(field(expectation, "op")) + " " + value;
  return value == expected ? text : text + " (" + expected + ")";
}

// The command that repeats the run, every override included; older reports without one get the
// file, profile and seed.
std::string repeat_command(const nlohmann::json& scenario) {
  if (field(scenario, "command").is_string()) return field(scenario, "command").get<std::string>();
  return "nssim run " + plain_text(field(scenario, "file")) + " --profile " +
         plain_text(field(scenario, "profile")) + " --seed " + plain_text(field(scenario, "seed"));
}

// What a CI reader needs to see why an expectation failed and how to repeat the run.
std::string failure_detail(const nlohmann::json& expectation, const nlohmann::json& scenario) {
  return plain_text(field(expectation, "message")) +
         "\nfigure: " + plain_text(field(expectation, "figure")) +
         "\nmeasured: " + plain_text(field(expectation, "measured")) +
         "\nexpected: " + expected_text(expectation) + "\nrepeat: " + repeat_command(scenario);
}

// The run's own properties: what repeats it.
std::vector<std::pair<std::string, std::string>> run_properties(const nlohmann::json& scenario) {
  return {{"seed", plain_text(field(scenario, "seed"))},
          {"profile", plain_text(field(scenario, "profile"))},
          {"command", repeat_command(scenario)}};
}

std::vector<std::pair<std::string, std::string>> expectation_properties(
    const nlohmann::json& expectation, const nlohmann::json& scenario) {
  std::vector<std::pair<std::string, std::string>> properties{
      {"figure", plain_text(field(expectation, "figure"))},
      {"measured", plain_text(field(expectation, "measured"))},
      {"expected", expected_text(expectation)}};
  for (auto& property : run_properties(scenario)) properties.push_back(std::move(property));
  return properties;
}

std::size_t failures(const JunitSuite& suite) {
  std::size_t count = 0;
  for (const auto& c : suite.cases) count += c.passed ? 0 : 1;
  return count;
}

void render_case(std::string& xml, const JunitCase& c, const std::string& classname) {
  xml += "    <testcase name=\"" + xml_escape(c.name, true) + "\" classname=\"" +
         xml_escape(classname, true) + "\"";
  if (c.passed && c.properties.empty()) {
    xml += "/>\n";
    return;
  }
  xml += ">\n";
  std::string out;
  if (!c.properties.empty()) {
    xml += "      <properties>\n";
    for (const auto& [name, value] : c.properties) {
      xml += "        <property name=\"" + xml_escape(name, true) + "\" value=\"" +
             xml_escape(value, true) + "\"/>\n";
      out += name + ": " + value + "\n";
    }
    xml += "      </properties>\n";
  }
  if (!c.passed) {
    xml += "      <failure message=\"" + xml_escape(c.message, true) + "\"";
    xml += c.detail.empty() ? "/>\n" : ">" + xml_escape(c.detail, false) + "</failure>\n";
  }
  if (!out.empty()) xml += "      <system-out>" + xml_escape(out, false) + "</system-out>\n";
  xml += "    </testcase>\n";
}

}  // namespace

JunitSuite junit_suite_from_report(const nlohmann::json& report) {
  const auto& scenario = field(report, "scenario");
  JunitSuite suite{plain_text(field(scenario, "name")), {}};
  for (const auto& expectation : field(report, "expectations")) {
    const bool passed = field(expectation, "passed") == true;
    suite.cases.push_back({plain_text(field(expectation, "source")), passed,
                           plain_text(field(expectation, "message")),
                           passed ? "" : failure_detail(expectation, scenario),
                           expectation_properties(expectation, scenario)});
  }
  if (suite.cases.empty()) suite.cases.push_back({"run", true, "", "", run_properties(scenario)});
  return suite;
}

std::string render_junit(const std::vector<JunitSuite>& suites) {
  std::size_t tests = 0;
  std::size_t failed = 0;
  for (const auto& suite : suites) {
    tests += suite.cases.size();
    failed += failures(suite);
  }
  std::string xml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"nssim\" tests=\"" +
      std::to_string(tests) + "\" failures=\"" + std::to_string(failed) + "\">\n";
  for (const auto& suite : suites) {
    xml += "  <testsuite name=\"" + xml_escape(suite.name, true) + "\" tests=\"" +
           std::to_string(suite.cases.size()) + "\" failures=\"" + std::to_string(failures(suite)) +
           "\">\n";
    for (const auto& c : suite.cases) render_case(xml, c, suite.name);
    xml += "  </testsuite>\n";
  }
  return xml + "</testsuites>\n";
}

}  // namespace nssim::reports

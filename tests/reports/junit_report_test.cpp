// junit.xml: one case per expectation, failures with their detail, escaping, and suites that
// `nssim check` builds by hand for scenarios that did not run.
#include "reports/junit_report.h"

#include <gtest/gtest.h>

#include "report_fixtures.h"

namespace nssim::reports {
namespace {

using nlohmann::json;

TEST(JunitReport, FixtureRendersAsTheReviewedGoldenFile) {
  const auto suite = junit_suite_from_report(testing::fixture_json("two_faults.report.json"));
  EXPECT_EQ(render_junit({suite}), testing::fixture_text("two_faults.junit.xml"));
}

TEST(JunitReport, OneCasePerExpectationNamedByItsSource) {
  const auto suite = junit_suite_from_report(json::parse(R"({"scenario": {"name": "s"},
    "expectations": [{"source": "a < 1", "passed": true, "message": "held"},
                     {"source": "b > 2", "passed": false, "message": "moved"}]})"));
  EXPECT_EQ(suite.name, "s");
  ASSERT_EQ(suite.cases.size(), 2U);
  EXPECT_EQ(suite.cases[0].name, "a < 1");
  EXPECT_TRUE(suite.cases[0].passed);
  EXPECT_EQ(suite.cases[1].name, "b > 2");
  EXPECT_FALSE(suite.cases[1].passed);
  EXPECT_EQ(suite.cases[1].message, "moved");
  EXPECT_TRUE(suite.cases[1].detail.starts_with("moved\nfigure: "));
}

TEST(JunitReport, AFailureRepeatsTheRunWithEveryOverride) {
  const auto suite = junit_suite_from_report(json::parse(R"({"scenario": {"name": "s",
    "file": "s.json", "seed": 3, "profile": "5.x",
    "command": "nssim run s.json --profile 5.x --set 'faults[0].kind=poweroff' --seed 3"},
    "expectations": [{"source": "b > 2", "passed": false, "message": "moved"}]})"));
  ASSERT_EQ(suite.cases.size(), 1U);
  EXPECT_TRUE(suite.cases[0].detail.ends_with(
      "\nrepeat: nssim run s.json --profile 5.x --set 'faults[0].kind=poweroff' --seed 3"))
      << suite.cases[0].detail;
}

// A CI reader sees what a green run measured: the value, the bound, the seed, the profile and the
// command, so two passing runs on different seeds give different files.
TEST(JunitReport, APassingCaseCarriesWhatItMeasuredOnWhichSeed) {
  const auto report = [](int seed, int measured) {
    json doc = json::parse(R"({"scenario": {"name": "s", "file": "s.json", "profile": "5.x"},
      "expectations": [{"source": "sends.failed.total <= 5", "passed": true, "message": "held",
                        "figure": "sends.failed.total", "op": "<=", "value": "5",
                        "expected": 5}]})");
    doc["scenario"]["seed"] = seed;
    doc["expectations"][0]["measured"] = measured;
    return render_junit({junit_suite_from_report(doc)});
  };
  const std::string one = report(1, 2);
  EXPECT_NE(one.find("<property name=\"measured\" value=\"2\"/>"), std::string::npos) << one;
  EXPECT_NE(one.find("<property name=\"expected\" value=\"&lt;= 5\"/>"), std::string::npos);
  EXPECT_NE(one.find("<property name=\"seed\" value=\"1\"/>"), std::string::npos);
  EXPECT_NE(one.find("<property name=\"profile\" value=\"5.x\"/>"), std::string::npos);
  EXPECT_NE(one.find("<system-out>figure: sends.failed.total\nmeasured: 2\n"), std::string::npos);
  EXPECT_NE(one, report(2, 2));
  EXPECT_EQ(one.find("<failure"), std::string::npos);
}

TEST(JunitReport, ReportWithoutExpectationsIsOnePassingRun) {
  const auto suite = junit_suite_from_report(json::parse(R"({"scenario": {"name": "calm"},
    "expectations": []})"));
  ASSERT_EQ(suite.cases.size(), 1U);
  EXPECT_EQ(suite.cases[0].name, "run");
  EXPECT_TRUE(suite.cases[0].passed);
}

TEST(JunitReport, SuitesAreCountedAndFailuresCarryTheirDetail) {
  const std::vector<JunitSuite> suites = {
      {"ok_one", {{"run", true, "", "", {}}}},
      {"broken", {{"run", false, "scenarios/broken.json: duration_ms: must be > 0", "", {}}}},
      {"moved", {{"x", false, "off by 3", "line one\nline two", {}}}}};
  EXPECT_EQ(render_junit(suites),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"nssim\" tests=\"3\" failures=\"2\">\n"
            "  <testsuite name=\"ok_one\" tests=\"1\" failures=\"0\">\n"
            "    <testcase name=\"run\" classname=\"ok_one\"/>\n"
            "  </testsuite>\n"
            "  <testsuite name=\"broken\" tests=\"1\" failures=\"1\">\n"
            "    <testcase name=\"run\" classname=\"broken\">\n"
            "      <failure message=\"scenarios/broken.json: duration_ms: must be &gt; 0\"/>\n"
            "    </testcase>\n"
            "  </testsuite>\n"
            "  <testsuite name=\"moved\" tests=\"1\" failures=\"1\">\n"
            "    <testcase name=\"x\" classname=\"moved\">\n"
            "      <failure message=\"off by 3\">line one\nline two</failure>\n"
            "    </testcase>\n"
            "  </testsuite>\n"
            "</testsuites>\n");
}

TEST(JunitReport, MarkupAndControlCharactersAreEscaped) {
  const auto xml = render_junit({{"s", {{"a<b & \"c\" 'd'", false, "x\ny", "<&>\x01", {}}}}});
  EXPECT_NE(xml.find("name=\"a&lt;b &amp; &quot;c&quot; &apos;d&apos;\""), std::string::npos);
  EXPECT_NE(xml.find("message=\"x&#10;y\""), std::string::npos);
  EXPECT_NE(xml.find(">&lt;&amp;&gt;?</failure>"), std::string::npos);
}

TEST(JunitReport, NoSuitesStillMakeAValidDocument) {
  EXPECT_EQ(render_junit({}),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<testsuites name=\"nssim\" tests=\"0\" failures=\"0\">\n</testsuites>\n");
}

}  // namespace
}  // namespace nssim::reports

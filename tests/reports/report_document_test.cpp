// The report document: result fields carried over, expectations recorded beside their verdicts,
// the overall verdict, and the report files rendered from it.
#include "reports/report_document.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "reports/report_files.h"

namespace nssim::reports {
namespace {

const nlohmann::json kResult = nlohmann::json::parse(R"({
  "schema": "nssim.result/1",
  "scenario": {"name": "tiny", "profile": "5.x", "seed": 7, "duration_ms": 3000},
  "sends": {"total": 3, "ok": 3, "failed": {"total": 0}}
})");

const ExpectationInput kInput{"sends.failed.total", "<=", "0", "sends.failed.total <= 0"};

ExpectationVerdict verdict(bool passed, std::optional<double> measured) {
  return {kInput.source, passed, measured, 0.0, "one line"};
}

TEST(ReportDocument, CarriesEveryResultFieldAndNamesBothSchemas) {
  const auto report = build_report(kResult, {}, {});
  EXPECT_EQ(report["schema"], "nssim.report/1");
  EXPECT_EQ(report["result_schema"], "nssim.result/1");
  EXPECT_EQ(report["scenario"], kResult["scenario"]);
  EXPECT_EQ(report["sends"], kResult["sends"]);
}

TEST(ReportDocument, WithoutExpectationsTheVerdictSaysSo) {
  const auto report = build_report(kResult, {}, {});
  EXPECT_EQ(report["expectations"], nlohmann::json::array());
  EXPECT_EQ(report["verdict"], "no_expectations");
}

TEST(ReportDocument, EachExpectationKeepsItsInputAndVerdict) {
  const auto report = build_report(kResult, {kInput}, {verdict(true, 0.0)});
  const auto expected = nlohmann::json::parse(R"({
    "source": "sends.failed.total <= 0", "figure": "sends.failed.total", "op": "<=",
    "value": "0", "passed": true, "measured": 0, "expected": 0, "message": "one line"})");
  EXPECT_EQ(report["expectations"], nlohmann::json::array({expected}));
  EXPECT_EQ(report["verdict"], "pass");
}

TEST(ReportDocument, WholeNumbersStayIntegersAndMissingOnesAreNull) {
  const auto report =
      build_report(kResult, {kInput, kInput, kInput},
                   {verdict(true, 135929.0), verdict(true, 0.25), verdict(false, std::nullopt)});
  EXPECT_EQ(report["expectations"][0]["measured"].dump(), "135929");
  EXPECT_EQ(report["expectations"][1]["measured"].dump(), "0.25");
  EXPECT_TRUE(report["expectations"][2]["measured"].is_null());
}

TEST(ReportDocument, OneFailedExpectationFailsTheReport) {
  const auto report =
      build_report(kResult, {kInput, kInput}, {verdict(true, 0.0), verdict(false, 1.0)});
  EXPECT_EQ(report["verdict"], "fail");
}

TEST(ReportDocument, InputsAndVerdictsMustBeParallel) {
  EXPECT_THROW(build_report(kResult, {kInput}, {}), std::invalid_argument);
}

// nssim run decides before a run which names of --out belong to its group: the list must be the
// files a run gives.
TEST(ReportFiles, NamesKnownBeforeARunAreTheFilesItGives) {
  const auto files = render_report_files(kResult, build_report(kResult, {}, {}));
  std::vector<std::string> names;
  for (const auto& file : files) names.push_back(file.name);
  EXPECT_EQ(names, report_file_names());
}

TEST(ReportFiles, ResultJsonThenReportJsonAsIndentedJson) {
  const auto report = build_report(kResult, {}, {});
  const auto files = render_report_files(kResult, report);
  ASSERT_GE(files.size(), 2u);
  EXPECT_EQ(files[0].name, "result.json");
  EXPECT_EQ(files[0].content, kResult.dump(2) + "\n");
  EXPECT_EQ(files[1].name, "report.json");
  // Written out by hand: keys sorted, two-space indent, a final newline.
  EXPECT_EQ(files[1].content, R"({
  "expectations": [],
  "result_schema": "nssim.result/1",
  "scenario": {
    "duration_ms": 3000,
    "name": "tiny",
    "profile": "5.x",
    "seed": 7
  },
  "schema": "nssim.report/1",
  "sends": {
    "failed": {
      "total": 0
    },
    "ok": 3,
    "total": 3
  },
  "verdict": "no_expectations"
}
)");
}

}  // namespace
}  // namespace nssim::reports

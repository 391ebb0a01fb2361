// Expectations against a run's result: figure paths, operators, predicted bounds, and the
// messages that say which figure moved and by how much.
#include "reports/expectations.h"

#include <gtest/gtest.h>

namespace nssim::reports {
namespace {

const nlohmann::json kExpectationsResult = nlohmann::json::parse(R"({
  "sends": {"failed": {"total": 3}},
  "outages": [{"nameserver_drop_ms": {"max": 112800, "min": null},
               "predicted": {"nameserver_removal_ms": {"max_ms": 125000}}}]
})");

ExpectationVerdict check(const std::string& figure, const std::string& op,
                         const std::string& value) {
  return check_expectations(kExpectationsResult,
                            {{figure, op, value, figure + " " + op + " " + value}})
      .at(0);
}

TEST(Expectations, FigurePathsReachNestedFields) {
  EXPECT_EQ(figure_at(kExpectationsResult, "sends.failed.total"), nlohmann::json(3));
  EXPECT_EQ(figure_at(kExpectationsResult, "outages[0].nameserver_drop_ms.max"),
            nlohmann::json(112800));
  EXPECT_FALSE(figure_at(kExpectationsResult, "outages[1].nameserver_drop_ms.max").has_value());
  EXPECT_FALSE(figure_at(kExpectationsResult, "sends.ok").has_value());
}

// Each operator against the measured 3, with the value below, at and above it: the equality edge
// and both sides, so an operator that always holds (or never does) fails.
TEST(Expectations, EveryOperatorHoldsExactlyWhereItShould) {
  struct Row {
    const char* op;
    bool below;  // 3 op 2
    bool at;     // 3 op 3
    bool above;  // 3 op 4
  };
  for (const Row& row :
       {Row{"==", false, true, false}, Row{"!=", true, false, true}, Row{"<", false, false, true},
        Row{"<=", false, true, true}, Row{">", true, false, false}, Row{">=", true, true, false}}) {
    EXPECT_EQ(check("sends.failed.total", row.op, "2").passed, row.below) << "3 " << row.op << " 2";
    EXPECT_EQ(check("sends.failed.total", row.op, "3").passed, row.at) << "3 " << row.op << " 3";
    EXPECT_EQ(check("sends.failed.total", row.op, "4").passed, row.above) << "3 " << row.op << " 4";
    EXPECT_EQ(check("sends.failed.total", row.op, "3.5").passed, row.above)
        << "3 " << row.op << " 3.5";
  }
}

TEST(Expectations, FailureSaysWhatMovedAndByHowMuch) {
  const auto verdict = check("sends.failed.total", "==", "0");
  EXPECT_FALSE(verdict.passed);
  EXPECT_EQ(verdict.message, "sends.failed.total = 3, expected == 0 (off by 3)");
}

TEST(Expectations, PredictedValuesComeFromTheSameOutage) {
  const auto verdict =
      check("outages[0].nameserver_drop_ms.max", "<=", "predicted.nameserver_removal_ms.max_ms");
  EXPECT_TRUE(verdict.passed);
  EXPECT_EQ(verdict.expected, 125000);
}

TEST(Expectations, MissingOrNullFiguresFail) {
  EXPECT_EQ(check("outages[3].x", "<", "1").message, "outages[3].x is not in the result");
  EXPECT_EQ(check("outages[0].nameserver_drop_ms.min", "<", "1").message,
            "outages[0].nameserver_drop_ms.min has no value (null)");
  EXPECT_FALSE(check("sends.failed.total", "<", "predicted.x").passed);
}

}  // namespace
}  // namespace nssim::reports

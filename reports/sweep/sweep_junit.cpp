// File: junit_suite_from_sweep, render_sweep_files and their names (see sweep_files.h).
#include "reports/report_field.h"
#include "reports/sweep/sweep_files.h"
#include "reports/sweep/sweep_html.h"

namespace nssim::reports {

namespace {

std::string seeds_jsonl(const std::vector<SeedRecord>& records) {
  std::string text;
  for (const auto& record : records) text += seed_record_line(record, false) + "\n";
  return text;
}

// "first..last", the seeds every expectation of the sweep was judged over.
std::string seeds_text(const nlohmann::json& sweep) {
  const auto& seeds = field(sweep, "seeds");
  return plain_text(field(seeds, "first")) + ".." + plain_text(field(seeds, "last"));
}

}  // namespace

JunitSuite junit_suite_from_sweep(const nlohmann::json& sweep) {
  JunitSuite suite{plain_text(field(field(sweep, "scenario"), "name")) + " sweep", {}};
  const auto& points = field(sweep, "points");
  const bool grid = points.size() > 1;
  for (const auto& point : points) {
    for (const auto& expectation : field(point, "expectations")) {
      const bool passed = field(expectation, "passed") == true;
      std::string name = plain_text(field(expectation, "source"));
      if (grid) name += " [" + plain_text(field(point, "label")) + "]";
      std::string detail;
      if (!passed) {
        detail = plain_text(field(expectation, "message")) +
                 "\nworst seed: " + plain_text(field(expectation, "worst_seed")) +
                 "\nrepeat: " + plain_text(field(expectation, "worst_command"));
      }
      std::vector<std::pair<std::string, std::string>> properties{
          {"figure", plain_text(field(expectation, "figure"))},
          {"statistic", plain_text(field(expectation, "stat"))},
          {"measured", plain_text(field(expectation, "measured"))},
          {"expected",
           plain_text(field(expectation, "op")) + " " + plain_text(field(expectation, "expected"))},
          {"seeds", seeds_text(sweep)},
          {"profile",
           plain_text(field(point, "profile").is_null() ? field(field(sweep, "scenario"), "profile")
                                                        : field(point, "profile"))},
          {"worst_seed", plain_text(field(expectation, "worst_seed"))},
          {"worst_command", plain_text(field(expectation, "worst_command"))}};
      suite.cases.push_back({std::move(name), passed, plain_text(field(expectation, "message")),
                             std::move(detail), std::move(properties)});
    }
  }
  if (suite.cases.empty()) {
    suite.cases.push_back({"sweep",
                           true,
                           "",
                           "",
                           {{"seeds", seeds_text(sweep)},
                            {"profile", plain_text(field(field(sweep, "scenario"), "profile"))}}});
  }
  return suite;
}

std::vector<ReportFile> render_sweep_files(const nlohmann::json& sweep,
                                           const std::vector<SeedRecord>& records) {
  return {{"sweep.json", sweep.dump(2) + "\n"},
          {"seeds.jsonl", seeds_jsonl(records)},
          {"sweep.html", render_sweep_html(sweep)},
          {"sweep.md", render_sweep_markdown(sweep)},
          {"junit.xml", render_junit({junit_suite_from_sweep(sweep)})}};
}

const std::vector<std::string>& sweep_file_names() {
  static const std::vector<std::string> names = {"sweep.json", "seeds.jsonl", "sweep.html",
                                                 "sweep.md", "junit.xml"};
  return names;
}

}  // namespace nssim::reports

// File: render_report_files (see report_files.h). One line per file keeps the list easy to extend.
#include "reports/report_files.h"

#include "reports/html/html_report.h"
#include "reports/json_text.h"
#include "reports/junit_report.h"
#include "reports/markdown/markdown_report.h"
#include "reports/timeseries_csv.h"

namespace nssim::reports {

std::vector<ReportFile> render_report_files(const nlohmann::json& result,
                                            const nlohmann::json& report) {
  // build_report copies every member of the result but "schema" into the report.
  MemberTexts shared = member_texts(result);
  shared.erase("schema");
  std::vector<ReportFile> files;
  files.push_back({"result.json", object_text(result, shared) + "\n"});
  files.push_back({"report.json", object_text(report, shared) + "\n"});
  files.push_back({"report.md", render_markdown(report)});
  files.push_back({"report.html", render_html_report(report)});
  files.push_back({"junit.xml", render_junit({junit_suite_from_report(report)})});
  files.push_back({"timeseries.csv", render_timeseries_csv(report)});
  return files;
}

const std::vector<std::string>& report_file_names() {
  static const std::vector<std::string> names = {"result.json", "report.json", "report.md",
                                                 "report.html", "junit.xml",   "timeseries.csv"};
  return names;
}

}  // namespace nssim::reports

// File: the set of files a run's report is written as (report.json and its renderings), so that
// `nssim run` and `nssim check` write the same documents under the same names.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nssim::reports {

struct ReportFile {
  std::string name;  // file name inside the run's output folder
  std::string content;
};

// Renders `report` (see report_document.h) into every report file, in a fixed order.
std::vector<ReportFile> render_report_files(const nlohmann::json& report);

}  // namespace nssim::reports

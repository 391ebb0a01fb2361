// File: the files a run is written as besides its event log: result.json, then report.json and
// its renderings, so that every command that writes a run's files writes the same documents under
// the same names.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace nssim::reports {

struct ReportFile {
  std::string name;  // file name inside the run's output folder
  std::string content;
};

// result.json from `result`, then `report` (build_report of that result, see report_document.h)
// rendered into every report file, in a fixed order.
std::vector<ReportFile> render_report_files(const nlohmann::json& result,
                                            const nlohmann::json& report);

// The names render_report_files gives its files, in its order, known before any run.
const std::vector<std::string>& report_file_names();

}  // namespace nssim::reports

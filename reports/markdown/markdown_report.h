// File: report.md, the report as Markdown fit to paste into a pull request: what ran, what each
// outage did to the NameServers and the producers beside what RocketMQ's rules predict, and the
// expectations' verdicts. Pure: the report document in, text out.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports {

// Renders a report document (schema nssim.report/1, see report_document.h). Fields the document
// lacks are left out or read as "n/a"; the output depends on the document only.
std::string render_markdown(const nlohmann::json& report);

}  // namespace nssim::reports

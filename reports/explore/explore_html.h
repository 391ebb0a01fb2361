// File: explore.json -> explore.html, one self-contained page (the run report's style sheet, no
// script, no network): the properties with the runs that broke them and the run nearest each
// bound, the counterexamples with their commands, and the coverage, all runs and per fault kind.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports {

// Renders an explore document (schema nssim.explore/1); every string from the JSON is escaped and
// the same document always gives the same bytes. A missing part is left out.
std::string render_explore_html(const nlohmann::ordered_json& explore);

}  // namespace nssim::reports

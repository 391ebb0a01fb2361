// File: why an outage has no predicted window, in the words every rendering (report.md,
// report.html, the terminal) uses, so that all say the same as result.json's
// outages[].predicted.not_predicted.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace nssim::reports {

// "none: the fault ends by the earliest removal, 90.0 s" for an outage whose `predicted` says its
// rules cannot fire within the fault; "" when it does not say so.
std::string not_predicted_text(const nlohmann::json& predicted);

}  // namespace nssim::reports

// File: not_predicted_text (see prediction_text.h).
#include "reports/prediction_text.h"

#include "reports/duration_text.h"
#include "reports/report_field.h"

namespace nssim::reports {

std::string not_predicted_text(const nlohmann::json& predicted) {
  if (field(predicted, "not_predicted") != "fault_ends_before_earliest_removal") return "";
  return "none: the fault ends by the earliest removal, " +
         duration_text(field(predicted, "earliest_removal_ms"), "n/a");
}

}  // namespace nssim::reports

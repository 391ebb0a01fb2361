// File: field (see report_field.h).
#include "report_field.h"

namespace nssim::reports {

const nlohmann::json& field(const nlohmann::json& object, const std::string& key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  const auto found = object.find(key);
  return found == object.end() ? kNull : *found;
}

}  // namespace nssim::reports

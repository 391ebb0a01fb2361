// File: the admin-operations section of report.md: for each wipeWritePerm / addWritePerm /
// updateTopic, how long the producers took to follow it, beside the bound RocketMQ's rules give.
#include "reports/markdown/markdown_format.h"
#include "reports/markdown/markdown_sections.h"
#include "reports/report_field.h"

namespace nssim::reports::markdown {

std::string admin_section(const nlohmann::json& admin) {
  if (admin.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& entry : admin) {
    const auto& producers = field(entry, "producers");
    const auto& followed = field(producers, "followed_ms");
    const std::string topic = string_text(field(entry, "topic"));
    rows.push_back(
        {string_text(field(entry, "kind")) + " " + string_text(field(entry, "broker_name")) +
             (topic.empty() ? "" : " (" + topic + ")"),
         duration_text(field(entry, "at_ms"), "never"),
         string_text(field(entry, "producers_should")) + " the group",
         number_text(field(producers, "affected")), number_text(field(followed, "never")),
         duration_text(field(followed, "min"), "never") + " / " +
             duration_text(field(followed, "p50"), "never") + " / " +
             duration_text(field(followed, "max"), "never"),
         range_text(field(field(entry, "predicted"), "followed_ms"))});
  }
  return "## Admin operations\n\nProducers learn an admin change only at their next route "
         "poll.\n\n" +
         table({"operation", "at", "producers should", "affected", "never followed",
                "followed after min / p50 / max", "predicted"},
               rows);
}

}  // namespace nssim::reports::markdown

// File: the consumers in report.md (reports/README.md "Consumers"): per consumer group what it
// received of what the brokers stored, its duplicates, stalls, ownership gaps and latency, and
// the longest stalls.
#include "reports/markdown/markdown_format.h"
#include "reports/markdown/markdown_sections.h"

namespace nssim::reports::markdown {

std::string consumers_section(const nlohmann::json& consumers) {
  if (!consumers.is_object()) return "";
  std::vector<std::vector<std::string>> rows;
  std::vector<std::vector<std::string>> stalls;
  for (const auto& group : field(consumers, "groups")) {
    const auto& stall = field(group, "stall_ms");
    const auto& latency = field(group, "latency_ms");
    rows.push_back(
        {string_text(field(group, "group")), number_text(field(group, "stored")),
         number_text(field(group, "delivered")), number_text(field(group, "never_delivered")),
         number_text(field(group, "duplicates")), number_text(field(stall, "count")),
         duration_text(field(stall, "max"), "-"), duration_text(field(stall, "total"), "-"),
         duration_text(field(field(group, "no_owner_ms"), "total"), "-"),
         duration_text(field(field(group, "two_owners_ms"), "total"), "-"),
         duration_text(field(latency, "p50"), "-") + " / " +
             duration_text(field(latency, "p99"), "-")});
    for (const auto& s : field(group, "longest_stalls")) {
      stalls.push_back({string_text(field(group, "group")), string_text(field(s, "queue")),
                        number_text(field(s, "from_ms")), number_text(field(s, "to_ms")),
                        duration_text(field(s, "ms"), "-")});
    }
  }
  std::string text =
      "## Consumers\n\n" +
      table({"group", "stored", "delivered", "never delivered", "duplicates", "stalls",
             "longest stall", "stalled in all", "no owner", "two owners", "latency p50 / p99"},
            rows);
  if (!stalls.empty()) {
    text +=
        "Longest stalls:\n\n" + table({"group", "queue", "from ms", "to ms", "stalled"}, stalls);
  }
  return text;
}

}  // namespace nssim::reports::markdown

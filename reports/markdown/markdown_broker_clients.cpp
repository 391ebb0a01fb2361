// File: the brokers' client tables in report.md (reports/README.md "Broker client tables"): per
// broker the heartbeats it processed, the producer channels it held at the end and why entries
// left its table.
#include "reports/markdown/markdown_format.h"
#include "reports/markdown/markdown_sections.h"

namespace nssim::reports::markdown {

std::string broker_clients_section(const nlohmann::json& brokers) {
  if (!brokers.is_object()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& broker : field(brokers, "per_broker")) {
    const auto& removals = field(broker, "removals");
    rows.push_back(
        {string_text(field(broker, "node")), number_text(field(broker, "heartbeats_processed")),
         number_text(field(broker, "producer_channels_at_end")),
         number_text(field(removals, "scan_expiry")), number_text(field(removals, "channel_close")),
         number_text(field(removals, "idle")), number_text(field(removals, "restart"))});
  }
  const auto& delay = field(brokers, "scan_expiry_delay_ms");
  const std::string delays =
      field(delay, "count") == 0
          ? ""
          : " A scan expiry came " + duration_text(field(delay, "p50"), "never") +
                " (p50), at most " + duration_text(field(delay, "max"), "never") +
                " after the channel's last heartbeat.";
  return "## Broker client tables\n\n" + number_text(field(brokers, "brokers")) +
         " brokers processed " + number_text(field(brokers, "heartbeats_processed")) +
         " heartbeats and held " + number_text(field(brokers, "producer_channels_at_end")) +
         " producer channels at the end." + delays + "\n\n" +
         table({"broker", "heartbeats", "channels at end", "scan expiry", "channel close", "idle",
                "restart"},
               rows);
}

}  // namespace nssim::reports::markdown

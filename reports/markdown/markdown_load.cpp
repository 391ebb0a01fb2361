// File: what the run asked of its servers in report.md (reports/README.md "Server load"): per
// NameServer and request code the requests served, their mean and peak per second, and per broker
// its registrations and the heartbeats it processed.
#include "reports/markdown/markdown_format.h"
#include "reports/markdown/markdown_sections.h"
#include "reports/report_field.h"

namespace nssim::reports::markdown {

std::string server_load_section(const nlohmann::json& nameservers, const nlohmann::json& brokers) {
  if (!nameservers.is_object()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& [node, load] : field(nameservers, "per_nameserver").items()) {
    rows.push_back({node, "all", number_text(field(load, "total")),
                    rate_text(field(load, "mean_per_s")),
                    number_text(field(load, "peak_per_s")) + "/s"});
    for (const auto& [code, counts] : field(load, "by_code").items()) {
      rows.push_back({node, code, number_text(field(counts, "total")),
                      rate_text(field(counts, "mean_per_s")),
                      number_text(field(counts, "peak_per_s")) + "/s"});
    }
  }
  std::string text = "## Server load\n\nRequests each NameServer served; the peak is the fullest " +
                     number_text(field(nameservers, "bucket_ms")) + " ms bucket.\n\n" +
                     table({"NameServer", "request code", "requests", "mean", "peak"}, rows);
  if (!brokers.is_object()) return text;
  rows.clear();
  for (const auto& broker : field(brokers, "per_broker")) {
    rows.push_back({string_text(field(broker, "node")), number_text(field(broker, "registrations")),
                    rate_text(field(broker, "registrations_per_s")),
                    number_text(field(broker, "heartbeats_processed")),
                    rate_text(field(broker, "heartbeats_per_s"))});
  }
  return text +
         "Per broker: the REGISTER_BROKER requests the NameServers served from it, and the "
         "client heartbeats it processed.\n\n" +
         table({"broker", "registrations", "per second", "heartbeats", "per second"}, rows);
}

}  // namespace nssim::reports::markdown

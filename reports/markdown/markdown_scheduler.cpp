// File: the clients' scheduler threads in report.md (reports/README.md "Client scheduler"): the
// clients whose route polls started latest, heartbeats per broker address, and per broker removal
// how long the clients took to poll after it.
#include <algorithm>

#include "reports/markdown/markdown_format.h"
#include "reports/markdown/markdown_sections.h"

namespace nssim::reports::markdown {

namespace {

// How many clients report.md lists; result.json lists more (kListedClients), worst first.
constexpr std::size_t kListedSchedulerClients = 10;

std::string latest_clients_part(const nlohmann::json& scheduler) {
  const auto& clients = field(scheduler, "per_client");
  if (!clients.is_array() || clients.empty()) return "";
  const std::size_t listed = std::min(kListedSchedulerClients, clients.size());
  std::vector<std::vector<std::string>> rows;
  for (std::size_t i = 0; i < listed; ++i) {
    const auto& client = clients[i];
    rows.push_back({string_text(field(client, "name")), number_text(field(client, "route_polls")),
                    duration_text(field(client, "route_poll_delay_max_ms"), "never"),
                    duration_text(field(client, "route_poll_delay_p99_ms"), "never"),
                    duration_text(field(client, "behind_ms"), "never"),
                    number_text(field(client, "heartbeat_attempts")),
                    number_text(field(client, "heartbeat_failures"))});
  }
  return "### Clients with the latest route polls\n\n" +
         table(
             {"client", "route polls", "delay max", "delay p99", "behind", "heartbeats", "failed"},
             rows);
}

std::string heartbeats_part(const nlohmann::json& scheduler) {
  const auto& brokers = field(scheduler, "heartbeats_by_broker");
  if (!brokers.is_array() || brokers.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& b : brokers) {
    const auto& failed = field(b, "failed");
    rows.push_back({string_text(field(b, "broker_addr")), string_text(field(b, "broker_name")),
                    number_text(field(b, "broker_id")), number_text(field(b, "attempts")),
                    number_text(field(b, "ok")), number_text(field(failed, "total")),
                    failed_causes_text(failed)});
  }
  return "### Heartbeats by broker address\n\n" +
         table({"address", "broker", "id", "heartbeats", "ok", "failed", "failed by cause"}, rows);
}

std::string removals_part(const nlohmann::json& scheduler) {
  const auto& removals = field(scheduler, "removals");
  if (!removals.is_array() || removals.empty()) return "";
  std::vector<std::vector<std::string>> rows;
  for (const auto& removal : removals) {
    const auto& f_minus_r = field(removal, "f_minus_r_ms");
    rows.push_back(
        {string_text(field(removal, "broker_name")), string_text(field(removal, "broker_addr")),
         duration_text(field(removal, "removed_at_ms"), "never"),
         number_text(field(removal, "clients")), duration_text(field(f_minus_r, "p50"), "never"),
         duration_text(field(f_minus_r, "p99"), "never"),
         duration_text(field(f_minus_r, "max"), "never"), number_text(field(f_minus_r, "never"))});
  }
  return "### First route poll after a broker removal (F - R)\n\n"
         "R: the last NameServer a client can ask stopped listing the broker group's master; F: "
         "the start of the client's first route poll at or after R.\n\n" +
         table({"broker", "master", "R", "clients", "F - R p50", "p99", "max", "never polled"},
               rows);
}

}  // namespace

std::string client_scheduler_section(const nlohmann::json& scheduler) {
  if (!scheduler.is_object()) return "";
  const auto& delay = field(scheduler, "route_poll_delay_max_ms");
  const auto& behind = field(scheduler, "behind_ms");
  return "## Client scheduler\n\n" + number_text(field(scheduler, "clients")) + " clients ran " +
         number_text(field(scheduler, "route_polls")) + " route polls and " +
         number_text(field(scheduler, "heartbeat_runs")) +
         " heartbeat runs on their one scheduler thread; a run due while another held the thread "
         "started late (its delay). Latest route poll: " +
         duration_text(field(delay, "max"), "never") +
         "; longest behind: " + duration_text(field(behind, "max"), "never") +
         ". Heartbeats: " + number_text(field(scheduler, "heartbeat_attempts")) + ", failed " +
         number_text(field(scheduler, "heartbeat_failures")) + ".\n\n" +
         latest_clients_part(scheduler) + heartbeats_part(scheduler) + removals_part(scheduler);
}

}  // namespace nssim::reports::markdown

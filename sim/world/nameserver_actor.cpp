// File: NameServerActor (see nameserver_actor.h).
#include "sim/world/nameserver_actor.h"

#include <variant>

#include "sim/world/net.h"
#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace {

// Response sizes: a header plus what the body carries (estimates of upstream's JSON text).
std::uint64_t response_size_bytes(const core::RemotingResponse& response) {
  std::uint64_t size = 200;
  if (const auto* route =
          std::get_if<std::shared_ptr<const core::TopicRouteData>>(&response.body)) {
    size += 120 * (*route)->queue_datas.size() + 110 * (*route)->broker_datas.size();
  } else if (const auto* cluster =
                 std::get_if<std::shared_ptr<const core::ClusterInfo>>(&response.body)) {
    size += 110 * (*cluster)->broker_addr_table.size() + 40 * (*cluster)->cluster_addr_table.size();
  }
  return size;
}

}  // namespace

NameServerActor::NameServerActor(Net& net, NodeId self, std::uint32_t epoch, core::Profile profile,
                                 const NameServerSpec& spec, const core::KvConfigManager& kv,
                                 RouteHistory& routes, std::string node_name, EventLog& log,
                                 NameServerRequests& requests)
    : NodeActor(net, self, epoch),
      profile_(profile),
      spec_(spec),
      node_name_(std::move(node_name)),
      log_(log),
      requests_(requests),
      server_(std::make_unique<core::NameServer>(profile, spec.config, now_ms())),
      routes_(routes, self, profile) {
  server_->kv_config_manager() = kv;
  routes_.record(*server_, now_ms());  // empty tables: no topic is answered with a route
}

// Java: NamesrvController#initialize schedules scanNotActiveBroker: 4.9 after 5 s every 10 s
// (hard-coded); 5.x after 5 ms every scanNotActiveBrokerInterval.
void NameServerActor::on_start() {
  const std::int64_t now = now_ms();
  const bool v4 = profile_ == core::Profile::kV4_9;
  const std::int64_t first = now + (v4 ? 5000 : 5);
  const std::int64_t period = v4 ? 10000 : spec_.config.scan_not_active_broker_interval;
  every(first, period, [this] {
    const core::ScanOutcome outcome = server_->scan(now_ms());
    for (const auto& channel : outcome.channels_closed) {
      if (channels_.erase(channel.value) != 0) net_.close(channel.value, self());
    }
    record(outcome.removals);
    if (!outcome.removals.empty()) registry_changed();
  });
  // Java 5.x: ClientRequestProcessor answers "name server not ready" until waitSecondsForService
  // has passed since startup; the answers change then.
  const core::NamesrvConfig& config = server_->config();
  if (profile_ == core::Profile::kV5 && config.need_wait_for_service) {
    at(server_->start_time_ms() + std::int64_t{config.wait_seconds_for_service} * 1000, [this] {
      routes_.touch_all();
      routes_.record(*server_, now_ms());
    });
  }
}

void NameServerActor::on_envelope(const Envelope& envelope) {
  switch (envelope.kind) {
    case Envelope::Kind::kRequest:
      on_request(envelope);
      return;
    case Envelope::Kind::kFin:
      close_channel(envelope.conn, core::RemovalPath::kChannelClose);
      return;
    case Envelope::Kind::kResponse:
      return;  // the NameServer sends no requests in this model
    case Envelope::Kind::kWake:
      return;  // NodeActor::run consumes wake-ups
  }
}

void NameServerActor::on_request(const Envelope& envelope) {
  const std::int64_t now = now_ms();
  auto [slot, created] = channels_.try_emplace(envelope.conn, ChannelState{envelope.from, now});
  slot->second.last_activity_ms = now;
  if (created) watch_idle(envelope.conn);

  const int code = envelope.request->code;
  requests_.add(node_name_, code, now, net_.history().name(envelope.from));
  routes_.touch_request(*envelope.request, *server_);
  view_.touch_request(*envelope.request);
  auto response = server_->process(*envelope.request, core::ConnectionId{envelope.conn}, now);
  record(server_->take_request_removals());  // 4.9 unregisters inside the request
  if (code != core::request_code::kGetRouteinfoByTopic &&
      code != core::request_code::kGetBrokerClusterInfo) {
    record(server_->process_pending_unregistrations());  // 5.x BatchUnregistrationService
    registry_changed();
  }
  if (!response || envelope.oneway) return;

  auto reply = std::make_unique<Envelope>();
  reply->kind = Envelope::Kind::kResponse;
  reply->from = self();
  reply->to = envelope.from;
  reply->to_epoch = net_.connection(envelope.conn).client_epoch;
  reply->conn = envelope.conn;
  reply->opaque = envelope.opaque;
  const std::uint64_t size = response_size_bytes(*response);
  reply->response = std::make_shared<const core::RemotingResponse>(std::move(*response));
  net_.send(std::move(reply), size);
}

// Netty's IdleStateHandler(0, 0, serverChannelMaxIdleTimeSeconds): ALL_IDLE fires when neither a
// read nor a write happened for the whole period. Writes here follow reads at once, so the last
// read stands for both. A period of 0 adds no handler at all (IdleStateHandler treats a time of 0
// as "disabled"), so no connection is ever closed for being idle.
void NameServerActor::watch_idle(std::uint64_t conn) {
  const std::int64_t idle_ms = spec_.server_channel_max_idle_time_seconds * 1000;
  if (idle_ms <= 0) return;
  auto found = channels_.find(conn);
  if (found == channels_.end()) return;
  const std::int64_t deadline = found->second.last_activity_ms + idle_ms;
  at(deadline, [this, conn, idle_ms] {
    auto channel = channels_.find(conn);
    if (channel == channels_.end()) return;
    if (now_ms() - channel->second.last_activity_ms < idle_ms) return watch_idle(conn);
    close_channel(conn, core::RemovalPath::kChannelIdle);
  });
}

// Java: NettyConnectManageHandler — a channel that goes idle is closed (IDLE, then CLOSE); a
// channel the client closed gives CLOSE. Each event calls BrokerHousekeepingService.
void NameServerActor::close_channel(std::uint64_t conn, core::RemovalPath path) {
  if (channels_.erase(conn) == 0) return;
  net_.close(conn, self());
  const core::ConnectionId channel{conn};
  record(server_->channel_destroyed(channel, "", path));
  if (path != core::RemovalPath::kChannelClose) {
    record(server_->channel_destroyed(channel, "", core::RemovalPath::kChannelClose));
  }
  record(server_->process_pending_unregistrations());
  registry_changed();
}

void NameServerActor::admin(const core::RemotingRequest& request) {
  requests_.add(node_name_, request.code, now_ms());
  routes_.touch_request(request, *server_);
  view_.touch_request(request);
  const auto response = server_->process(request, core::ConnectionId{0}, now_ms());
  log_.add(now_ms(), node_name_, EventKind::kAdmin,
           {{"code", request.code}, {"response_code", response ? response->code : -1}});
  registry_changed();
}

void NameServerActor::registry_changed() {
  record_view();
  routes_.record(*server_, now_ms());
}

void NameServerActor::record(const std::vector<core::BrokerRemoval>& removals) {
  routes_.touch_removals(removals);
  view_.touch_removals(removals);
  for (const auto& removal : removals) {
    if (!removal.removed_live_entry && !removal.removed_addr_entry) continue;
    log_.add(now_ms(), node_name_, EventKind::kBrokerRemoved,
             {{"broker_addr", removal.broker_addr},
              {"broker_name", removal.broker_name},
              {"path", core::removal_path_name(removal.path)},
              {"removed_from_routes", removal.removed_addr_entry},
              {"removed_group", removal.removed_broker_name}});
  }
}

// Logs the NameServer's route view whenever it changes, as what changed: the groups whose
// members differ from the last view (with their ids and addresses now, or null for a group gone)
// and a digest of which groups each topic can be written to, so that disagreements between
// NameServers can be measured without logging whole tables. A view holds only the change because
// a registration storm changes the table once per broker: whole tables made events, memory and
// their analysis grow as brokers^2 (sim/analysis/route_views.h rebuilds the tables).
void NameServerActor::record_view() {
  if (auto change = view_.take_change(server_->route_info_manager())) {
    log_.add(now_ms(), node_name_, EventKind::kRouteView, std::move(*change));
  }
}

}  // namespace nssim::sim

// File: Net's delivery rules on top of NetworkHistory, and the hand-over of envelopes to SimGrid.
#include "sim/world/net.h"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace sg4 = simgrid::s4u;

namespace {
constexpr std::uint64_t kFinBytes = 66;  // an Ethernet frame carrying a TCP FIN
}  // namespace

Net::Net(NetworkHistory& history, std::vector<PlatformHost> hosts)
    : history_(history), hosts_(std::move(hosts)), client_only_(hosts_.size(), false) {
  for (const auto& host : hosts_) {
    inboxes_.push_back(sg4::Mailbox::by_name("inbox:" + host.host->get_name()));
  }
}

sg4::Mailbox* Net::inbox(NodeId node) const { return inboxes_[static_cast<std::size_t>(node)]; }

std::uint64_t Net::open_connection(NodeId client, std::uint32_t client_epoch, NodeId server,
                                   std::uint32_t server_epoch) {
  const std::uint64_t id = next_connection_++;
  connections_.emplace(id, Connection{client, client_epoch, server, server_epoch, true, true});
  return id;
}

bool Net::is_open(std::uint64_t conn, NodeId node) const {
  const Connection& c = connections_.at(conn);
  return node == c.client ? c.client_open : c.server_open;
}

NodeId Net::peer_of(const Connection& connection, NodeId node) const {
  return node == connection.client ? connection.server : connection.client;
}

std::uint32_t Net::epoch_of(const Connection& connection, NodeId node) const {
  return node == connection.client ? connection.client_epoch : connection.server_epoch;
}

void Net::set_client_only(NodeId node, bool client_only) {
  client_only_[static_cast<std::size_t>(node)] = client_only;
}

Delivery Net::classify(const Envelope& envelope) const {
  const std::int64_t t = now_ms();
  const Connection& c = connections_.at(envelope.conn);
  Delivery delivery = history_.deliver(envelope.from, envelope.to, envelope.to_epoch, t);
  if (delivery == Delivery::kRefused && client_only_[static_cast<std::size_t>(envelope.to)] &&
      c.client == envelope.to && history_.reachable(envelope.from, envelope.to, t) &&
      history_.state_at(envelope.to, t).epoch == envelope.to_epoch) {
    delivery = Delivery::kDelivered;
  }
  // A socket closed on the receiving side answers with RST.
  if (delivery == Delivery::kDelivered && !is_open(envelope.conn, envelope.to)) {
    delivery = Delivery::kRefused;
  }
  return delivery;
}

Delivery Net::send(std::unique_ptr<Envelope> envelope, std::uint64_t size_bytes) {
  const Delivery delivery = classify(*envelope);
  if (delivery == Delivery::kDelivered) {
    Envelope* raw = envelope.release();
    inbox(raw->to)->put_init(raw, size_bytes)->detach([](void* payload) {
      delete static_cast<Envelope*>(payload);
    });
  }
  return delivery;
}

void Net::wake(std::unique_ptr<Envelope> envelope) {
  Envelope* raw = envelope.release();
  inbox(raw->to)->put_init(raw, 0)->detach(
      [](void* payload) { delete static_cast<Envelope*>(payload); });
}

void Net::close(std::uint64_t conn, NodeId node) {
  Connection& c = connections_.at(conn);
  bool& own_end = node == c.client ? c.client_open : c.server_open;
  if (!own_end) return;
  own_end = false;
  const NodeId peer = peer_of(c, node);
  if (!is_open(conn, peer)) return;
  auto fin = std::make_unique<Envelope>();
  fin->kind = Envelope::Kind::kFin;
  fin->from = node;
  fin->to = peer;
  fin->to_epoch = epoch_of(c, peer);
  fin->conn = conn;
  send(std::move(fin), kFinBytes);
}

void Net::process_ended(NodeId node, DownKind kind) {
  std::vector<std::uint64_t> ends;
  for (auto& [id, c] : connections_) {
    if ((c.client == node && c.client_open) || (c.server == node && c.server_open)) {
      ends.push_back(id);
    }
  }
  if (kind == DownKind::kPoweroff) {
    for (auto id : ends) {
      Connection& c = connections_.at(id);
      (node == c.client ? c.client_open : c.server_open) = false;
    }
    return;
  }
  // The FINs leave from the dead process's host, so they take that host's latency.
  sg4::Actor::create("kernel-fin", host(node).host, [this, node, ends] {
    for (auto id : ends) close(id, node);
  });
}

bool Net::accept(const Envelope& envelope) const {
  const std::int64_t t = now_ms();
  const NodeState state = history_.state_at(envelope.to, t);
  if (state.epoch != envelope.to_epoch) return false;  // sent to an older incarnation
  const Connection& c = connections_.at(envelope.conn);
  const bool client_only =
      client_only_[static_cast<std::size_t>(envelope.to)] && c.client == envelope.to;
  if (state.process == ProcessState::kDown && !client_only) return false;
  return is_open(envelope.conn, envelope.to);
}

double Net::round_trip_ms(NodeId a, NodeId b) const {
  return 2.0 * history_.one_way_latency_ms(a, b, now_ms());
}

}  // namespace nssim::sim

// File: Net's delivery rules on top of NetworkHistory, the per-connection streams, and the
// carriers that hand envelopes to SimGrid.
#include "sim/world/net.h"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include "sim/world/simgrid_clock.h"

namespace nssim::sim {

namespace sg4 = simgrid::s4u;

namespace {
constexpr std::uint64_t kFinBytes = 66;  // an Ethernet frame carrying a TCP FIN
}  // namespace

// The carriers: each envelope crosses the platform in a host-to-host SimGrid communication of
// its own, started when it is sent, so transfers to one node overlap as they do over separate
// TCP connections. A latency fault's extra latency is waited out before the transfer (see
// Net::send). A SimGrid 3.32 actor can be woken at once only through a synchronisation
// object, not by a communication it does not wait on, so a carrier actor waits on each transfer
// and hands the envelope to the receiver's socket layer when it ends. Idle carriers are reused;
// the pool grows to the largest number of envelopes in flight at once. Carriers are daemons, so
// they end with the simulation.
class Net::Wire {
 public:
  explicit Wire(Net& net) : net_(net) {}

  void carry(sg4::Host* from, sg4::Host* to, double delay_s, std::uint64_t size_bytes,
             std::unique_ptr<Envelope> envelope) {
    Carrier* carrier = nullptr;
    if (idle_.empty()) {
      carriers_.push_back(std::make_unique<Carrier>());
      carrier = carriers_.back().get();
      carrier->go = sg4::Semaphore::create(0);
      sg4::Actor::create("wire", from, [this, carrier] { run(*carrier); })->daemonize();
    } else {
      carrier = idle_.back();
      idle_.pop_back();
    }
    carrier->from = from;
    carrier->to = to;
    carrier->delay_s = delay_s;
    carrier->size_bytes = size_bytes;
    carrier->envelope = std::move(envelope);
    carrier->go->release();
  }

 private:
  struct Carrier {
    sg4::SemaphorePtr go;
    sg4::Host* from = nullptr;
    sg4::Host* to = nullptr;
    double delay_s = 0;
    std::uint64_t size_bytes = 0;
    std::unique_ptr<Envelope> envelope;
  };
  // Cancels the transfer when the carrier is killed at the end of the simulation, or SimGrid
  // complains that a started communication was freed.
  struct Transfer {
    sg4::CommPtr comm;
    ~Transfer() {
      if (comm && comm->get_state() == sg4::Activity::State::STARTED) comm->cancel();
    }
  };

  void run(Carrier& carrier) {
    for (;;) {
      carrier.go->acquire();
      if (carrier.delay_s > 0) sg4::this_actor::sleep_for(carrier.delay_s);
      {
        Transfer transfer{sg4::Comm::sendto_async(carrier.from, carrier.to, carrier.size_bytes)};
        transfer.comm->wait();
      }
      net_.arrive(std::move(carrier.envelope));
      idle_.push_back(&carrier);
    }
  }

  Net& net_;
  std::vector<std::unique_ptr<Carrier>> carriers_;
  std::vector<Carrier*> idle_;
};

Net::Net(NetworkHistory& history, std::vector<PlatformHost> hosts)
    : history_(history),
      hosts_(std::move(hosts)),
      ports_(hosts_.size()),
      client_only_(hosts_.size(), false),
      wire_(std::make_unique<Wire>(*this)) {
  for (auto& port : ports_) port.doorbell = sg4::Semaphore::create(0);
  for (std::size_t i = 0; i < hosts_.size(); ++i) {
    link_latency_ms_.push_back(history_.state_at(static_cast<NodeId>(i), 0).latency_ms);
  }
}

Net::~Net() = default;

std::uint64_t Net::open_connection(NodeId client, std::uint32_t client_epoch, NodeId server,
                                   std::uint32_t server_epoch) {
  const std::uint64_t id = next_connection_++;
  Connection& c = connections_[id];
  c.client = client;
  c.client_epoch = client_epoch;
  c.server = server;
  c.server_epoch = server_epoch;
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
    Connection& c = connections_.at(envelope->conn);
    Stream& stream = envelope->to == c.client ? c.to_client : c.to_server;
    envelope->seq = stream.next_sent++;
    sg4::Host* from = host(envelope->from).host;
    sg4::Host* to = host(envelope->to).host;
    const double delay_s = extra_latency_s(envelope->from) + extra_latency_s(envelope->to);
    wire_->carry(from, to, delay_s, size_bytes, std::move(envelope));
  }
  return delivery;
}

void Net::wake(std::unique_ptr<Envelope> envelope) {
  sg4::Host* to = host(envelope->to).host;
  const double delay_s = extra_latency_s(envelope->to);
  wire_->carry(sg4::this_actor::get_host(), to, delay_s, 0, std::move(envelope));
}

// A latency fault changes NetworkHistory, not the SimGrid links: SimGrid 3.32's
// Link::set_latency (CM02) shifts the sharing penalty of the communications already crossing the
// link, and one in flight when a fault ended stalled for seconds, until another flow on the same
// links made the solver run again. So the links keep the latency they were built with, and an
// envelope waits out the extra latency in force when it is sent (the rule of
// NetworkHistory::transit_ms) before its transfer. Deviation: a fault that lowers a link's
// latency below the configured one does not shorten the SimGrid transfer, which keeps the
// configured latency; and the TCP window cap CM02 derives from the latency (TCP-gamma / 2 RTT)
// sees only the configured one.
double Net::extra_latency_s(NodeId node) const {
  const double now = history_.state_at(node, now_ms()).latency_ms;
  const double extra = now - link_latency_ms_[static_cast<std::size_t>(node)];
  return extra > 0 ? extra / 1000.0 : 0.0;
}

void Net::arrive(std::unique_ptr<Envelope> envelope) {
  const NodeId to = envelope->to;
  if (envelope->kind == Envelope::Kind::kWake) {
    hand_over(std::move(envelope));
  } else {
    Connection& c = connections_.at(envelope->conn);
    Stream& stream = to == c.client ? c.to_client : c.to_server;
    if (envelope->seq != stream.next_delivered) {
      const std::uint64_t seq = envelope->seq;
      stream.early.emplace(seq, std::move(envelope));
      return;
    }
    hand_over(std::move(envelope));
    ++stream.next_delivered;
    while (!stream.early.empty() && stream.early.begin()->first == stream.next_delivered) {
      hand_over(std::move(stream.early.begin()->second));
      stream.early.erase(stream.early.begin());
      ++stream.next_delivered;
    }
  }
  Port& port = ports_[static_cast<std::size_t>(to)];
  if (port.waiting) {
    port.waiting = false;
    port.doorbell->release();
  }
}

void Net::hand_over(std::unique_ptr<Envelope> envelope) {
  ports_[static_cast<std::size_t>(envelope->to)].ready.push_back(std::move(envelope));
}

std::unique_ptr<Envelope> Net::take(NodeId node) {
  Port& port = ports_[static_cast<std::size_t>(node)];
  if (port.ready.empty()) return nullptr;
  std::unique_ptr<Envelope> envelope = std::move(port.ready.front());
  port.ready.pop_front();
  return envelope;
}

void Net::await(NodeId node, double timeout_s) {
  Port& port = ports_[static_cast<std::size_t>(node)];
  if (!port.ready.empty()) return;
  // Clears the flag however the wait ends, also when the waiting actor is killed.
  struct Waiting {
    bool& flag;
    ~Waiting() { flag = false; }
  } waiting{port.waiting};
  port.waiting = true;
  if (timeout_s < 0) {
    port.doorbell->acquire();
  } else if (timeout_s > 0) {
    port.doorbell->acquire_timeout(timeout_s);
  }
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
  // The FINs leave from the dead process's host (Net::send sends from `from`'s host), so they
  // take that host's latency, and each follows what was already sent on its connection.
  for (auto id : ends) close(id, node);
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
